package pricing

import "math"

// What the client's figures share beside the chain's model (Price,
// Compute, ImpliedVol with the chain's rate, dividend and exercise style,
// bsm.go and american.go; the carry, carry.go): the multiplier and an
// option's payoff.

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
