package positioning

import (
	"math"
	"slices"

	"chainwatch/pricing"
)

// The chain's own model: the figures that are not the service's (the
// zero-gamma curve, vanna and charm, the gamma of a contract the service
// sent none for) price each contract as the chain does, American for
// equity and ETF options and European for index options, at the rate and
// dividend yield the expiry's own quotes imply. The service sends no rate
// or yield; at the true ones the model gives each contract back its mid
// at its own IV, which is what pricing.ImpliedCarry solves for.

// carryStrikes is how many strikes on each side of spot offer their
// quotes to the carry: the fit takes the nearest pairs among them.
const carryStrikes = 4

// carry fills each expiry's rate and dividend yield: from its quotes near
// spot, or, where they cannot tell (a short expiry says almost nothing of
// the rate), the nearest expiry's that could (the later on a tie).
func (c *Chain) carry() {
	if !(c.Spot > 0) {
		return
	}
	ok := make([]bool, len(c.Exps))
	quotes := make([]pricing.CarryQuote, 0, 4*carryStrikes)
	for i := range c.Exps {
		e := &c.Exps[i]
		if e.T <= 0 {
			continue
		}
		quotes = quotes[:0]
		mid := nearestRow(e.Rows, c.Spot)
		for j := max(mid-carryStrikes, 0); j < min(mid+carryStrikes+1, len(e.Rows)); j++ {
			r := &e.Rows[j]
			quotes = append(quotes, pricing.CarryQuote{Strike: r.Strike, Call: true, Mid: r.Call.Mid, IV: r.Call.IV},
				pricing.CarryQuote{Strike: r.Strike, Mid: r.Put.Mid, IV: r.Put.IV})
		}
		e.Carry, ok[i] = pricing.ImpliedCarry(c.Spot, e.T, c.American, quotes)
	}
	for i := range c.Exps {
		if ok[i] {
			continue
		}
		c.Exps[i].Borrowed = true
		for d := 1; d < len(c.Exps); d++ {
			if j := i + d; j < len(c.Exps) && ok[j] {
				c.Exps[i].Carry = c.Exps[j].Carry
				break
			}
			if j := i - d; j >= 0 && ok[j] {
				c.Exps[i].Carry = c.Exps[j].Carry
				break
			}
		}
	}
}

// nearestRow is the index of the row whose strike is nearest s (rows
// ascending, at least one).
func nearestRow(rows []Row, s float64) int {
	i, _ := slices.BinarySearchFunc(rows, s, func(r Row, s float64) int {
		switch {
		case r.Strike < s:
			return -1
		case r.Strike > s:
			return 1
		}
		return 0
	})
	if i == len(rows) || i > 0 && s-rows[i-1].Strike < rows[i].Strike-s {
		i--
	}
	return max(i, 0)
}

// Params is contract (strike, call) of expiry e in the chain's model at
// spot s and volatility vol. An expiry of the day shown whose close has
// come (T <= 0) is priced a minute from it, as the service priced the
// last quotes it sends for it: the figures read those quotes' gammas.
func (c *Chain) Params(e *Expiry, strike float64, call bool, s, vol float64) pricing.Params {
	return pricing.Params{S: s, K: strike, T: max(e.T, pricing.MinT), R: e.Carry.R, Q: e.Carry.Q, Vol: vol, Call: call, American: c.American}
}

// estimate gives every contract with open interest and no IV the IV
// interpolated along its expiry's smile, every one with open interest its
// vanna and charm, and every one with open interest and no gamma the
// model's gamma at its IV: the service sends
// none where it publishes no IV (a zero bid, a market too wide), and a
// contract left out of GEX for that is open interest the dealers still
// hedge. Those gammas are marked Estimated and counted in the figures.
func (c *Chain) estimate() {
	if !(c.Spot > 0) {
		return
	}
	var smile []float64
	for i := range c.Exps {
		e := &c.Exps[i]
		smile = smileOf(e.Rows, c.Spot, smile[:0])
		for j := range e.Rows {
			r := &e.Rows[j]
			c.fill(e, r.Strike, &r.Call, true, smile, j)
			c.fill(e, r.Strike, &r.Put, false, smile, j)
		}
	}
}

// fill is estimate for one contract, row j of e, and its vanna and
// charm.
func (c *Chain) fill(e *Expiry, strike float64, s *Side, call bool, smile []float64, j int) {
	if s.OI <= 0 {
		return
	}
	if !(s.IV > 0) {
		s.IV = interpolate(e.Rows, smile, j)
	}
	if !(s.IV > 0) {
		return
	}
	p := c.Params(e, strike, call, c.Spot, s.IV)
	s.Vanna, s.Charm = pricing.VannaCharm(p)
	if math.IsNaN(s.Gamma) {
		_, g := pricing.Compute(p)
		s.Gamma, s.Estimated = g.Gamma, true
	}
}

// smileOf is the expiry's IV at each row as the service sent it: the
// out-of-the-money side's (the put below spot, the call from spot up),
// else the other side's; NaN where neither has one.
func smileOf(rows []Row, spot float64, out []float64) []float64 {
	for i := range rows {
		r := &rows[i]
		a, b := r.Call.IV, r.Put.IV
		if r.Strike < spot {
			a, b = b, a
		}
		switch {
		case a > 0:
			out = append(out, a)
		case b > 0:
			out = append(out, b)
		default:
			out = append(out, math.NaN())
		}
	}
	return out
}

// interpolate is the smile's IV at row j: linear in strike between the
// nearest rows on each side that have one, the nearest's beyond the last;
// NaN when the expiry has none.
func interpolate(rows []Row, smile []float64, j int) float64 {
	if !math.IsNaN(smile[j]) {
		return smile[j]
	}
	lo, hi := j-1, j+1
	for lo >= 0 && math.IsNaN(smile[lo]) {
		lo--
	}
	for hi < len(smile) && math.IsNaN(smile[hi]) {
		hi++
	}
	switch {
	case lo < 0 && hi >= len(smile):
		return math.NaN()
	case lo < 0:
		return smile[hi]
	case hi >= len(smile):
		return smile[lo]
	}
	w := (rows[j].Strike - rows[lo].Strike) / (rows[hi].Strike - rows[lo].Strike)
	return smile[lo] + w*(smile[hi]-smile[lo])
}
