package sim

import "chainwatch/api"

// tradeDay is one symbol's option trades of one day, priced: the records
// option-trades returns (sorted, seq_no = index + 1) and, beside them, the
// skeleton with each record's contract number.
type tradeDay struct {
	b      *book
	sk     *skeleton
	trades []api.OptionTrade
}

// tradeDay returns b's day of trades, priced once.
func (m *Market) tradeDay(b *book) (*tradeDay, bool) {
	return m.trades.get(dayKey{b.sec.Symbol, b.date}, func() (*tradeDay, bool) {
		sk, ok := m.skeleton(b)
		if !ok {
			return nil, false
		}
		return priceTrades(b, sk), true
	})
}

// OptionTrades returns the day's option trades of an underlying up to
// at.Time inclusive, in seq_no order, cancels and cancel messages included.
// The slice is shared by every caller: read it, never modify it. False:
// unknown or not optionable symbol, or no data that day.
func (m *Market) OptionTrades(underlying string, at Moment) ([]api.OptionTrade, bool) {
	sec, ok := m.u.Lookup(underlying)
	if !ok {
		return nil, false
	}
	b, ok := m.book(sec, at.Date)
	if !ok {
		return nil, false
	}
	td, ok := m.tradeDay(b)
	if !ok {
		return nil, false
	}
	n := td.upTo(at.Time)
	return td.trades[:n:n], true
}

// upTo is the number of trades with a timestamp at or before t.
func (td *tradeDay) upTo(t api.TimeOfDay) int {
	return td.sk.count(t)
}

// priceTrades prices every skeleton trade against the NBBO of its second,
// computed exactly as the chain computes that second's quote.
func priceTrades(b *book, sk *skeleton) *tradeDay {
	td := &tradeDay{b: b, sk: sk, trades: make([]api.OptionTrade, len(sk.trades))}
	exSeq := sk.exchangeSeqs(b.sec.Symbol, b.date)
	var c tickCtx
	var uq underQuote
	have := false
	for i := range sk.trades {
		st := &sk.trades[i]
		sec := st.t - st.t%1000
		if !have || c.tick != sec {
			c, uq, have = b.at(sec), quoteUnderlying(b.sec, b.day, sec), true
		}
		q, s, _, k, put := c.contractQuote(int(st.ci))
		pq := q
		if st.pt != st.t { // a cancel message repeats the canceled print's price
			pc := b.at(st.pt - st.pt%1000)
			pq, _, _, _, _ = pc.contractQuote(int(st.ci))
		}
		price, bid, ask := printPrice(st, pq, b.penny)
		if st.pt != st.t { // ... against the NBBO of its own moment
			bid, ask = q.bid, q.ask
		}
		td.trades[i] = api.OptionTrade{
			Security:      api.Some(b.name(int(st.ci))),
			Root:          s.Root,
			Expiry:        s.Expiry,
			Strike:        s.Strikes[k],
			OptionType:    optionType(put),
			Ask:           api.Some(dollars(ask)),
			AskSize:       api.Some(q.askSz),
			Bid:           api.Some(dollars(bid)),
			BidSize:       api.Some(q.bidSz),
			Price:         api.Some(dollars(price)),
			Size:          int64(st.size),
			TradeAt:       classify(price, bid, ask),
			UnderlyingBid: api.Some(dollars(uq.bid)),
			UnderlyingAsk: api.Some(dollars(uq.ask)),
			ConditionID:   st.cond,
			ExchangeID:    st.exch,
			ExchangeSeqNo: exSeq[i],
			CancelFlag:    api.CancelFlag(st.flag),
			Timestamp:     st.t,
			SeqNo:         int64(i + 1),
		}
	}
	return td
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
