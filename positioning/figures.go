package positioning

import (
	"cmp"
	"math"
	"slices"

	"chainwatch/api"
)

// StrikeRow is one strike over the expiries of a range, every root
// summed: the open interest and today's volume of its calls and puts, and
// the dealers' exposures there (calls positive, puts negative: see
// GEXOf): gamma in dollars per 1 % move of the underlying, vanna in
// dollars of delta per volatility point, charm in dollars of delta per
// day (exposure.go).
type StrikeRow struct {
	Strike                float64
	CallOI, PutOI         int64
	CallVolume, PutVolume int64
	CallGEX, PutGEX       float64
	CallVanna, PutVanna   float64
	CallCharm, PutCharm   float64
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
	// Vanna and Charm are the dealers' vanna and charm exposure summed,
	// calls and puts (see StrikeRow for the units).
	CallVanna, PutVanna, Vanna float64
	CallCharm, PutCharm, Charm float64
	// GammaCallWall is the strike at or above spot with the most call
	// GEX, GammaPutWall the one at or below spot with the most put GEX
	// (the largest in size): the walls weighted by gamma, beside the ones
	// by open interest.
	GammaCallWall, GammaPutWall float64
	// GammaEstimated counts the contracts with open interest the service
	// sent no gamma for, whose gamma is the model's (Side.Estimated);
	// GammaMissing those it could not estimate either (no IV anywhere on
	// their expiry), which add nothing.
	GammaEstimated, GammaMissing int
	// EstimatedGEX is the part of GEX the estimated gammas make.
	EstimatedGEX float64
}

// Compute is the figures of the expiries sel (from Range.Select) at the
// chain's spot. The zero-gamma level is ZeroGamma's: it reprices every
// contract, which costs more than all of these together.
func Compute(c *Chain, sel []int) Figures {
	f := Figures{Spot: c.Spot, Expiries: sel, CallWall: math.NaN(), PutWall: math.NaN(), PCOI: math.NaN(),
		GammaCallWall: math.NaN(), GammaPutWall: math.NaN()}
	f.Rows = aggregate(c, sel)
	f.GammaEstimated, f.GammaMissing, f.EstimatedGEX = estimated(c, sel)
	f.MaxPain = make([]Pain, len(sel))
	for i, x := range sel {
		e := &c.Exps[x]
		f.MaxPain[i] = Pain{Date: e.Date, Root: e.Root, Strike: MaxPain(e.Rows)}
	}
	var callBest, putBest int64
	var callGBest, putGBest float64
	for i := range f.Rows {
		r := &f.Rows[i]
		f.CallOI += r.CallOI
		f.PutOI += r.PutOI
		f.CallVolume += r.CallVolume
		f.PutVolume += r.PutVolume
		f.CallGEX += r.CallGEX
		f.PutGEX += r.PutGEX
		f.CallVanna += r.CallVanna
		f.PutVanna += r.PutVanna
		f.CallCharm += r.CallCharm
		f.PutCharm += r.PutCharm
		if r.Strike >= c.Spot && r.CallGEX > callGBest {
			f.GammaCallWall, callGBest = r.Strike, r.CallGEX
		}
		if r.Strike <= c.Spot && -r.PutGEX > 0 && -r.PutGEX >= putGBest {
			f.GammaPutWall, putGBest = r.Strike, -r.PutGEX
		}
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
	f.Vanna = f.CallVanna + f.PutVanna
	f.Charm = f.CallCharm + f.PutCharm
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
		s.CallGEX += GEXOf(r.Call.Gamma, r.Call.oi(), c.Spot, false)
		s.PutGEX += GEXOf(r.Put.Gamma, r.Put.oi(), c.Spot, true)
		v, ch := exposure(&r.Call, c.Spot, true)
		s.CallVanna += v
		s.CallCharm += ch
		v, ch = exposure(&r.Put, c.Spot, false)
		s.PutVanna += v
		s.PutCharm += ch
	}
	return out
}

// estimated counts the contracts of sel with open interest whose gamma
// is the model's, and those with none at all, and sums the GEX of the
// first.
func estimated(c *Chain, sel []int) (est, missing int, gex float64) {
	for _, x := range sel {
		for i := range c.Exps[x].Rows {
			r := &c.Exps[x].Rows[i]
			for _, s := range [2]*Side{&r.Call, &r.Put} {
				switch {
				case s.oi() <= 0:
				case s.Estimated:
					est++
					gex += GEXOf(s.Gamma, s.oi(), c.Spot, s == &r.Put)
				case math.IsNaN(s.Gamma):
					missing++
				}
			}
		}
	}
	return est, missing, gex
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
