package sim

import (
	"fmt"
	"math"
	"sort"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/scan"
)

// underQuote is the underlying's quote at tick, in cents: a penny wide for
// names that trade millions of shares a day, a few cents for thinner ones,
// and about a basis point for an index (whose "quote" is a calculation).
type underQuote struct {
	bid, ask, bidSz, askSz int64
}

// mid is the quote's midpoint in dollars: the underlying_mid a chain
// publishes, and the spot every option of the tick is priced from.
func (q underQuote) mid() float64 { return float64(q.bid+q.ask) / 200 }

func quoteUnderlying(sec *market.Security, day *market.Day, tick api.TimeOfDay) underQuote {
	p := day.Price(tick) * 100
	var w int64 = 1
	switch {
	case sec.Kind == market.Index:
		w = max(int64(math.Round(p*1e-4)), 1)
	case sec.AvgVolume < 1_000_000:
		w = 3
	case sec.AvgVolume < 5_000_000:
		w = 2
	}
	bid := int64(math.Floor(p - float64(w)/2 + 0.5))
	h := mix(seed(sec.Symbol, day.Date, "uq") ^ uint64(tick))
	return underQuote{bid: bid, ask: bid + w,
		bidSz: 100 * (1 + int64(h%20)), askSz: 100 * (1 + int64(h>>32%20))}
}

// underState is an underlying's state at one tick, shared by the chain,
// underlying-quotes and the scanner: every field filled (the HTTP layer nulls
// what a client is not entitled to, and Chain and Symbol null the implied
// fields of historical moments).
type underState struct {
	u    api.Underlying
	ind  api.Null[api.Indicator]
	iv30 api.Float // fraction, full precision, for the scanner
}

// under returns the state of sec at tick of date.
func (m *Market) under(sec *market.Security, date api.Date, tick api.TimeOfDay) (*underState, bool) {
	return m.unders.get(tickKey{sec.Symbol, date, tick}, func() (*underState, bool) {
		var day *market.Day
		b, optionable := m.book(sec, date)
		if optionable {
			day = b.day
		} else if d, ok := m.u.Day(sec, date); ok {
			day = d
		} else {
			return nil, false
		}
		st := &underState{u: underlyingFields(sec, day, tick)}
		if !optionable {
			return st, true
		}
		m.optionFields(st, b, tick, scan.AllParts)
		if sk, ok := m.skeletonThrough(b, tick); ok {
			st.u.SeqNo = api.Some(int64(sk.count(tick)))
		}
		return st, true
	})
}

// optionFields fills in st what b's options say at tick: iv30 for
// scan.PartIV30, its change from the previous close for
// scan.PartIVChange (the previous day's listing), and the implied
// underlying for scan.PartImplied. under asks for all of them; the
// scanner only for what its formulas name, since each costs a listing or
// quotes for every symbol.
func (m *Market) optionFields(st *underState, b *book, tick api.TimeOfDay, need scan.Parts) {
	c := b.at(tick)
	if need&(scan.PartIV30|scan.PartIVChange) != 0 {
		if iv, ok := c.iv30(); ok {
			st.iv30 = api.Some(iv)
			pp := round(100*iv, 2)
			st.u.IV30 = api.Some(pp)
			if need&scan.PartIVChange != 0 {
				m.ivChange(st, b, pp)
			}
		}
	}
	if need&scan.PartImplied == 0 {
		return
	}
	if im := c.impliedUnderlying(); im.ok {
		st.u.ImpliedUnderlyingBid = api.Some(im.bid)
		st.u.ImpliedUnderlyingAsk = api.Some(im.ask)
		st.u.ImpliedUnderlyingBidSize = api.Some(im.bidSz)
		st.u.ImpliedUnderlyingAskSize = api.Some(im.askSz)
		st.u.ImpliedUnderlyingMid = api.Some(im.mid)
		st.ind = api.Some(im.indicator)
	}
}

// ivChange sets iv30's change from the previous close, pp being iv30 now
// in percentage points, so that the change is the difference of two
// published values.
func (m *Market) ivChange(st *underState, b *book, pp float64) {
	if prev, ok := m.state(b).prevIV30().Get(); ok && prev > 0 {
		st.u.IV30Change = api.Some(round(pp-prev, 2))
		st.u.IV30ChangePercent = api.Some(round(100*(pp-prev)/prev, 2))
	}
}

