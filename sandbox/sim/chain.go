package sim

import (
	"math"

	"chainwatch/api"
)

// Chain is the option-and-underlying-quotes snapshot of one underlying at a
// moment.
type Chain struct {
	// Underlying has every field filled (no entitlement nulling); the
	// implied_* fields are null for a historical moment.
	Underlying api.Underlying
	Indicator  api.Null[api.Indicator]
	// Options is the full chain sorted by root, expiry, strike, the call
	// before the put. It is shared by every request of the tick: read it,
	// never modify it.
	Options []api.OptionData
}

// Chain returns the chain of symbol at a moment, computed once per tick.
// False: unknown symbol, not optionable, or no data that day.
//
// Quotes, iv and greeks are those of the tick (the moment's second, clamped
// to the session); the day aggregates (volume, trade count, open, high,
// low, last) count the trades up to the tick, and seq_no is the last of
// them, so a chain and option-trades at a whole second agree exactly.
func (m *Market) Chain(symbol string, at Moment) (*Chain, bool) {
	sec, ok := m.u.Lookup(symbol)
	if !ok || !sec.Optionable {
		return nil, false
	}
	tick := tickOf(at.Date, at.Time)
	c, ok := m.chains.get(tickKey{symbol, at.Date, tick}, func() (*Chain, bool) {
		b, ok := m.book(sec, at.Date)
		if !ok {
			return nil, false
		}
		return m.buildChain(b, tick)
	})
	if !ok {
		return nil, false
	}
	out := *c
	out.Underlying.Timestamp = stamp(at)
	if at.Historical {
		nullImplied(&out.Underlying)
		out.Indicator = api.Null[api.Indicator]{}
	}
	return &out, true
}

// agg is one contract's trading so far today, prices in dollars.
type agg struct {
	volume, count         int64
	open, high, low, last float64
}

// buildChain prices every contract of b alive at tick and adds the day's
// aggregates, open interest and previous closes.
func (m *Market) buildChain(b *book, tick api.TimeOfDay) (*Chain, bool) {
	us, ok := m.under(b.sec, b.date, tick)
	if !ok {
		return nil, false
	}
	td, ok := m.tradeDay(b)
	if !ok {
		return nil, false
	}
	st := m.state(b)
	oi, _ := st.openInterest(m)
	prev := st.prevClose()

	aggs := make([]agg, b.n)
	for i := range td.upTo(tick) {
		t := &td.sk.trades[i]
		if api.CancelFlag(t.flag) != api.TradeNormal {
			continue
		}
		a, p := &aggs[t.ci], dollars(int64(td.px[i].price))
		if a.count == 0 {
			a.open, a.high, a.low = p, p, p
		}
		a.volume += int64(t.size)
		a.count++
		a.high, a.low, a.last = math.Max(a.high, p), math.Min(a.low, p), p
	}

	// Lay out the live series, then price them in parallel: each worker
	// fills its own range of the shared slice.
	type job struct{ s, off int }
	var jobs []job
	n := 0
	for i := range b.series {
		if b.series[i].alive(tick) {
			jobs = append(jobs, job{i, n})
			n += 2 * len(b.series[i].Strikes)
		}
	}
	ch := &Chain{Underlying: us.u, Indicator: us.ind, Options: make([]api.OptionData, n)}
	optStamp := tick
	if tick < api.SessionOpen {
		optStamp = api.SessionClose(api.PrevTradingDay(b.date))
	}
	ctx := b.at(tick)
	fill := chainFill{c: &ctx, aggs: aggs, oi: oi, prev: prev, stamp: optStamp,
		closed: tick >= api.SessionClose(b.date)}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		fill.series(&b.series[j.s], ch.Options[j.off:j.off+2*len(b.series[j.s].Strikes)])
	})
	return ch, true
}

// chainFill prices the contracts of one chain.
type chainFill struct {
	c      *tickCtx
	aggs   []agg
	oi     []int64
	prev   []float64
	stamp  api.TimeOfDay
	closed bool
}

// series fills the rows of one series: quote, iv from the mid and greeks
// at that iv (null when the mid does not invert), and the day's aggregates.
func (f *chainFill) series(s *series, rows []api.OptionData) {
	b := f.c.b
	e := f.c.expiry(s)
	for k, K := range s.Strikes {
		for side := range 2 {
			put := side == 1
			ci := s.base + 2*k + side
			q := f.c.quote(s, &e, k, put)
			mid := q.mid()
			o := api.OptionData{
				Root: s.Root, Expiry: s.Expiry, Strike: K, OptionType: optionType(put),
				Timestamp: f.stamp, Option: b.name(ci),
				Mid: api.Some(mid), Bid: api.Some(dollars(q.bid)), Ask: api.Some(dollars(q.ask)),
				BidSize: api.Some(q.bidSz), AskSize: api.Some(q.askSz),
				OpenInterest: api.Some(f.oi[ci]),
			}
			if iv, g, ok := f.c.quoteIV(&e, K, put, &q); ok {
				o.IV = api.Some(round(iv, 8))
				o.Delta = api.Some(round(g.Delta, 6))
				o.Gamma = api.Some(round(g.Gamma, 8))
				o.Vega = api.Some(round(g.Vega, 6))
				// Theta per calendar day, never more than the option is
				// worth: the last day of a 0.01 option loses 0.01, not 29.
				o.Theta = api.Some(round(math.Max(g.Theta, -mid), 6))
				o.Rho = api.Some(round(g.Rho, 6))
			}
			if p := f.prev[ci]; !math.IsNaN(p) {
				o.PrevDayClose = api.Some(p)
			}
			a := &f.aggs[ci]
			o.Volume, o.TradeCount = api.Some(a.volume), api.Some(a.count)
			if a.count > 0 {
				o.Open, o.High, o.Low = api.Some(a.open), api.Some(a.high), api.Some(a.low)
				o.LastTradePrice = api.Some(a.last)
				if f.closed {
					o.Close = api.Some(a.last)
				}
			}
			rows[2*k+side] = o
		}
	}
}
