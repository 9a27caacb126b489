package positioning

import (
	"chainwatch/pricing"
	"cmp"
	"math"
	"slices"

	"chainwatch/api"
)

// StrikeRow is one strike over the expiries of a range, every root
// summed: the open interest and today's volume of its calls and puts, and
// the dealers' gamma exposure there in dollars per 1 % move of the
// underlying (calls positive, puts negative: see GEX).
type StrikeRow struct {
	Strike                float64
	CallOI, PutOI         int64
	CallVolume, PutVolume int64
	CallGEX, PutGEX       float64
}

// GEX is the strike's net dealer gamma exposure.
func (r *StrikeRow) GEX() float64 { return r.CallGEX + r.PutGEX }

// Pain is one expiry's max pain: the settlement price, among its
// strikes, at which its holders' options are worth least.
type Pain struct {
	Date   api.Date
	Root   string
	Strike float64 // NaN: the expiry has no open interest
}

// Figures are the positioning of a range of expiries. Floats are NaN
// where the chain cannot support them (no spot, no open interest).
type Figures struct {
	Spot     float64
	Expiries []int       // the range's indices into the chain's Exps
	Rows     []StrikeRow // every strike of the range, ascending
	MaxPain  []Pain      // per expiry of the range, in order
	// CallWall is the strike at or above spot with the most call open
	// interest, PutWall the one at or below spot with the most put open
	// interest (the nearer to spot on a tie).
	CallWall, PutWall     float64
	CallOI, PutOI         int64
	CallVolume, PutVolume int64
	PCOI                  float64 // put over call open interest
	// CallGEX, PutGEX and GEX are the dealers' gamma exposure summed
	// over the rows, in dollars per 1 % move.
	CallGEX, PutGEX, GEX float64
}

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

// Compute is the figures of the expiries sel (from Range.Select) at the
// chain's spot. The zero-gamma level is ZeroGamma's: it reprices every
// contract, which costs more than all of these together.
func Compute(c *Chain, sel []int) Figures {
	f := Figures{Spot: c.Spot, Expiries: sel, CallWall: math.NaN(), PutWall: math.NaN(), PCOI: math.NaN()}
	f.Rows = aggregate(c, sel)
	f.MaxPain = make([]Pain, len(sel))
	for i, x := range sel {
		e := &c.Exps[x]
		f.MaxPain[i] = Pain{Date: e.Date, Root: e.Root, Strike: MaxPain(e.Rows)}
	}
	var callBest, putBest int64
	for i := range f.Rows {
		r := &f.Rows[i]
		f.CallOI += r.CallOI
		f.PutOI += r.PutOI
		f.CallVolume += r.CallVolume
		f.PutVolume += r.PutVolume
		f.CallGEX += r.CallGEX
		f.PutGEX += r.PutGEX
		// Ascending strikes: the call wall keeps the first (nearest spot)
		// of equals, the put wall the last.
		if r.Strike >= c.Spot && r.CallOI > callBest {
			f.CallWall, callBest = r.Strike, r.CallOI
		}
		if r.Strike <= c.Spot && r.PutOI > 0 && r.PutOI >= putBest {
			f.PutWall, putBest = r.Strike, r.PutOI
		}
	}
	f.GEX = f.CallGEX + f.PutGEX
	if f.CallOI > 0 {
		f.PCOI = float64(f.PutOI) / float64(f.CallOI)
	}
	return f
}

// aggregate sums the expiries sel strike by strike (every root).
func aggregate(c *Chain, sel []int) []StrikeRow {
	n := 0
	for _, x := range sel {
		n += len(c.Exps[x].Rows)
	}
	type ref struct {
		strike float64
		row    *Row
	}
	refs := make([]ref, 0, n)
	for _, x := range sel {
		for i := range c.Exps[x].Rows {
			r := &c.Exps[x].Rows[i]
			refs = append(refs, ref{r.Strike, r})
		}
	}
	if len(sel) > 1 {
		slices.SortFunc(refs, func(a, b ref) int { return cmp.Compare(a.strike, b.strike) })
	}
	out := make([]StrikeRow, 0, n/max(len(sel), 1)+16)
	for _, rf := range refs {
		if k := len(out); k == 0 || out[k-1].Strike != rf.strike {
			out = append(out, StrikeRow{Strike: rf.strike})
		}
		s, r := &out[len(out)-1], rf.row
		s.CallOI += r.Call.oi()
		s.PutOI += r.Put.oi()
		s.CallVolume += r.Call.volume()
		s.PutVolume += r.Put.volume()
		s.CallGEX += GEXOf(float64(r.Call.Gamma), r.Call.oi(), c.Spot, false)
		s.PutGEX += GEXOf(float64(r.Put.Gamma), r.Put.oi(), c.Spot, true)
	}
	return out
}

// MaxPain is the strike among rows (ascending) at which, were the
// underlying to settle there, the holders' calls and puts would be worth
// least in total: the sum over calls of OI x max(P-K, 0) and over puts of
// OI x max(K-P, 0), least at P. The lowest such strike on a tie; NaN when
// no row has open interest. One pass with running sums, not the square
// of the strikes.
func MaxPain(rows []Row) float64 {
	// At strike j: the calls below it are worth K_j x (call OI below) -
	// (their OI x K summed); the puts above it (their OI x K summed) -
	// K_j x (put OI above).
	var putOI, putOIK float64
	for i := range rows {
		putOI += float64(rows[i].Put.oi())
		putOIK += float64(rows[i].Put.oi()) * rows[i].Strike
	}
	if putOI == 0 && !slices.ContainsFunc(rows, func(r Row) bool { return r.Call.oi() > 0 }) {
		return math.NaN()
	}
	var callOI, callOIK float64
	best, bestPain := math.NaN(), math.Inf(1)
	for i := range rows {
		r := &rows[i]
		k := r.Strike
		// This strike's own contracts are worth nothing at it: the puts
		// leave "above" before it is valued, the calls join "below" after.
		putOI -= float64(r.Put.oi())
		putOIK -= float64(r.Put.oi()) * k
		pain := k*callOI - callOIK + putOIK - k*putOI
		if pain < bestPain {
			best, bestPain = k, pain
		}
		callOI += float64(r.Call.oi())
		callOIK += float64(r.Call.oi()) * k
	}
	return best
}
