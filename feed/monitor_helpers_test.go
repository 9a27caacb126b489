package feed_test

import (
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
)

// call is one request the fake fetcher was asked.
type call struct {
	Feed   feed.Feed
	Symbol string
	Expiry api.Date
	From   int64
	Syms   []string
}

// fakeSource answers every request at once from its fields, and records it.
type fakeSource struct {
	mu     sync.Mutex
	clock  *feedtest.Clock
	calls  []call
	chain  func(q feed.Query, expiry api.Date) feed.ChainMsg // nil: a chain with one option
	tape   func(from int64) feed.TapeMsg                     // nil: an empty page
	cost   int
	errFor map[feed.Feed]error
}

func (s *fakeSource) record(c call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
}

func (s *fakeSource) resp() *api.Response {
	return &api.Response{StatusCode: 200, Cost: s.cost, PointsLeft: api.Some(int64(1_000_000)), PointsUsed: api.Some(int64(3_000_000))}
}

func (s *fakeSource) Chain(_ context.Context, q feed.Query, expiry api.Date) feed.ChainMsg {
	s.record(call{Feed: feed.FeedChain, Symbol: q.Symbol, Expiry: expiry})
	if s.chain != nil {
		r := s.chain(q, expiry)
		r.At = s.clock.Now()
		return r
	}
	ch := &api.SymbolWithOptions{Options: []api.OptionData{{}}}
	return feed.ChainMsg{Query: q, Expiry: expiry, Chain: ch, Resp: s.resp(), Err: s.errFor[feed.FeedChain], At: s.clock.Now()}
}

func (s *fakeSource) Term(ctx context.Context, q feed.Query) feed.TermMsg {
	s.record(call{Feed: feed.FeedTerm, Symbol: q.Symbol})
	return feed.TermMsg{ChainMsg: feed.ChainMsg{Query: q, Chain: &api.SymbolWithOptions{}, Resp: s.resp(), At: s.clock.Now()}}
}

func (s *fakeSource) Tape(_ context.Context, q feed.Query, day api.Date, from int64) feed.TapeMsg {
	s.record(call{Feed: feed.FeedTape, Symbol: q.Symbol, From: from})
	r := feed.TapeMsg{Query: q, From: from, Resp: s.resp(), At: s.clock.Now()}
	if s.tape != nil {
		t := s.tape(from)
		r.Trades, r.Err = t.Trades, t.Err
	}
	return r
}

func (s *fakeSource) Calendar(_ context.Context, q feed.Query) feed.CalendarMsg {
	s.record(call{Feed: feed.FeedCalendar, Symbol: q.Symbol})
	return feed.CalendarMsg{Query: q, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) ContractQuote(_ context.Context, q feed.ContractQuery) feed.ContractQuoteMsg {
	s.record(call{Feed: feed.FeedContractQuote, Symbol: q.OSI.String()})
	return feed.ContractQuoteMsg{Query: q, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) ContractTrades(_ context.Context, q feed.ContractQuery, from int64, _ api.TimeOfDay) feed.ContractTradesMsg {
	s.record(call{Feed: feed.FeedContractTrades, Symbol: q.OSI.String(), From: from})
	return feed.ContractTradesMsg{Query: q, From: from, Resp: s.resp(), Err: s.errFor[feed.FeedContractTrades], At: s.clock.Now()}
}

func (s *fakeSource) ContractTAQ(_ context.Context, q feed.ContractQuery, from int64, _ api.TimeOfDay) feed.ContractTAQMsg {
	s.record(call{Feed: feed.FeedContractTAQ, Symbol: q.OSI.String(), From: from})
	return feed.ContractTAQMsg{Query: q, From: from, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) TapeGreeks(_ context.Context, q feed.Query, osi api.OSI, _ api.Date, from int64, _ api.TimeOfDay) feed.TapeGreeksMsg {
	s.record(call{Feed: feed.FeedTapeGreeks, Symbol: osi.String(), From: from})
	return feed.TapeGreeksMsg{Query: q, OSI: osi.String(), From: from, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) Quotes(_ context.Context, q feed.Query, symbols []string) feed.QuotesMsg {
	s.record(call{Feed: feed.FeedQuotes, Syms: slices.Clone(symbols)})
	return feed.QuotesMsg{Query: q, Symbols: symbols, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) Events(_ context.Context, q feed.Query, symbols []string) feed.EventsMsg {
	s.record(call{Feed: feed.FeedEvents, Syms: slices.Clone(symbols)})
	return feed.EventsMsg{Query: q, Symbols: symbols, Resp: s.resp(), At: s.clock.Now()}
}

// taken returns the calls made since the last taken.
func (s *fakeSource) taken() []call {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calls
	s.calls = nil
	return c
}

// rig is a monitor on a fake clock and source whose fetches run only when
// the test says (run), so each step is the test's to see.
type rig struct {
	t     *testing.T
	clock *feedtest.Clock
	src   *fakeSource
	m     *feed.Monitor
	queue []func()
	mu    sync.Mutex
	guard func(func()) // runs each fetch; nil: as it is
}

// openMarket is a Tuesday mid-session, Eastern.
var openMarket = time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern)

func newRig(t *testing.T, at time.Time) *rig {
	t.Helper()
	r := &rig{t: t, clock: feedtest.NewClock(at)}
	r.src = &fakeSource{clock: r.clock, cost: 4}
	r.m = feed.NewMonitor(feed.MonitorOptions{Fetcher: r.src, Clock: r.clock, Budget: feed.Budget{PerDay: 100_000},
		Spawn: func(f func()) { r.mu.Lock(); r.queue = append(r.queue, f); r.mu.Unlock() }})
	t.Cleanup(r.m.Close)
	return r
}

// run answers every request made so far (and those their replies make).
func (r *rig) run() {
	for range 100 {
		r.mu.Lock()
		q := r.queue
		r.queue = nil
		r.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, f := range q {
			if r.guard != nil {
				r.guard(f)
			} else {
				f()
			}
		}
	}
	r.t.Fatal("more than 100 rounds of fetches")
}

// step advances the clock by d, answering each request as it is asked.
func (r *rig) step(d time.Duration) {
	r.run()
	r.clock.Fired = r.run
	defer func() { r.clock.Fired = nil }()
	r.clock.Advance(d)
}

// feeds is the feeds of calls, in order.
func feedsOf(calls []call) []feed.Feed {
	out := make([]feed.Feed, len(calls))
	for i, c := range calls {
		out[i] = c.Feed
	}
	return out
}

// replies are the messages of type T in msgs.
func replies[T any](msgs []any) []T {
	var out []T
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

func spy(gen uint64) feed.Query { return feed.Query{Symbol: "SPY", Mode: api.Live, Gen: gen} }
