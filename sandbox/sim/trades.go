package sim

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/par"
)

// tradeDay is one symbol's option trades of one day, priced: the records
// option-trades returns (sorted, seq_no = index + 1), kept compact. The
// skeleton says when, which contract, how many, where and with what flag;
// beside it each trade's prices, in cents. An api.OptionTrade (many times larger)
// is built only for a record a request reads (Trades.At): an SPX day's
// trades take a fraction of the memory this way.
//
// The prices are made in time order as far as a reader asks (upTo), and
// only for the expiries it reads (upToExpiries): a chain of this week's
// expiries at 11:00 needs this week's trades of the morning, not the whole
// day's of every expiry.
type tradeDay struct {
	b  *book
	sk *skeleton
	px []tradePrices

	mu      sync.Mutex   // held while pricing
	priced  atomic.Int64 // px[:priced] are set (exSeq all of them)
	through []int        // by series: its trades before max(through, priced) are set; under mu
}

// tradePrices is what pricing adds to a skeleton trade: the price and the
// NBBO it printed against, the NBBO's sizes and the underlying's quote at
// that moment, all in cents, and the exchange's sequence number. Whole
// cents fit 32 bits up to $21 million, a thousand times the dearest
// underlying; fit32 refuses anything larger rather than wrap.
type tradePrices struct {
	price, bid, ask int32
	bidSz, askSz    int32
	ubid, uask      int32
	exSeq           uint32
}

// tradeDay returns b's whole day of trades, priced as read.
func (m *Market) tradeDay(b *book) (*tradeDay, bool) {
	return m.tradeDayThrough(b, nyse.SessionClose(b.date))
}

// Trades is an underlying's option trades of one day up to a moment, in
// seq_no order, cancels and cancel messages included: a view of the day's
// compact records, shared by every caller, that builds a record when it
// is read.
type Trades struct {
	td *tradeDay
	n  int
}

// Len is the number of trades; trade i has seq_no i + 1.
func (t Trades) Len() int { return t.n }

// At is trade i (0 <= i < Len()), a value of its own.
func (t Trades) At(i int) api.OptionTrade {
	if i < 0 || i >= t.n {
		panic(fmt.Sprintf("sim: trade %d of %d", i, t.n))
	}
	return t.td.trade(i)
}

// Since is the index of the first trade at or after time of day from
// (Len() if none): trades are in time order, so a window that starts at
// from needs none of those before.
func (t Trades) Since(from api.TimeOfDay) int {
	return sort.Search(t.n, func(i int) bool { return t.td.sk.trades[i].t >= from })
}

// OptionTrades returns the day's option trades of an underlying up to
// at.Time inclusive. False: unknown or not optionable symbol, or no data
// that day.
func (m *Market) OptionTrades(underlying string, at Moment) (Trades, bool) {
	sec, ok := m.u.Lookup(underlying)
	if !ok {
		return Trades{}, false
	}
	b, ok := m.book(sec, at.Date)
	if !ok {
		return Trades{}, false
	}
	td, ok := m.tradeDayThrough(b, at.Time)
	if !ok {
		return Trades{}, false
	}
	return Trades{td, td.upTo(at.Time)}, true
}

// upTo is the number of trades with a timestamp at or before t, all of
// them priced.
func (td *tradeDay) upTo(t api.TimeOfDay) int { return td.upToExpiries(t, Expiries{}) }

// upToExpiries is upTo with only the trades of the expiries x priced: the
// others among the first n may not be, and must not be read.
func (td *tradeDay) upToExpiries(t api.TimeOfDay, x Expiries) int {
	n := td.sk.count(t)
	td.priceFor(n, x)
	return n
}

// trade builds the record of trade i from its skeleton and prices.
func (td *tradeDay) trade(i int) api.OptionTrade {
	st, p := &td.sk.trades[i], &td.px[i]
	s, k, put := td.b.contract(int(st.ci))
	price, bid, ask := int64(p.price), int64(p.bid), int64(p.ask)
	return api.OptionTrade{
		Security:      api.Some(td.b.name(int(st.ci))),
		Root:          s.Root,
		Expiry:        s.Expiry,
		Strike:        s.Strikes[k],
		OptionType:    optionType(put),
		Ask:           api.Some(dollars(ask)),
		AskSize:       api.Some(int64(p.askSz)),
		Bid:           api.Some(dollars(bid)),
		BidSize:       api.Some(int64(p.bidSz)),
		Price:         api.Some(dollars(price)),
		Size:          int64(st.size),
		TradeAt:       classify(price, bid, ask),
		UnderlyingBid: api.Some(dollars(int64(p.ubid))),
		UnderlyingAsk: api.Some(dollars(int64(p.uask))),
		ConditionID:   st.cond,
		ExchangeID:    st.exch,
		ExchangeSeqNo: int64(p.exSeq),
		CancelFlag:    api.CancelFlag(st.flag),
		Timestamp:     st.t,
		SeqNo:         int64(i + 1),
	}
}

