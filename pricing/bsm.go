package pricing

import (
	"math"

	"chainwatch/market"
)

// The client's one Black-Scholes-Merton: a strategy's legs are repriced
// with it at another spot, day or IV (the risk graph's curves before
// expiry, P&L at a date), it fills a leg's greeks the service left null,
// and positioning's zero-gamma search prices every contract's gamma at
// other spots with it (GammaShape). The service's own pricer
// (sandbox/bsm) is the service's: the client never imports it. European
// exercise, a continuous rate and no dividend: the assumption the
// strategy page and docs/strategies.md state.

// Multiplier is the shares one equity or index option stands for: a
// premium in dollars is price x size x Multiplier.
const Multiplier = 100

// Greeks are one option's sensitivities in the service's units: delta
// and gamma per 1.00 of the underlying, vega per vol point, theta per
// calendar day.
type Greeks struct{ Delta, Gamma, Theta, Vega float64 }

// NormCDF is the standard normal distribution function.
func NormCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func normPDF(x float64) float64 { return math.Exp(-0.5*x*x) / math.Sqrt(2*math.Pi) }

// Price is a European option's value at spot s, strike k, t years to
// expiry, rate r and volatility vol (a fraction). At or past expiry, or
// without volatility, it is the discounted intrinsic value of the forward.
func Price(call bool, s, k, t, r, vol float64) float64 {
	if t <= 0 || vol <= 0 || s <= 0 || k <= 0 {
		return Intrinsic(call, s*math.Exp(r*max(t, 0)), k) * math.Exp(-r*max(t, 0))
	}
	sd := vol * math.Sqrt(t)
	kdr := k * math.Exp(-r*t)
	d1 := (math.Log(s/k)+r*t)/sd + 0.5*sd
	d2 := d1 - sd
	if call {
		return math.Max(s*NormCDF(d1)-kdr*NormCDF(d2), 0)
	}
	return math.Max(kdr*NormCDF(-d2)-s*NormCDF(-d1), 0)
}

// GreeksOf are a European option's greeks (see Greeks for the units).
func GreeksOf(call bool, s, k, t, r, vol float64) Greeks {
	if vol <= 0 || s <= 0 || k <= 0 || t <= 0 {
		return Greeks{Delta: intrinsicDelta(call, s, k)}
	}
	t = max(t, market.MinT)
	sqrtT := math.Sqrt(t)
	sd := vol * sqrtT
	kdr := k * math.Exp(-r*t)
	d1 := (math.Log(s/k)+r*t)/sd + 0.5*sd
	d2 := d1 - sd
	nd1 := normPDF(d1)
	g := Greeks{Gamma: nd1 / (s * sd), Vega: s * nd1 * sqrtT / 100}
	decay := -s * nd1 * vol / (2 * sqrtT)
	if call {
		g.Delta = NormCDF(d1)
		g.Theta = (decay - r*kdr*NormCDF(d2)) / market.DaysPerYear
	} else {
		g.Delta = NormCDF(d1) - 1
		g.Theta = (decay + r*kdr*NormCDF(-d2)) / market.DaysPerYear
	}
	return g
}

// Intrinsic is what the option pays at expiry with the underlying at s.
func Intrinsic(call bool, s, k float64) float64 {
	if call {
		return math.Max(s-k, 0)
	}
	return math.Max(k-s, 0)
}

func intrinsicDelta(call bool, s, k float64) float64 {
	switch {
	case call && s > k:
		return 1
	case !call && s < k:
		return -1
	}
	return 0
}

// invSqrt2Pi is 1/√(2π).
const invSqrt2Pi = 0.3989422804014327

// GammaShape is an option's gamma as a function of spot, at no rate and
// no dividend: Gamma(S) = Peak / S x exp(-x²/2), x = (ln S - Mean) x InvSD,
// the same d1 as GreeksOf's. A curve that sums many contracts' gamma at
// many spots (the zero-gamma search) keeps these three numbers a contract
// and walks the Gaussian instead of pricing each spot from scratch.
type GammaShape struct{ Mean, InvSD, Peak float64 }

// GammaShapeOf is the shape of strike k's gamma, t years to expiry (at
// least MinT, as GreeksOf) and volatility vol; ok is false when it has
// none (no volatility, no strike, no time).
func GammaShapeOf(k, t, vol float64) (g GammaShape, ok bool) {
	if !(vol > 0) || math.IsInf(vol, 0) || !(k > 0) || !(t > 0) {
		return GammaShape{}, false
	}
	sd := vol * math.Sqrt(max(t, market.MinT))
	return GammaShape{Mean: math.Log(k) - sd*sd/2, InvSD: 1 / sd, Peak: invSqrt2Pi / sd}, true
}

// At is the gamma at spot s.
func (g GammaShape) At(s float64) float64 {
	x := (math.Log(s) - g.Mean) * g.InvSD
	return g.Peak / s * math.Exp(-x*x/2)
}
