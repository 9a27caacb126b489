package sim

import (
	"math"
	"runtime"
	"sort"
	"sync/atomic"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox/par"
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
	return m.ChainExpiries(symbol, at, Expiries{})
}

// Expiries narrows a chain to the expiries from First to Last, both
// inclusive; a zero bound is open.
type Expiries struct{ First, Last api.Date }

func (x Expiries) all() bool { return x.First == 0 && x.Last == 0 }

func (x Expiries) keep(d api.Date) bool {
	return (x.First == 0 || d >= x.First) && (x.Last == 0 || d <= x.Last)
}

// ChainExpiries is Chain narrowed to some expiries: exactly the contracts
// of the whole chain whose expiry is in x, in its order, with the same
// values. Only those series are priced, so a poll of one expiry of SPX
// builds a few hundred contracts, not the 20,000 of the whole chain; and
// when the whole chain of the tick is cached, they are taken from it.
func (m *Market) ChainExpiries(symbol string, at Moment, x Expiries) (*Chain, bool) {
	sec, ok := m.u.Lookup(symbol)
	if !ok || !sec.Optionable {
		return nil, false
	}
	tick := tickOf(at.Date, at.Time)
	key := chainKey{tickKey{symbol, at.Date, tick}, x}
	c, ok := m.chains.get(key, func() (*Chain, bool) {
		if !x.all() {
			if whole, ok := m.chains.peek(chainKey{tick: key.tick}); ok {
				return whole.narrow(x), true
			}
		}
		b, ok := m.book(sec, at.Date)
		if !ok {
			return nil, false
		}
		return m.buildChain(b, tick, x)
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

// chainKey names a chain in the cache: a tick, and its expiries.
type chainKey struct {
	tick tickKey
	x    Expiries
}

// narrow copies the contracts of c whose expiry is in x.
func (c *Chain) narrow(x Expiries) *Chain {
	out := &Chain{Underlying: c.Underlying, Indicator: c.Indicator}
	n := 0
	for i := range c.Options {
		if x.keep(c.Options[i].Expiry) {
			n++
		}
	}
	out.Options = make([]api.OptionData, 0, n)
	for i := range c.Options {
		if x.keep(c.Options[i].Expiry) {
			out.Options = append(out.Options, c.Options[i])
		}
	}
	return out
}

// agg is one contract's trading so far today, prices in dollars.
type agg struct {
	volume, count         int64
	open, high, low, last float64
}

// buildChain prices every contract of b alive at tick in the expiries x and
// adds the day's aggregates, open interest and previous closes.
//
// A symbol's first chain of a day draws the day's trades through the tick
// and adds up those of the expiries x (the aggregates, chainaggs.go;
// seq_no counts them all), draws the whole last session (open interest grows with its
// volume), prices the last session's closes of the expiries x, and
// quotes the tick's contracts with their iv and greeks. The four are
// independent and made side by side, the longest first: the draw of the
// trades is one core's work, so the others fill the chain's quotes
// meanwhile, and what is left of them once the trades are priced is made
// on every core. Later chains find them cached.
func (m *Market) buildChain(b *book, tick api.TimeOfDay, x Expiries) (*Chain, bool) {
	var (
		us       *underState
		td       *tradeDay
		okU, okT bool
		oi       []int64
		prev     []float64
	)
	// Lay out the live series of the expiries: each has its rows at off in
	// the chain, its contracts from base in the book.
	type job struct{ s, off int }
	var jobs []job
	n := 0
	for i := range b.series {
		if s := &b.series[i]; s.alive(tick) && x.keep(s.Expiry) {
			jobs = append(jobs, job{i, n})
			n += 2 * len(s.Strikes)
		}
	}
	// The aggregates of the chain's rows: a trade counts in the row of its
	// contract, found among the jobs (in contract order) by its number.
	// Only the trades of the expiries x are read (chainaggs.go).
	aggs := make([]agg, n)
	row := func(ci int) int {
		j := sort.Search(len(jobs), func(j int) bool { return b.series[jobs[j].s].base > ci }) - 1
		if j < 0 {
			return -1
		}
		s := &b.series[jobs[j].s]
		if ci >= s.base+2*len(s.Strikes) {
			return -1
		}
		return jobs[j].off + ci - s.base
	}
	optStamp := tick
	if tick < market.SessionOpen {
		optStamp = market.SessionClose(market.PrevTradingDay(b.date))
	}
	ctx := b.at(tick)
	fill := chainFill{c: &ctx, stamp: optStamp, closed: tick >= market.SessionClose(b.date)}
	options := make([]api.OptionData, n)
	// quote fills the quotes of the series not yet taken, one at a time,
	// until none is left or stop says the trades are priced.
	var next atomic.Int64
	var priced atomic.Bool
	quote := func(stop *atomic.Bool) {
		for stop == nil || !stop.Load() {
			i := int(next.Add(1) - 1)
			if i >= len(jobs) {
				return
			}
			j := jobs[i]
			fill.quotes(&b.series[j.s], options[j.off:j.off+2*len(b.series[j.s].Strikes)])
		}
	}
	st := m.state(b)
	par.Each(4, func(i int) {
		switch i {
		case 0:
			defer priced.Store(true)
			if us, okU = m.under(b.sec, b.date, tick); okU {
				if td, okT = m.tradeDayThrough(b, tick); okT {
					td.chainAggs(td.sk.count(tick), x, row, aggs)
				}
			}
		case 1:
			oi, _ = st.openInterest(m)
		case 2:
			prev = st.prevClose(x)
		default:
			quote(&priced)
		}
	})
	if !okU || !okT {
		return nil, false
	}
	par.Each(runtime.GOMAXPROCS(0), func(int) { quote(nil) })

	for _, j := range jobs {
		rows := 2 * len(b.series[j.s].Strikes)
		fill.day(&b.series[j.s], options[j.off:j.off+rows], aggs[j.off:j.off+rows], oi, prev)
	}
	return &Chain{Underlying: us.u, Indicator: us.ind, Options: options}, true
}

// chainFill prices the contracts of one chain.
type chainFill struct {
	c      *tickCtx
	stamp  api.TimeOfDay
	closed bool
}

// quotes fills what the tick says of one series' rows: quote, iv from the
// mid and greeks at that iv (null when the mid does not invert).
func (f *chainFill) quotes(s *series, rows []api.OptionData) {
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
			}
			if iv, g, ok := f.c.quoteIV(&e, K, put, &q); ok {
				o.IV = api.Some(round(iv, 8))
				o.Delta = api.Some(round(g.Delta, 6))
				o.Gamma = api.Some(round(g.Gamma, 8))
				o.Vega = api.Some(round(g.Vega, 6))
				// Theta per calendar day, never more than the option's
				// time value: the last day of a 0.01 option loses 0.01,
				// not 29.
				o.Theta = api.Some(round(capTheta(g.Theta, mid, intrinsicOf(f.c.params(&e, K, put)), b.american), 6))
				o.Rho = api.Some(round(g.Rho, 6))
			}
			rows[2*k+side] = o
		}
	}
}

// day fills what the day says of one series' rows: open interest, the
// previous close and the aggregates of the day's trades (aggs, by row),
// once quotes has filled them.
func (f *chainFill) day(s *series, rows []api.OptionData, aggs []agg, oi []int64, prev []float64) {
	for r := range rows {
		o, ci := &rows[r], s.base+r
		o.OpenInterest = api.Some(oi[ci])
		if p := prev[ci]; !math.IsNaN(p) {
			o.PrevDayClose = api.Some(p)
		}
		a := &aggs[r]
		o.Volume, o.TradeCount = api.Some(a.volume), api.Some(a.count)
		if a.count > 0 {
			o.Open, o.High, o.Low = api.Some(a.open), api.Some(a.high), api.Some(a.low)
			o.LastTradePrice = api.Some(a.last)
			if f.closed {
				o.Close = api.Some(a.last)
			}
		}
	}
}
