package sim

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"chainwatch/api"
	nyse "chainwatch/market"
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
// day's of every expiry, and of an American name not even those: only
// the ones that can be a contract's open, high, low or last
// (chainaggs.go).
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
