package sim

import (
	"math"

	"chainwatch/api"
	"chainwatch/pricing"
)

// tickCtx is the pricing state of one book at one tick (second): the
// underlying's price and the volatility surface of that moment. Every quote
// of the sandbox, in a chain, on a trade or in trades-and-quotes, is
// computed from it, so the NBBO a trade printed against is exactly the
// chain's quote of that second. The spot S is the underlying's published
// mid of that second, to the last bit, so that a client pricing from
// underlying_mid reproduces every figure.
type tickCtx struct {
	b     *book
	tick  api.TimeOfDay
	S     float64
	surf  Surface
	widen float64 // spread multiplier: market makers quote wide in the opening minutes
	adv   float64 // adverse-selection width per unit of delta, dollars (liquidity.go)
}

// at returns the pricing state at tick (a whole second, or the instant just
// before the open).
func (b *book) at(tick api.TimeOfDay) tickCtx {
	c := tickCtx{b: b, tick: tick, S: quoteUnderlying(b.sec, b.day, tick).mid(), widen: openingWiden(tick)}
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
	dr := pricing.Discount(T, c.b.r)
	return expiry{T: T, F: pricing.Forward(c.S, T, c.b.r, c.b.q), sqrtT: math.Sqrt(T),
		sdq: c.S * pricing.Discount(T, c.b.q), dr: dr}
}

// bounds are pricing.Bounds of contract (K, put) from the expiry's discount
// factors: a price strictly between them has an implied vol.
func (e *expiry) bounds(K float64, put bool) (lo, hi float64) {
	if put {
		return math.Max(K*e.dr-e.sdq, 0), K * e.dr
	}
	return math.Max(e.sdq-K*e.dr, 0), e.sdq
}

// params are the bsm inputs of one contract (Vol left for the caller).
func (c *tickCtx) params(e *expiry, K float64, put bool) pricing.Params {
	return c.paramsAt(e, K, put, 0)
}

func (c *tickCtx) paramsAt(e *expiry, K float64, put bool, vol float64) pricing.Params {
	return pricing.Params{S: c.S, K: K, T: e.T, R: c.b.r, Q: c.b.q, Vol: vol, Call: !put, American: c.b.american}
}

// quote is one contract's NBBO at a tick, prices in cents.
type quote struct {
	bid, ask     int64
	bidSz, askSz int64
	theo, vol    float64        // the model's value at the surface's vol
	greeks       pricing.Greeks // the European greeks there (see theoretical)
}

// mid is the quote's midpoint in dollars (a half cent is possible).
func (q *quote) mid() float64 { return float64(q.bid+q.ask) / 200 }

// quote prices contract (s, k, put) off the surface and spreads it (see
// liquidity.go): the width is a carrying cost, growing with the option's
// time value and intrinsic value (what market makers risk) and with their
// distance from the money in standard deviations, plus a base width, all
// larger for names that trade little; plus the name's adverse selection
// on the delta of the out-of-the-money side of the contract's parity pair
// (at most maxAdverse of its value), which is what makes thin names'
// quotes wide; both widen after the open. The bid is rounded down and the
// ask up to the tick, so the theoretical value always lies within the
// quote and the mids of a call and put satisfy put-call parity within
// their widths. A bid that would be below one tick is 0.00: far
// out-of-the-money junk has no bid.
//
// An American option is never bid below its intrinsic value (a holder
// would exercise rather than sell there). And far from the money the width
// only narrows as the value falls (the base width does not grow with the
// distance), so the wings stay monotone: a call's bid, ask and mid never
// rise with the strike, a put's never fall as the strike falls.
func (c *tickCtx) quote(s *series, e *expiry, k int, put bool) quote {
	K := s.Strikes[k]
	p := c.paramsAt(e, K, put, c.surf.Vol(K, e.F, e.T))
	theo, g := theoretical(p)
	return c.quoteAt(s, e, k, p, theo, g)
}

