package strategy

import (
	"math"

	"chainwatch/api"
)

// The client's one Black-Scholes-Merton: a strategy's legs are repriced
// with it at another spot, day or IV (the risk graph's curves before
// expiry, P&L at a date) and it fills a leg's greeks the service left
// null. The service's own pricer (sandbox/bsm) is the service's: the
// client never imports it. European exercise, a continuous rate and no
// dividend: the assumption the strategy page and README state.

// Greeks are one option's sensitivities in the service's units: delta
// and gamma per 1.00 of the underlying, vega per vol point, theta per
// calendar day.
type Greeks struct{ Delta, Gamma, Theta, Vega float64 }

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func normPDF(x float64) float64 { return math.Exp(-0.5*x*x) / math.Sqrt(2*math.Pi) }

// Price is a European option's value at spot s, strike k, t years to
// expiry, rate r and volatility vol (a fraction). At or past expiry, or
// without volatility, it is the discounted intrinsic value of the forward.
func Price(call bool, s, k, t, r, vol float64) float64 {
	if t <= 0 || vol <= 0 || s <= 0 || k <= 0 {
		return intrinsic(call, s*math.Exp(r*max(t, 0)), k) * math.Exp(-r*max(t, 0))
	}
	sd := vol * math.Sqrt(t)
	kdr := k * math.Exp(-r*t)
	d1 := (math.Log(s/k)+r*t)/sd + 0.5*sd
	d2 := d1 - sd
	if call {
		return math.Max(s*normCDF(d1)-kdr*normCDF(d2), 0)
	}
	return math.Max(kdr*normCDF(-d2)-s*normCDF(-d1), 0)
}

// GreeksOf are a European option's greeks (see Greeks for the units).
func GreeksOf(call bool, s, k, t, r, vol float64) Greeks {
	if vol <= 0 || s <= 0 || k <= 0 || t <= 0 {
		return Greeks{Delta: intrinsicDelta(call, s, k)}
	}
	t = max(t, api.MinT)
	sqrtT := math.Sqrt(t)
	sd := vol * sqrtT
	kdr := k * math.Exp(-r*t)
	d1 := (math.Log(s/k)+r*t)/sd + 0.5*sd
	d2 := d1 - sd
	nd1 := normPDF(d1)
	g := Greeks{Gamma: nd1 / (s * sd), Vega: s * nd1 * sqrtT / 100}
	decay := -s * nd1 * vol / (2 * sqrtT)
	if call {
		g.Delta = normCDF(d1)
		g.Theta = (decay - r*kdr*normCDF(d2)) / api.DaysPerYear
	} else {
		g.Delta = normCDF(d1) - 1
		g.Theta = (decay + r*kdr*normCDF(-d2)) / api.DaysPerYear
	}
	return g
}

// intrinsic is what the option pays at expiry with the underlying at s.
func intrinsic(call bool, s, k float64) float64 {
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
