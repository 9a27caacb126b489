// Package pricing prices options: European ones under Black-Scholes-Merton and
// American ones by Bjerksund-Stensland 2002 (american.go), both with a
// continuous risk-free rate and a continuous dividend yield. It computes
// greeks in the units of the service conventions, inverts prices to
// implied volatilities and describes the sandbox's volatility surface.
//
// The sandbox prices about 20,000 contracts per tick, so every function here
// is allocation-free and works on plain float64 values; a European Compute
// costs a handful of transcendental calls (one Log, one Sqrt, three Exp, two
// Erfc), an American one, where the exercise trigger is in reach, about
// twenty bivariate normal probabilities with all its derivatives.
//
// Units (service conventions): delta and gamma per 1.00 move of the
// underlying; vega per one volatility point (0.01); theta per calendar day
// (the value change as 1/365 of a year passes, negative for a typical long
// option); rho per one percentage point of rate (0.01).
package pricing

import (
	"math"

	"chainwatch/market"
)

// DaysPerYear is the ACT/365 day count behind T and behind theta per day
// (market's, the one the service's conventions name).
const DaysPerYear = market.DaysPerYear

// MinT is one minute in years (market.MinT): greeks of an option with less
// time left are those of the same option with a minute left; prices always
// use the true T.
const MinT = market.MinT

const sqrt2Pi = 2.5066282746310002 // sqrt(2*pi)

// Params describe one option. T is in years (ACT/365); R and Q are
// continuously compounded rate and dividend yield; Vol is a fraction
// (0.25). An American option may be exercised at any time up to T and is
// priced by Bjerksund-Stensland 2002 (american.go); a European one only at
// T, by Black-Scholes-Merton.
type Params struct {
	S, K, T, R, Q, Vol float64
	Call               bool
	American           bool
}

// Greeks are the sensitivities of one option in the conventions' units
// (see the package comment).
type Greeks struct {
	Delta, Gamma, Vega, Theta, Rho float64
}

// Forward is the forward price of the underlying for delivery in T years.
func Forward(S, T, R, Q float64) float64 { return S * math.Exp((R-Q)*T) }

// Discount is the present value of 1 paid in T years at continuous rate R.
func Discount(T, R float64) float64 { return math.Exp(-R * T) }

// NormCDF is the standard normal cumulative distribution. It goes through
// Erfc so the tails keep their relative accuracy (far out-of-the-money
// prices would otherwise round to zero or to a difference of nearly equal
// numbers).
func NormCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// NormPDF is the standard normal density.
func NormPDF(x float64) float64 { return math.Exp(-0.5*x*x) / sqrt2Pi }

// Bounds are the no-arbitrage bounds of the option's price: the discounted
// intrinsic value of the forward (lower) and the discounted asset or strike
// (upper). A price strictly between them has exactly one implied volatility.
// For T <= 0 both are the intrinsic value. An American option's lower
// bound is also at least its intrinsic value, and a put's upper bound is
// the strike itself.
func Bounds(p Params) (lower, upper float64) {
	if p.American {
		return americanBounds(p)
	}
	if p.T <= 0 {
		v := intrinsic(p)
		return v, v
	}
	sdq := p.S * math.Exp(-p.Q*p.T)
	kdr := p.K * math.Exp(-p.R*p.T)
	if p.Call {
		return math.Max(sdq-kdr, 0), sdq
	}
	return math.Max(kdr-sdq, 0), kdr
}

func intrinsic(p Params) float64 {
	if p.Call {
		return math.Max(p.S-p.K, 0)
	}
	return math.Max(p.K-p.S, 0)
}

// Price is the Black-Scholes-Merton value of the option. At or after expiry
// (T <= 0) it is the intrinsic value; with no volatility (or a non-positive
// S or K) it is the discounted intrinsic value of the forward. The result
// is never below the lower no-arbitrage bound, so rounding cannot produce a
// price that ImpliedVol would have to reject as an arbitrage. An American
// option's value is never below its intrinsic value either.
func Price(p Params) float64 {
	if p.American {
		return americanPrice(p)
	}
	if p.T <= 0 {
		return intrinsic(p)
	}
	sdq := p.S * math.Exp(-p.Q*p.T)
	kdr := p.K * math.Exp(-p.R*p.T)
	if p.Vol <= 0 || p.S <= 0 || p.K <= 0 {
		if p.Call {
			return math.Max(sdq-kdr, 0)
		}
		return math.Max(kdr-sdq, 0)
	}
	return closedForm(sdq, kdr, math.Log(p.S/p.K), (p.R-p.Q)*p.T, math.Sqrt(p.T), p.Vol, p.Call)
}

