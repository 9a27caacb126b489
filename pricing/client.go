package pricing

import (
	"math"

	"chainwatch/market"
)

// What the client's figures share beside the chain's model (Price,
// Compute, ImpliedVol with the chain's rate, dividend and exercise style,
// bsm.go and american.go; the carry, carry.go): the multiplier, an
// option's payoff, and the Gaussian shape of gamma that positioning's
// zero-gamma search walks.

// Multiplier is the shares one equity or index option stands for: a
// premium in dollars is price x size x Multiplier.
const Multiplier = 100

// Intrinsic is what the option pays at expiry with the underlying at s.
func Intrinsic(call bool, s, k float64) float64 {
	if call {
		return math.Max(s-k, 0)
	}
	return math.Max(k-s, 0)
}

// invSqrt2Pi is 1/√(2π).
const invSqrt2Pi = 0.3989422804014327

// GammaShape is an option's gamma as a function of spot, at no rate and
// no dividend: Gamma(S) = Peak / S x exp(-x²/2), x = (ln S - Mean) x InvSD,
// the same d1 as Compute's European gamma at R = Q = 0. A curve that sums many contracts' gamma at
// many spots (the zero-gamma search) keeps these three numbers a contract
// and walks the Gaussian instead of pricing each spot from scratch.
type GammaShape struct{ Mean, InvSD, Peak float64 }

// GammaShapeOf is the shape of strike k's gamma, t years to expiry (at
// least MinT, as Compute) and volatility vol; ok is false when it has
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
