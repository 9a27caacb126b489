package pricing

import "math"

// The second-order greeks the dealer-exposure figures need and the service
// does not send: vanna (how delta moves with volatility) and charm (how it
// moves as time passes), and gamma as a function of spot (the zero-gamma
// search prices every contract's gamma at many spots). They are
// Black-Scholes-Merton's, with the rate and dividend yield of the option's
// expiry. For an American option the European's stand in, as the sandbox's
// own quotes take their delta from it (sim.theoretical): early exercise
// moves these by less than the IV's own error wherever the open interest
// is, and the exact ones would cost an American evaluation on jets a
// contract.

// VannaCharm are the option's vanna, the change of its delta per one
// volatility point (0.01), and charm, the change of its delta as one
// calendar day passes (1/365 of a year; the spot and vol held). Both are 0
// at or after expiry, with no volatility, or without a spot or strike;
// with less than MinT left they are those at MinT, as Compute's greeks.
func VannaCharm(p Params) (vanna, charm float64) {
	if !(p.T > 0) || !(p.Vol > 0) || !(p.S > 0) || !(p.K > 0) {
		return 0, 0
	}
	t := max(p.T, MinT)
	sqrtT := math.Sqrt(t)
	sd := p.Vol * sqrtT
	d1 := (math.Log(p.S/p.K)+(p.R-p.Q)*t)/sd + 0.5*sd
	d2 := d1 - sd
	dq := math.Exp(-p.Q * t)
	pdf := dq * math.Exp(-0.5*d1*d1) / sqrt2Pi
	vanna = -pdf * d2 / p.Vol * 0.01
	// -d(delta)/dT: the density's drift, then the dividend's pull on
	// delta, which differs between a call and a put by q e^{-qT}.
	charm = -pdf * (2*(p.R-p.Q)*t - d2*sd) / (2 * t * sd)
	if p.Call {
		charm += p.Q * dq * NormCDF(d1)
	} else {
		charm -= p.Q * dq * NormCDF(-d1)
	}
	return vanna, charm / DaysPerYear
}

// GammaCurve is an option's Black-Scholes-Merton gamma as a function of
// spot, its T, rate, dividend and vol held: Gamma(S) = Peak / S x
// exp(-x²/2) with x = (ln S - Mean) x InvSD, which is d1. A sum of many
// contracts' gamma over many spots keeps these three numbers a contract
// and walks the Gaussian instead of pricing each spot from scratch.
type GammaCurve struct{ Mean, InvSD, Peak float64 }

// GammaCurveOf is p's gamma as a function of spot (p.S is not used): T at
// least MinT, as Compute's greeks. ok is false when the option has no
// gamma (no volatility, no strike, no time).
func GammaCurveOf(p Params) (g GammaCurve, ok bool) {
	if !(p.Vol > 0) || math.IsInf(p.Vol, 0) || !(p.K > 0) || !(p.T > 0) {
		return GammaCurve{}, false
	}
	t := max(p.T, MinT)
	sd := p.Vol * math.Sqrt(t)
	return GammaCurve{
		Mean:  math.Log(p.K) - (p.R-p.Q)*t - sd*sd/2,
		InvSD: 1 / sd,
		Peak:  math.Exp(-p.Q*t) / (sd * sqrt2Pi),
	}, true
}

// At is the gamma at spot s.
func (g GammaCurve) At(s float64) float64 {
	x := (math.Log(s) - g.Mean) * g.InvSD
	return g.Peak / s * math.Exp(-x*x/2)
}
