package sim

import (
	"math"

	"chainwatch/api"
	"chainwatch/pricing"
	"chainwatch/sandbox/par"
)

// A chain's day aggregates (volume, trade count, open, high, low, last)
// need every trade's price only where it is the first, the last, or the
// extreme of its contract's. An American quote costs the
// Bjerksund-Stensland formula; its bounds (pricing.PriceRange) cost a
// European value, and a trade's price never falls as its contract's
// value rises (quoteRange says where). So a chain of an American book
// brackets each trade's price, prices exactly only the trades that can
// open, close or reach their contract's high or low, and leaves the rest
// to be priced when option-trades reads them. The aggregates are those
// of the trades priced one by one (TestChainAggregatesAsPriced).

// priceBounds bracket a trade's price in cents: lo == hi is the price;
// unknownPrice is a trade whose price must be computed.
type priceBounds struct{ lo, hi int32 }

var unknownPrice = priceBounds{math.MinInt32, math.MaxInt32}

// chainAggs adds the normal trades before n of the contracts that row
// places (a chain row, or -1) to aggs.
func (td *tradeDay) chainAggs(n int, x Expiries, row func(ci int) int, aggs []agg) {
	if !td.b.american || td.pricedThrough(n, x) {
		td.priceFor(n, x)
		for i := range n {
			if r := td.rowOf(i, row); r >= 0 {
				aggs[r].add(td.sk.trades[i].size, td.px[i].price)
			}
		}
		return
	}
	rows := make([]int32, n)
	bounds := make([]priceBounds, n)
	par.Each((n+priceChunk-1)/priceChunk, func(k int) {
		a := k * priceChunk
		td.boundRange(a, min(a+priceChunk, n), row, rows, bounds)
	})
	// Per row: its first and last trades, the highest low bound and the
	// lowest high bound; a trade whose high bound is below the highest
	// low bound of its row cannot be its high, and likewise for the low.
	type span struct{ first, last, maxLo, minHi int32 }
	spans := make([]span, len(aggs))
	for r := range spans {
		spans[r] = span{-1, -1, math.MinInt32, math.MaxInt32}
	}
	for i, r := range rows {
		if r < 0 {
			continue
		}
		sp := &spans[r]
		if sp.first < 0 {
			sp.first = int32(i)
		}
		sp.last = int32(i)
		sp.maxLo, sp.minHi = max(sp.maxLo, bounds[i].lo), min(sp.minHi, bounds[i].hi)
	}
	var need []int
	for i, r := range rows {
		if r < 0 || bounds[i].lo == bounds[i].hi {
			continue
		}
		if sp := &spans[r]; int32(i) == sp.first || int32(i) == sp.last || bounds[i].hi >= sp.maxLo || bounds[i].lo <= sp.minHi {
			need = append(need, i)
		}
	}
	const chunk = 512
	par.Each((len(need)+chunk-1)/chunk, func(k int) {
		var c tickCtx
		var memo secondQuotes
		for _, i := range need[k*chunk : min((k+1)*chunk, len(need))] {
			st := &td.sk.trades[i]
			if sec := st.t - st.t%1000; len(memo) == 0 || c.tick != sec {
				c, memo = td.b.at(sec), memo[:0]
			}
			price, _, _ := td.b.printed(st, memo.quote(&c, st.ci))
			p := fit32(price)
			bounds[i] = priceBounds{p, p}
		}
	})
	// A row's first and last trades are priced, and so is every one that
	// can be its high or low; the others count only in volume.
	for i, r := range rows {
		if r < 0 {
			continue
		}
		a, b, size := &aggs[r], bounds[i], td.sk.trades[i].size
		if b.lo == b.hi {
			a.add(size, b.lo)
		} else {
			a.volume += int64(size)
			a.count++
		}
	}
}

// rowOf is trade i's row (row), or -1 for a trade not counted: another
// contract's, or a cancel or its message.
func (td *tradeDay) rowOf(i int, row func(ci int) int) int {
	t := &td.sk.trades[i]
	if api.CancelFlag(t.flag) != api.TradeNormal {
		return -1
	}
	return row(int(t.ci))
}

