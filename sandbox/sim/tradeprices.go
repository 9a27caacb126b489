package sim

import "chainwatch/sandbox/par"

// How a day's trades get their prices: as far as they are read, and only
// for the expiries read (trades.go keeps them).

// priceChunk is how many trades one core prices at a time.
const priceChunk = 4096

// priceFor prices the trades before n of the series whose expiry x keeps,
// those not yet priced, in chunks on every core: a trade's prices depend
// on its own second alone, so which trades are priced first changes none.
func (td *tradeDay) priceFor(n int, x Expiries) {
	if int(td.priced.Load()) >= n {
		return
	}
	td.mu.Lock()
	defer td.mu.Unlock()
	from := int(td.priced.Load())
	if from >= n {
		return
	}
	series := td.b.series
	if td.through == nil {
		td.through = make([]int, len(series))
	}
	// want[s]: series s has trades to price, from its own point on.
	want := make([]bool, len(series))
	lo := n
	for s := range series {
		if done := max(td.through[s], from); done < n && x.keep(series[s].Expiry) {
			want[s], lo = true, min(lo, done)
		}
	}
	if lo < n {
		par.Each((n-lo+priceChunk-1)/priceChunk, func(k int) {
			a := lo + k*priceChunk
			td.priceRange(a, min(a+priceChunk, n), func(i int) bool {
				s := td.b.seriesOf(int(td.sk.trades[i].ci))
				return want[s] && i >= max(td.through[s], from)
			})
		})
	}
	all := n // the new prefix: the least of every series' point
	for s := range series {
		if want[s] {
			td.through[s] = n
		}
		all = min(all, max(td.through[s], from))
	}
	td.priced.Store(int64(all))
}

// printed is trade st's price against q, its second's quote of its
// contract, with the NBBO it printed against. A cancel message repeats
// the canceled print's price, against the NBBO of its own moment.
func (b *book) printed(st *skelTrade, q quote) (price, bid, ask int64) {
	if st.pt == st.t {
		return printPrice(st, q, b.penny)
	}
	pc := b.at(st.pt - st.pt%1000)
	pq, _, _, _, _ := pc.contractQuote(int(st.ci))
	price, _, _ = printPrice(st, pq, b.penny)
	return price, q.bid, q.ask
}

// priceRange prices those of trades lo to hi-1 that price says against the
// NBBO of their second, computed exactly as the chain computes that
// second's quote. A second's quotes are kept while its trades are priced:
// an order worked in pieces prints several times in one contract within a
// second, and a sweep's pieces all at once, so many of the trades find
// their quote made.
func (td *tradeDay) priceRange(lo, hi int, price func(i int) bool) {
	b, sk := td.b, td.sk
	var c tickCtx
	var uq underQuote
	var memo secondQuotes
	have := false
	for i := lo; i < hi; i++ {
		if !price(i) {
			continue
		}
		st := &sk.trades[i]
		sec := st.t - st.t%1000
		if !have || c.tick != sec {
			c, uq, have = b.at(sec), quoteUnderlying(b.sec, b.day, sec), true
			memo = memo[:0]
		}
		q := memo.quote(&c, st.ci)
		price, bid, ask := b.printed(st, q)
		td.px[i] = tradePrices{
			price: fit32(price), bid: fit32(bid), ask: fit32(ask),
			bidSz: fit32(q.bidSz), askSz: fit32(q.askSz),
			ubid: fit32(uq.bid), uask: fit32(uq.ask),
			exSeq: td.px[i].exSeq,
		}
	}
}
