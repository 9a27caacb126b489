package sim

import (
	"math"

	"chainwatch/pricing"
)

// What the sandbox publishes for a price of a contract (a quote's mid in a
// chain, a trade's price in trades with greeks): its implied vol under the
// contract's model (Black-Scholes-Merton for an index's European options,
// Bjerksund-Stensland 2002 for the American options of stocks and funds),
// and the model's greeks at that vol.
//
// Except where the ticks, not the vol, set the price: where the option's
// time value over its floor (the model's value at no vol: the intrinsic
// value, or the European lower bound) is under one tick, in the model's
// value at the surface's vol or in the price itself, any vol near the
// surface's gives the same quote, and the vol that would reproduce the
// price to the hundredth of a cent is noise (a deep in-the-money strike at
// 40 % between two at 15 %). There the vol published is the model's own,
// the surface's at that strike, with its greeks.

// wide reports a market too wide to mean a price: more than ten cents and
// more than half the mid apart. No IV is published from it, nor from a
// zero bid: either would be a number from a quote nobody trades at.
func (q *quote) wide() bool {
	s := q.ask - q.bid
	return s > 10 && 4*s > q.bid+q.ask
}

// quoteIV is the IV and greeks a chain publishes for a quote: from its mid
// when the market is two-sided and not too wide (see published).
func (c *tickCtx) quoteIV(e *expiry, K float64, put bool, q *quote) (float64, pricing.Greeks, bool) {
	if q.bid <= 0 || q.wide() {
		return 0, pricing.Greeks{}, false
	}
	return c.published(e, c.paramsAt(e, K, put, q.vol), q.theo, q.greeks, q.mid())
}

// implied is the IV and greeks published for a price of contract (K, put),
// as for a trade (see published); ok is false when there is no such vol
// (a price outside the no-arbitrage bounds, or a vol outside bsm's search
// range), and then neither exists.
func (c *tickCtx) implied(e *expiry, K float64, put bool, price float64) (float64, pricing.Greeks, bool) {
	p := c.paramsAt(e, K, put, c.surf.Vol(K, e.F, e.T))
	theo, g := theoretical(p)
	return c.published(e, p, theo, g, price)
}

// published is the IV and greeks published for price of contract p, whose
// model value at p.Vol (the surface's vol) is theo with greeks g (the
// European ones for an American option, see theoretical).
func (c *tickCtx) published(e *expiry, p pricing.Params, theo float64, g pricing.Greeks, price float64) (float64, pricing.Greeks, bool) {
	floor, _ := e.bounds(p.K, !p.Call) // the model's value at no vol (pricing.Bounds, from the expiry's discounts)
	if p.American {
		floor = math.Max(floor, intrinsicOf(p))
	}
	tick := dollars(tickCents(int64(math.Round(price*100)), c.b.penny))
	if math.Min(theo, price)-floor < tick {
		if !(p.Vol >= pricing.MinIV && p.Vol <= pricing.MaxIV) || p.T <= 0 {
			return 0, pricing.Greeks{}, false
		}
		if p.American {
			_, g = pricing.Compute(p)
		}
		return p.Vol, g, true
	}
	return pricing.ImpliedVolFrom(price, p, theo, g)
}

// capTheta is a published theta: never a larger loss than the price's
// time value (price less intrinsic), the most a day can take from it. A
// European option priced below its intrinsic value (a deep in-the-money
// put) has no time value to lose, and keeps its theta, which may be a
// gain.
func capTheta(theta, price, intrinsic float64, american bool) float64 {
	tv := price - intrinsic
	if tv > 0 || american {
		return math.Max(theta, -math.Max(tv, 0))
	}
	return theta
}
