package sim

import (
	"math"

	"chainwatch/api"
	"chainwatch/sandbox/bsm"
)

// tickCtx is the pricing state of one book at one tick (second): the
// underlying's price and the volatility surface of that moment. Every quote
// of the sandbox, in a chain, on a trade or in trades-and-quotes, is
// computed from it, so the NBBO a trade printed against is exactly the
// chain's quote of that second.
type tickCtx struct {
	b     *book
	tick  api.TimeOfDay
	S     float64
	surf  bsm.Surface
	widen float64 // spread multiplier: market makers quote wide in the opening minutes
	adv   float64 // adverse-selection width per unit of delta, dollars (liquidity.go)
}

// at returns the pricing state at tick (a whole second, or the instant just
// before the open).
func (b *book) at(tick api.TimeOfDay) tickCtx {
	c := tickCtx{b: b, tick: tick, S: b.day.Price(tick), widen: openingWiden(tick)}
	c.surf = b.surface(b.day.Vol(tick))
	c.adv = b.adverse * c.surf.ATM * c.S
	for _, e := range b.events {
		if !e.ok {
			continue
		}
		ms := float64(e.days)*dayMs + float64(e.at-tick)
		if ms > 0 {
			c.surf.EventTime = ms / yearMs
			c.surf.EventVar = b.evVar
			c.surf.ATM *= runUp(ms) // runup.go
			break
		}
	}
	return c
}

// expiry is the pricing state of one series at a tick.
type expiry struct {
	T, F, sqrtT float64
	sdq, dr     float64 // S e^{-qT} and e^{-rT}, for the no-arbitrage bounds
}

func (c *tickCtx) expiry(s *series) expiry {
	T := s.years(c.tick)
	dr := bsm.Discount(T, c.b.r)
	return expiry{T: T, F: bsm.Forward(c.S, T, c.b.r, c.b.q), sqrtT: math.Sqrt(T),
		sdq: c.S * bsm.Discount(T, c.b.q), dr: dr}
}

// bounds are bsm.Bounds of contract (K, put) from the expiry's discount
// factors: a price strictly between them has an implied vol.
func (e *expiry) bounds(K float64, put bool) (lo, hi float64) {
	if put {
		return math.Max(K*e.dr-e.sdq, 0), K * e.dr
	}
	return math.Max(e.sdq-K*e.dr, 0), e.sdq
}

// params are the bsm inputs of one contract (Vol left for the caller).
func (c *tickCtx) params(e *expiry, K float64, put bool) bsm.Params {
	return bsm.Params{S: c.S, K: K, T: e.T, R: c.b.r, Q: c.b.q, Call: !put}
}

func (c *tickCtx) paramsAt(e *expiry, K float64, put bool, vol float64) bsm.Params {
	return bsm.Params{S: c.S, K: K, T: e.T, R: c.b.r, Q: c.b.q, Vol: vol, Call: !put}
}

// quote is one contract's NBBO at a tick, prices in cents.
type quote struct {
	bid, ask     int64
	bidSz, askSz int64
	theo, vol    float64
	greeks       bsm.Greeks // at vol: the first step of inverting the mid
	lnFK         float64    // log(F/K)
}

// mid is the quote's midpoint in dollars (a half cent is possible).
func (q *quote) mid() float64 { return float64(q.bid+q.ask) / 200 }

// quote prices contract (s, k, put) off the surface and spreads it (see
// liquidity.go): the width is a carrying cost, growing with the option's
// time value (what market makers risk), with distance from the money in
// standard deviations and for names that trade little, plus the name's
// adverse selection on the delta of the out-of-the-money side of the
// contract's parity pair (at most maxAdverse of its value), which is what
// makes thin names' quotes wide; both widen after the open. The bid is
// rounded down and the ask up to the tick, so the theoretical value always
// lies within the quote and the mids of a call and put satisfy put-call
// parity within their widths. A bid that would be below one tick is 0.00:
// far out-of-the-money junk has no bid.
func (c *tickCtx) quote(s *series, e *expiry, k int, put bool) quote {
	K := s.Strikes[k]
	p := c.params(e, K, put)
	p.Vol = c.surf.Vol(K, e.F, e.T)
	theo, g := bsm.Compute(p)
	intrinsic := math.Max(c.S-K, 0)
	if put {
		intrinsic = math.Max(K-c.S, 0)
	}
	tv := math.Max(theo-intrinsic, 0)
	lnFK := math.Log(e.F / K)
	x := math.Abs(lnFK) / (p.Vol * e.sqrtT)
	carry := (c.b.baseW + 0.003*tv + 0.0004*intrinsic) * (1 + 0.25*math.Min(x, 8)) * c.b.illiq * (1 + 0.1*e.sqrtT)
	d := math.Abs(g.Delta)
	d = math.Min(d, 1-d) // the cheaper side of the parity pair: see liquidity.go
	w := carry*c.widen + math.Min(c.adv*d*c.widen, maxAdverse*theo)
	q := quote{theo: theo, vol: p.Vol, greeks: g, lnFK: lnFK}
	q.bid = floorTick(theo-w/2, c.b.penny)
	q.ask = ceilTick(theo+w/2, c.b.penny)
	if q.ask <= q.bid {
		q.ask = q.bid + tickCents(q.bid, c.b.penny)
	}
	h := mix(s.seed ^ uint64(k)<<1 ^ uint64(c.tick)<<24)
	if put {
		h = mix(h)
	}
	depth := 1 + int64((5+400/(1+x*(0.7+0.245*x)))*c.b.sizes) // about 5 + 400 e^{-0.7x}
	q.bidSz = 1 + int64(h%uint64(depth))
	q.askSz = 1 + int64((h>>32)%uint64(depth))
	if q.bid == 0 {
		q.bidSz = 0
	}
	return q
}