// priceTrades is the trade day of a skeleton, numbered by exchange and
// priced as it is read (priceTo).
func priceTrades(b *book, sk *skeleton) *tradeDay {
	td := &tradeDay{b: b, sk: sk, px: make([]tradePrices, len(sk.trades))}
	for i, seq := range sk.exchangeSeqs(b.sec.Symbol, b.date) {
		if seq < 0 || seq > math.MaxUint32 {
			panic(fmt.Sprintf("sim: exchange sequence number %d does not fit a compact trade", seq))
		}
		td.px[i].exSeq = uint32(seq)
	}
	return td
}

// priceChunk is how many trades one core prices at a time.
const priceChunk = 4096

// priceTo prices every trade before n.
func (td *tradeDay) priceTo(n int) { td.priceFor(n, Expiries{}) }

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

// priceRange prices those of trades lo to hi-1 that price says against the
// NBBO of their second, computed exactly as the chain computes that
// second's quote. A second's quotes are kept while its trades are priced:
// an order worked in pieces prints several times in one contract within a
// second, and a sweep's pieces all at once, so about a quarter of the
// trades find their quote made.
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
		pq := q
		if st.pt != st.t { // a cancel message repeats the canceled print's price
			pc := b.at(st.pt - st.pt%1000)
			pq, _, _, _, _ = pc.contractQuote(int(st.ci))
		}
		price, bid, ask := printPrice(st, pq, b.penny)
		if st.pt != st.t { // ... against the NBBO of its own moment
			bid, ask = q.bid, q.ask
		}
		td.px[i] = tradePrices{
			price: fit32(price), bid: fit32(bid), ask: fit32(ask),
			bidSz: fit32(q.bidSz), askSz: fit32(q.askSz),
			ubid: fit32(uq.bid), uask: fit32(uq.ask),
			exSeq: td.px[i].exSeq,
		}
	}
}

// fit32 is v (a price in cents, or a size) as an int32. The simulated
// market never comes near the bound; a value that did would be a bug to
// see, not a number to wrap.
func fit32(v int64) int32 {
	if v < math.MinInt32 || v > math.MaxInt32 {
		panic(fmt.Sprintf("sim: %d does not fit a compact trade", v))
	}
	return int32(v)
}

// printPrice is the price of a print against quote q, in cents, with the
// NBBO it printed against (which differs from q only in a crossed market:
// a bid momentarily a tick above the ask).
func printPrice(st *skelTrade, q quote, penny bool) (price, bid, ask int64) {
	bid, ask = q.bid, q.ask
	up := func(p int64, n uint8) int64 {
		for range n {
			p += tickCents(p, penny)
		}
		return p
	}
	down := func(p int64, n uint8) int64 {
		for range n {
			if d := p - tickCents(p-1, penny); d > 0 {
				p = d
			}
		}
		return p
	}
	if bid == 0 { // no bid: buyers pay the offer or less, sellers what they can get
		switch st.kind {
		case atAsk, aboveAsk, sweepBuy:
			return up(ask, st.level), bid, ask
		}
		return 1 + int64(st.rnd)%ask, bid, ask
	}
	switch st.kind {
	case atBid:
		return bid, bid, ask
	case atAsk:
		return ask, bid, ask
	case belowBid:
		return down(bid, 1+st.level), bid, ask
	case aboveAsk:
		return up(ask, 1+st.level), bid, ask
	case sweepBuy:
		return up(ask, st.level), bid, ask
	case sweepSell:
		return down(bid, st.level), bid, ask
	case crossed:
		return ask, ask + tickCents(ask, penny), ask
	}
	// inside the spread: near the mid, on a penny (multi-leg and improved
	// prices need not be on the tick); a one-cent market has no inside.
	if w := ask - bid; w >= 2 {
		p := (bid + ask) / 2
		if w > 3 {
			p += int64(st.rnd%3) - 1
		}
		return min(max(p, bid+1), ask-1), bid, ask
	}
	if st.rnd%2 == 0 {
		return bid, bid, ask
	}
	return ask, bid, ask
}

// classify places a price in cents against the NBBO as the conventions
// say (api.ClassifyTradeAt, the rule the client applies too).
func classify(price, bid, ask int64) api.TradeAt { return api.ClassifyTradeAt(price, bid, ask) }

// contractTrades returns the indices of the day's trades of contract ci with
// a timestamp at or before t.
func (td *tradeDay) contractTrades(ci int, t api.TimeOfDay) []int {
	var out []int
	n := td.upTo(t)
	for i := range n {
		if int(td.sk.trades[i].ci) == ci {
			out = append(out, i)
		}
	}
	return out
}

// contractOf finds the book of an OSI symbol's day and its contract number.
func (m *Market) contractOf(o api.OSI, date api.Date) (*book, int, bool) {
	sec, ok := m.u.ByRoot(o.Root)
	if !ok {
		return nil, 0, false
	}
	b, ok := m.book(sec, date)
	if !ok {
		return nil, 0, false
	}
	ci, ok := b.find(o)
	return b, ci, ok
}