// add counts one trade of size at price (cents) in the aggregates.
func (a *agg) add(size, price int32) {
	p := dollars(int64(price))
	if a.count == 0 {
		a.open, a.high, a.low = p, p, p
	}
	a.volume += int64(size)
	a.count++
	a.high, a.low, a.last = math.Max(a.high, p), math.Min(a.low, p), p
}

// pricedThrough reports whether the trades before n of the expiries x
// are priced already.
func (td *tradeDay) pricedThrough(n int, x Expiries) bool {
	if int(td.priced.Load()) >= n {
		return true
	}
	td.mu.Lock()
	defer td.mu.Unlock()
	from := int(td.priced.Load())
	for s := range td.b.series {
		if x.keep(td.b.series[s].Expiry) && (td.through == nil || max(td.through[s], from) < n) {
			return false
		}
	}
	return true
}

// boundRange sets the rows (rowOf) and price bounds of trades lo to hi-1;
// one second's quote bounds are kept while its trades are bounded.
func (td *tradeDay) boundRange(lo, hi int, row func(ci int) int, rows []int32, out []priceBounds) {
	b := td.b
	var c tickCtx
	var memo []contractRange
	for i := lo; i < hi; i++ {
		r := td.rowOf(i, row)
		if rows[i] = int32(r); r < 0 {
			continue
		}
		st := &td.sk.trades[i]
		if st.pt != st.t {
			out[i] = unknownPrice
			continue
		}
		if sec := st.t - st.t%1000; len(memo) == 0 || c.tick != sec {
			c, memo = b.at(sec), memo[:0]
		}
		j := 0
		for j < len(memo) && memo[j].ci != st.ci {
			j++
		}
		if j == len(memo) {
			qlo, qhi, ok := c.quoteRange(int(st.ci))
			memo = append(memo, contractRange{st.ci, qlo, qhi, ok})
		}
		q := &memo[j]
		out[i] = unknownPrice
		if q.ok {
			if plo, phi := printBounds(st, &q.lo, &q.hi, b.penny); plo <= phi {
				out[i] = priceBounds{fit32(plo), fit32(phi)}
			}
		}
	}
}

// printBounds bracket the price of print st against an NBBO between lo
// and hi (both bid). A print at the bid, the ask or through them never
// falls as they rise (TestPrintPriceMonotone). One inside the spread
// does: near the mid, a draw of a cent either side, within the spread
// (printPrice); so it is bracketed by those limits at either end.
func printBounds(st *skelTrade, lo, hi *quote, penny bool) (plo, phi int64) {
	if st.kind == atMid {
		return max(lo.bid, (lo.bid+lo.ask)/2-1), min(hi.ask, (hi.bid+hi.ask)/2+1)
	}
	plo, _, _ = printPrice(st, *lo, penny)
	phi, _, _ = printPrice(st, *hi, penny)
	return plo, phi
}

// contractRange is one contract's quoteRange at a second.
type contractRange struct {
	ci     int32
	lo, hi quote
	ok     bool
}

// quoteRange brackets contract ci's quote at c's tick: its bid and ask
// lie between lo's and hi's, which are the quote itself where the value
// is known (lo == hi). Not ok where the quote may fall as the value
// rises: half the width growing as fast as the value (hasBid's slope),
// or no bid at the low end, where a print's price is not the NBBO's.
func (c *tickCtx) quoteRange(ci int) (lo, hi quote, ok bool) {
	s, k, put := c.b.contract(ci)
	e := c.expiry(s)
	K := s.Strikes[k]
	p := c.paramsAt(&e, K, put, c.surf.Vol(K, e.F, e.T))
	if !p.American {
		q := c.quote(s, &e, k, put)
		return q, q, true
	}
	vlo, vhi := pricing.PriceRange(p)
	eu := p
	eu.American = false
	_, g := pricing.Compute(eu) // theoretical's greeks
	lo = c.quoteAt(s, &e, k, p, vlo, g)
	if vlo == vhi {
		return lo, lo, true
	}
	x := c.stdDevs(&e, K, p.Vol)
	if slope := (c.carryWidth(&e, 1, 0, x)-c.carryWidth(&e, 0, 0, x))*c.widen + maxAdverse; slope >= 2 || lo.bid == 0 {
		return quote{}, quote{}, false
	}
	return lo, c.quoteAt(s, &e, k, p, vhi, g), true
}