// contractQuote is quote for contract ci.
func (c *tickCtx) contractQuote(ci int) (quote, *series, expiry, int, bool) {
	s, k, put := c.b.contract(ci)
	e := c.expiry(s)
	return c.quote(s, &e, k, put), s, e, k, put
}

// implied inverts a price of contract (K, put) to its implied vol and the
// greeks at that vol, starting from the vol guess; ok is false when there
// is no such vol (a price outside the no-arbitrage bounds, or a vol outside
// bsm's search range), and then neither exists.
func (c *tickCtx) implied(e *expiry, K float64, put bool, price, guess float64) (float64, bsm.Greeks, bool) {
	p := c.params(e, K, put)
	p.Vol = guess
	v, g := bsm.Compute(p)
	return c.invert(e, p, v, g, math.Log(e.F/K), price)
}

// wide reports a market too wide to mean a price: more than ten cents and
// more than half the mid apart. No IV is published from it, nor from a
// zero bid: either would be a number from a quote nobody trades at.
func (q *quote) wide() bool {
	s := q.ask - q.bid
	return s > 10 && 4*s > q.bid+q.ask
}

// quoteIV is the IV and greeks a chain publishes for a quote: from its mid
// when the market is two-sided and not too wide. A deep in-the-money mid
// may sit a tick below the no-arbitrage bound (the ticks round away its
// little time value) while the ask is above it; the market is then
// consistent with the model, and its vol and greeks are the ones quoted.
func (c *tickCtx) quoteIV(e *expiry, K float64, put bool, q *quote) (float64, bsm.Greeks, bool) {
	if q.bid <= 0 || q.wide() {
		return 0, bsm.Greeks{}, false
	}
	mid := q.mid()
	if iv, g, ok := c.invert(e, c.paramsAt(e, K, put, q.vol), q.theo, q.greeks, q.lnFK, mid); ok {
		return iv, g, true
	}
	if lo, _ := e.bounds(K, put); mid <= lo && dollars(q.ask) > lo && e.T > 0 && q.vol >= bsm.MinIV && q.vol <= bsm.MaxIV {
		return q.vol, q.greeks, true
	}
	return 0, bsm.Greeks{}, false
}

// invert finds the vol at which the option p prices at price, given its
// value v and greeks g at p.Vol.
//
// The chain inverts 20,000 mids a tick, each within half a spread of the
// theoretical value whose vol and greeks the quote already holds, so
// Halley's method on bsm.Compute from there (vega and volga known in closed
// form) lands within 1e-7 of the root in one or two steps, and its last
// evaluation holds the greeks. Where it does not settle quickly (far wings,
// tiny vega) bsm.ImpliedVol decides.
func (c *tickCtx) invert(e *expiry, p bsm.Params, v float64, g bsm.Greeks, lnFK, price float64) (float64, bsm.Greeks, bool) {
	if lo, hi := e.bounds(p.K, !p.Call); !(price > lo && price < hi) {
		return 0, bsm.Greeks{}, false
	}
	for i := 0; ; i++ {
		vega := g.Vega * 100 // per unit of vol
		if !(vega > 1e-9*math.Max(1, price)) || i == 4 {
			break // too flat, or slow: leave it to the bracketing solver
		}
		f := v - price
		if math.Abs(f/vega) < 1e-7 {
			if p.Vol < bsm.MinIV || p.Vol > bsm.MaxIV {
				return 0, bsm.Greeks{}, false
			}
			return p.Vol, g, true
		}
		sd := p.Vol * e.sqrtT
		d1 := lnFK/sd + 0.5*sd
		volga := vega * d1 * (d1 - sd) / p.Vol
		step := f / vega
		if den := 1 - 0.5*step*volga/vega; den > 0.5 && den < 2 {
			step /= den
		}
		p.Vol -= step
		if !(p.Vol > bsm.MinIV/2 && p.Vol < 2*bsm.MaxIV) {
			break
		}
		v, g = bsm.Compute(p)
	}
	iv, ok := bsm.ImpliedVol(price, p)
	if !ok {
		return 0, bsm.Greeks{}, false
	}
	p.Vol = iv
	_, g = bsm.Compute(p)
	return iv, g, true
}

// tickCents is the minimum price increment in cents at a price in cents:
// a penny below 3.00 and a nickel from 3.00 up, or a penny everywhere for
// the names quoted in pennies.
func tickCents(cents int64, penny bool) int64 {
	if penny || cents < 300 {
		return 1
	}
	return 5
}

// floorTick rounds a dollar price down to its tick, in cents, never below 0.
func floorTick(p float64, penny bool) int64 {
	c := int64(math.Floor(p*100 + 1e-7))
	if c <= 0 {
		return 0
	}
	t := tickCents(c, penny)
	return c / t * t
}

// ceilTick rounds a dollar price up to its tick, in cents, at least a penny.
func ceilTick(p float64, penny bool) int64 {
	c := max(int64(math.Ceil(p*100-1e-7)), 1)
	t := tickCents(c, penny)
	return (c + t - 1) / t * t
}

// dollars converts cents to the float64 nearest the decimal price.
func dollars(c int64) float64 { return float64(c) / 100 }

// round rounds v to n decimals (n <= 8), which keeps the JSON short.
func round(v float64, n int) float64 {
	p := pow10[n]
	return math.Round(v*p) / p
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}
