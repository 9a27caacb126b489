package positioning

import (
	"math"

	"chainwatch/pricing"
)

// The dealers' exposures: how their delta hedge changes when spot moves
// (gamma), when implied volatility moves (vanna) and as time passes
// (charm), each a contract's greek x open interest x 100 shares, in
// dollars of the underlying, signed by the one dealer assumption (Dealers).

// Dealers is the assumption behind GEX's sign, in the words the page and
// `chainwatch gex` state it with.
const Dealers = "dealers assumed long calls, short puts"

// GEXOf is one contract's dealer gamma exposure in dollars per 1 % move
// of the underlying: the dollar change of the dealers' delta when spot
// moves 1 %, gamma x open interest x 100 x spot² x 0.01. Dealers are
// taken as long the calls and short the puts the public holds (the usual
// assumption: the public buys puts for protection and sells calls over
// its stock), so a call's is positive and a put's negative. NaN gamma or
// no open interest adds nothing.
func GEXOf(gamma float64, oi int64, spot float64, put bool) float64 {
	if math.IsNaN(gamma) || oi <= 0 {
		return 0
	}
	g := gamma * float64(oi) * pricing.Multiplier * spot * spot * 0.01
	if put {
		return -g
	}
	return g
}

// exposure is one contract's dealer vanna exposure, in dollars of delta
// per volatility point (vanna x open interest x 100 x spot), and charm
// exposure, in dollars of delta per calendar day (charm x open interest x
// 100 x spot), signed as GEXOf: the chain's model's vanna and charm at the
// contract's IV and its expiry's carry, priced with the chain (Side).
func exposure(s *Side, spot float64, call bool) (vanna, charm float64) {
	w := float64(s.oi()) * pricing.Multiplier * spot
	if !call {
		w = -w
	}
	return s.Vanna * w, s.Charm * w
}

// Greek is which exposure a view shows: the page's key cycles them.
type Greek int

// The exposures, in the order the page's key cycles them.
const (
	Gamma Greek = iota
	Vanna
	Charm
	Greeks // how many
)

// Name is the greek's name: "gamma".
func (g Greek) Name() string { return [...]string{"gamma", "vanna", "charm"}[g] }

// Short is its exposure's column head: "GEX", "VEX", "CEX".
func (g Greek) Short() string { return [...]string{"GEX", "VEX", "CEX"}[g] }

// Unit is what its exposure's dollars are per.
func (g Greek) Unit() string { return [...]string{"per 1% move", "per vol point", "per day"}[g] }

// Of is the row's exposure in g: calls, puts.
func (r *StrikeRow) Of(g Greek) (call, put float64) {
	switch g {
	case Vanna:
		return r.CallVanna, r.PutVanna
	case Charm:
		return r.CallCharm, r.PutCharm
	}
	return r.CallGEX, r.PutGEX
}

// Of is the range's exposure in g: calls, puts.
func (f *Figures) Of(g Greek) (call, put float64) {
	switch g {
	case Vanna:
		return f.CallVanna, f.PutVanna
	case Charm:
		return f.CallCharm, f.PutCharm
	}
	return f.CallGEX, f.PutGEX
}