// underlyingFields are the quote fields of the underlying at tick. Before
// the open nothing has traded yet: open, high, low and last are the previous
// close and the volume 0. The close is there only once the session is over.
func underlyingFields(sec *market.Security, day *market.Day, tick api.TimeOfDay) api.Underlying {
	q := quoteUnderlying(sec, day, tick)
	u := api.Underlying{
		Symbol:         sec.Symbol,
		Timestamp:      tick,
		Bid:            api.Some(dollars(q.bid)),
		Ask:            api.Some(dollars(q.ask)),
		BidSize:        api.Some(q.bidSz),
		AskSize:        api.Some(q.askSz),
		Mid:            api.Some(q.mid()),
		LastTradePrice: api.Some(round(day.Price(tick), 2)),
		LastTradeSize:  api.Some(day.LastSize(tick)),
		PrevDayClose:   api.Some(round(day.PrevClose, 2)),
		Volume:         api.Some(day.Volume(tick)),
	}
	if tick < nyse.SessionOpen {
		pc := api.Some(round(day.PrevClose, 2))
		u.Open, u.High, u.Low, u.LastTradePrice = pc, pc, pc, pc
		u.LastTradeSize, u.Volume = api.Some[int64](0), api.Some[int64](0)
	} else {
		hi, lo := day.HighLow(tick)
		u.Open = api.Some(round(day.Open, 2))
		u.High, u.Low = api.Some(round(hi, 2)), api.Some(round(lo, 2))
	}
	if tick >= nyse.SessionClose(day.Date) {
		u.Close = api.Some(round(day.Close, 2))
	}
	return u
}

// stamp is the timestamp a moment's answer carries: the moment itself, or
// the close once the session is over. (The state shown is that of the
// moment's second, or of the last close before the open.)
func stamp(at Moment) api.TimeOfDay {
	return min(at.Time, nyse.SessionClose(at.Date))
}

// Symbol is the underlying-quotes element of symbol at a moment: the
// chain's underlying fields and the implied indicator, without pricing the
// chain (the same quotes of the same few contracts give the same values).
// Symbols without options have no IV30, implied underlying or seq_no
// beyond 0. False: unknown symbol or no data that day.
func (m *Market) Symbol(symbol string, at Moment) (api.Symbol, bool) {
	sec, ok := m.u.Lookup(symbol)
	if !ok {
		return api.Symbol{}, false
	}
	tick := tickOf(at.Date, at.Time)
	st, ok := m.under(sec, at.Date, tick)
	if !ok {
		return api.Symbol{}, false
	}
	s := api.Symbol{Underlying: st.u, ImpliedUnderlyingIndicator: st.ind}
	if !s.SeqNo.Valid {
		s.SeqNo = api.Some[int64](0)
	}
	s.Timestamp = stamp(at)
	if at.Historical {
		nullImplied(&s.Underlying)
		s.ImpliedUnderlyingIndicator = api.Null[api.Indicator]{}
	}
	return s, true
}

// nullImplied clears the implied-underlying fields, which the service
// leaves null for historical dates.
func nullImplied(u *api.Underlying) {
	u.ImpliedUnderlyingBid, u.ImpliedUnderlyingAsk = api.Float{}, api.Float{}
	u.ImpliedUnderlyingBidSize, u.ImpliedUnderlyingAskSize = api.Int{}, api.Int{}
	u.ImpliedUnderlyingMid = api.Float{}
}

// count is the number of the day's trades (cancels included) at or before t,
// which is also the seq_no of the last of them. A day drawn only through
// an earlier time cannot tell: reading it there is a bug, not a count.
func (sk *skeleton) count(t api.TimeOfDay) int {
	if t > sk.until && !sk.whole {
		panic(fmt.Sprintf("sim: trades drawn through %v counted at %v", sk.until, t))
	}
	return sort.Search(len(sk.trades), func(i int) bool { return sk.trades[i].t > t })
}