// closedForm is the Black-Scholes-Merton value from S e^{-QT}, K e^{-RT},
// ln(S/K), (R-Q)T and sqrt(T), floored at the lower bound. ImpliedVol
// checks its answer through the same arithmetic, so the check agrees with
// Price to the last bit.
func closedForm(sdq, kdr, lnSK, driftT, sqrtT, vol float64, call bool) float64 {
	sd := vol * sqrtT
	d1 := (lnSK+driftT)/sd + 0.5*sd
	d2 := d1 - sd
	if call {
		return math.Max(sdq*NormCDF(d1)-kdr*NormCDF(d2), math.Max(sdq-kdr, 0))
	}
	return math.Max(kdr*NormCDF(-d2)-sdq*NormCDF(-d1), math.Max(kdr-sdq, 0))
}

// Compute returns the price (as Price) and the greeks of the option.
//
// Degenerate cases: at or after expiry (T <= 0) delta is 0 or ±1 by
// moneyness (±0.5 exactly at the strike, the limit of the at-the-money
// delta), and the other greeks are 0. With no volatility the option is its
// discounted forward intrinsic value: delta e^{-QT} (or -e^{-QT}) when in
// the money, theta and rho of that deterministic value, gamma and vega 0.
// For 0 < T < MinT the greeks are those at MinT (see MinT).
//
// An American option's greeks are finite differences of its price, and
// its theta is the day's decay (see americanCompute).
func Compute(p Params) (price float64, g Greeks) {
	if p.American {
		return americanCompute(p)
	}
	if p.T <= 0 {
		return expired(p)
	}
	if p.Vol <= 0 || p.S <= 0 || p.K <= 0 {
		return deterministic(p)
	}
	if p.T < MinT {
		price = Price(p)
		q := p
		q.T = MinT
		_, g = analytic(q)
		return price, g
	}
	return analytic(p)
}

// analytic is the closed form for T > 0, Vol > 0, S > 0, K > 0.
// Theta is -dV/dT (time passing shortens T), scaled to one calendar day.
func analytic(p Params) (float64, Greeks) {
	sqrtT := math.Sqrt(p.T)
	sd := p.Vol * sqrtT
	dq := math.Exp(-p.Q * p.T)
	sdq := p.S * dq
	kdr := p.K * math.Exp(-p.R*p.T)
	d1 := (math.Log(p.S/p.K)+(p.R-p.Q)*p.T)/sd + 0.5*sd
	d2 := d1 - sd
	nd1 := math.Exp(-0.5*d1*d1) / sqrt2Pi
	decay := -sdq * nd1 * p.Vol / (2 * sqrtT)

	var price, delta, theta, rho float64
	if p.Call {
		n1, n2 := NormCDF(d1), NormCDF(d2)
		price = math.Max(sdq*n1-kdr*n2, math.Max(sdq-kdr, 0))
		delta = dq * n1
		theta = decay - p.R*kdr*n2 + p.Q*sdq*n1
		rho = kdr * p.T * n2
	} else {
		n1, n2 := NormCDF(-d1), NormCDF(-d2)
		price = math.Max(kdr*n2-sdq*n1, math.Max(kdr-sdq, 0))
		delta = -dq * n1
		theta = decay + p.R*kdr*n2 - p.Q*sdq*n1
		rho = -kdr * p.T * n2
	}
	return price, Greeks{
		Delta: delta,
		Gamma: dq * nd1 / (p.S * sd),
		Vega:  sdq * nd1 * sqrtT * 0.01,
		Theta: theta / DaysPerYear,
		Rho:   rho * 0.01,
	}
}

// expired is the option at or after expiry: its intrinsic value.
func expired(p Params) (float64, Greeks) {
	var g Greeks
	switch {
	case p.S == p.K:
		g.Delta = 0.5
	case p.Call == (p.S > p.K):
		g.Delta = 1
	}
	if !p.Call {
		g.Delta = -g.Delta
	}
	return intrinsic(p), g
}

// deterministic is the option on an underlying with no volatility: the
// forward is certain, so the value is the discounted forward intrinsic value
// and its sensitivities are those of S e^{-QT} - K e^{-RT} (or its negative)
// when in the money, zero otherwise.
func deterministic(p Params) (float64, Greeks) {
	dq := math.Exp(-p.Q * p.T)
	sdq := p.S * dq
	kdr := p.K * math.Exp(-p.R*p.T)
	sign := 1.0
	if !p.Call {
		sign = -1
	}
	v := sign * (sdq - kdr)
	if v <= 0 {
		return 0, Greeks{}
	}
	return v, Greeks{
		Delta: sign * dq,
		Theta: sign * (p.Q*sdq - p.R*kdr) / DaysPerYear,
		Rho:   sign * kdr * p.T * 0.01,
	}
}