// quoteAt is quote for the contract of p (at the surface's vol), given its
// value theo and greeks g.
func (c *tickCtx) quoteAt(s *series, e *expiry, k int, p pricing.Params, theo float64, g pricing.Greeks) quote {
	K, put := p.K, !p.Call
	intrinsic := intrinsicOf(p)
	tv := math.Max(theo-intrinsic, 0)
	x := c.stdDevs(e, K, p.Vol)
	carry := c.carryWidth(e, tv, intrinsic, x)
	d := math.Abs(g.Delta)
	d = math.Min(d, 1-d) // the cheaper side of the parity pair: see liquidity.go
	w := carry*c.widen + math.Min(c.adv*d*c.widen, maxAdverse*theo)
	q := quote{theo: theo, vol: p.Vol, greeks: g}
	q.bid = floorTick(theo-w/2, c.b.penny)
	if p.American && intrinsic > 0 {
		q.bid = max(q.bid, ceilTick(intrinsic, c.b.penny))
	}
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

// stdDevs is the distance of strike K from the forward in standard
// deviations at vol.
func (c *tickCtx) stdDevs(e *expiry, K, vol float64) float64 {
	return math.Abs(math.Log(e.F/K)) / (vol * e.sqrtT)
}

// carryWidth is the carrying-cost part of a quote's width (see quote),
// before the opening widening.
func (c *tickCtx) carryWidth(e *expiry, tv, intrinsic, x float64) float64 {
	return (c.b.baseW + (0.003*tv+0.0004*intrinsic)*(1+0.25*math.Min(x, 8))) * c.b.illiq * (1 + 0.1*e.sqrtT)
}

// hasBid reports whether contract ci is bid at c's tick: contractQuote's
// bid > 0, at the cost of a European value where that settles it. An
// American option in the money is always bid (at least its intrinsic
// value). Out of the money its value is at least the European one, and
// the bid, the value less half the width rounded down, never falls as the
// value rises while half the width grows more slowly than the value
// (slope below 1, checked here): so a European quote with a bid means an
// American one with a bid. Otherwise the American quote decides.
func (c *tickCtx) hasBid(ci int) bool {
	s, k, put := c.b.contract(ci)
	e := c.expiry(s)
	K := s.Strikes[k]
	p := c.paramsAt(&e, K, put, c.surf.Vol(K, e.F, e.T))
	if p.American {
		if intrinsicOf(p) > 0 {
			return true
		}
		x := c.stdDevs(&e, K, p.Vol)
		slope := (c.carryWidth(&e, 1, 0, x)-c.carryWidth(&e, 0, 0, x))*c.widen + maxAdverse
		if slope < 2 {
			eu := p
			eu.American = false
			theo, g := pricing.Compute(eu)
			if eq := c.quoteAt(s, &e, k, eu, theo, g); eq.bid > 0 {
				return true
			}
		}
	}
	theo, g := theoretical(p)
	return c.quoteAt(s, &e, k, p, theo, g).bid > 0
}

// theoretical is the model's value of p and the European greeks at p.Vol:
// the model's own for a European option; for an American one (whose
// greeks cost an evaluation on jets, several times its value's) they stand
// in where a close figure is enough: the delta of the quote's width, and
// the vega of the first step inverting its mid.
func theoretical(p pricing.Params) (float64, pricing.Greeks) {
	if !p.American {
		return pricing.Compute(p)
	}
	v := pricing.Price(p)
	p.American = false
	_, g := pricing.Compute(p)
	return v, g
}

// intrinsicOf is the value of exercising p now.
func intrinsicOf(p pricing.Params) float64 {
	if p.Call {
		return math.Max(p.S-p.K, 0)
	}
	return math.Max(p.K-p.S, 0)
}

// contractQuote is quote for contract ci.
func (c *tickCtx) contractQuote(ci int) (quote, *series, expiry, int, bool) {
	s, k, put := c.b.contract(ci)
	e := c.expiry(s)
	return c.quote(s, &e, k, put), s, e, k, put
}

// secondQuotes are the quotes of one second made so far, by contract: a
// handful, so a list beats a map.
type secondQuotes []contractQuoted

type contractQuoted struct {
	ci int32
	q  quote
}

// quote is contract ci's quote at c's tick, made once per second.
func (m *secondQuotes) quote(c *tickCtx, ci int32) quote {
	for i := range *m {
		if (*m)[i].ci == ci {
			return (*m)[i].q
		}
	}
	q, _, _, _, _ := c.contractQuote(int(ci))
	*m = append(*m, contractQuoted{ci, q})
	return q
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
