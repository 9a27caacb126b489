package sim

import (
	"math"
	"sort"

	"chainwatch/api"
	"chainwatch/pricing"
)

// impliedQuote is the underlying implied by the option book.
type impliedQuote struct {
	bid, ask, mid float64
	bidSz, askSz  int64
	indicator     api.Indicator
	ok            bool
}

// impliedUnderlying reads the underlying's price off the option book by
// put-call parity, C - P = (F - K) e^{-rT} with F = S e^{(r-q)T}: selling
// the call and buying the put at the quotes gives the implied bid,
//
//	S_bid = (K + (C_bid - P_ask) e^{rT}) e^{-(r-q)T},
//
// and the other way round the implied ask. The pairs are the strikes
// nearest the forward in the nearest expiry that does not expire today
// (same-day options are all gamma, and their quotes say little); the pair
// with the narrowest implied spread wins, its sizes the smaller of the two
// legs'. The indicator grades the spread relative to the mid as the spec
// says: below 0.01 green, 0.01 to 0.02 yellow, above red.
func (c *tickCtx) impliedUnderlying() impliedQuote {
	var s *series
	for i := range c.b.series {
		if x := &c.b.series[i]; x.days >= 1 && (s == nil || x.days < s.days) {
			s = x
		}
	}
	if s == nil {
		return impliedQuote{}
	}
	e := c.expiry(s)
	growth := math.Exp(c.b.r * e.T)
	back := math.Exp(-(c.b.r - c.b.q) * e.T)
	best := impliedQuote{}
	bestW := math.Inf(1)
	for _, k := range nearStrikes(s.Strikes, e.F, 6) {
		call, put := c.quote(s, &e, k, false), c.quote(s, &e, k, true)
		if call.bid <= 0 || put.bid <= 0 {
			continue
		}
		K := s.Strikes[k]
		lo := (K + dollars(call.bid-put.ask)*growth) * back
		hi := (K + dollars(call.ask-put.bid)*growth) * back
		if w := hi - lo; w < bestW {
			bestW = w
			best = impliedQuote{bid: round(lo, 2), ask: round(hi, 2), ok: true,
				bidSz: min(call.bidSz, put.askSz), askSz: min(call.askSz, put.bidSz)}
		}
	}
	if !best.ok || best.bid <= 0 {
		return impliedQuote{}
	}
	best.mid = round((best.bid+best.ask)/2, 3)
	switch r := (best.ask - best.bid) / best.mid; {
	case r < 0.01:
		best.indicator = api.Green
	case r <= 0.02:
		best.indicator = api.Yellow
	default:
		best.indicator = api.Red
	}
	return best
}

// nearStrikes returns the indices of the n strikes nearest F, nearest first.
func nearStrikes(strikes []float64, F float64, n int) []int {
	i := sort.SearchFloat64s(strikes, F)
	lo, hi := i-1, i
	out := make([]int, 0, n)
	for len(out) < n && (lo >= 0 || hi < len(strikes)) {
		if hi >= len(strikes) || lo >= 0 && F-strikes[lo] <= strikes[hi]-F {
			out = append(out, lo)
			lo--
		} else {
			out = append(out, hi)
			hi++
		}
	}
	return out
}

// iv30 is the 30-day at-the-money implied vol (a fraction) read off the
// chain's own quotes: the ATM iv of the two series around 30 calendar days,
// interpolated linearly in total variance (iv^2 T) to 30 days. With series
// on one side only, the nearest one's ATM iv stands for it.
func (c *tickCtx) iv30() (float64, bool) {
	var below, above *series
	var tb, ta float64
	for i := range c.b.series {
		s := &c.b.series[i]
		if !s.alive(c.tick) {
			continue
		}
		T := s.years(c.tick)
		if T <= T30 && (below == nil || T > tb) {
			below, tb = s, T
		}
		if T >= T30 && (above == nil || T < ta) {
			above, ta = s, T
		}
	}
	vb, okb := c.atmIV(below)
	va, oka := c.atmIV(above)
	switch {
	case okb && oka && ta > tb:
		w := vb*vb*tb + (va*va*ta-vb*vb*tb)*(T30-tb)/(ta-tb)
		return math.Sqrt(math.Max(w, 0) / T30), true
	case oka:
		return va, true
	case okb:
		return vb, true
	}
	return 0, false
}

// atmIV is the iv of the strike nearest the forward in s: the mean of the
// call's and the put's ivs from their mids (either alone if the other does
// not invert; the next strike out if neither does).
func (c *tickCtx) atmIV(s *series) (float64, bool) {
	if s == nil {
		return 0, false
	}
	e := c.expiry(s)
	for _, k := range nearStrikes(s.Strikes, e.F, 3) {
		var sum float64
		var n int
		for _, put := range []bool{false, true} {
			q := c.quote(s, &e, k, put)
			if iv, ok := pricing.ImpliedVolNear(q.mid(), c.paramsAt(&e, s.Strikes[k], put, q.vol), q.theo, q.greeks); ok {
				sum += iv
				n++
			}
		}
		if n > 0 {
			return sum / float64(n), true
		}
	}
	return 0, false
}
