package feed

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
)

// fakeClock is a clock the test advances; timers fire in order of their
// time, on the test's goroutine.
type fakeClock struct {
	// fired runs after each timer (the rig answers what it asked).
	fired  func()
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (t *fakeTimer) Stop() bool { t.stopped = true; return true }

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// advance moves the clock by d, firing every timer due on the way.
func (c *fakeClock) advance(d time.Duration) {
	end := c.Now().Add(d)
	for range 1000 {
		c.mu.Lock()
		var next *fakeTimer
		for _, t := range c.timers {
			if !t.stopped && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.stopped = true
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
		if c.fired != nil {
			c.fired()
		}
	}
	panic("fakeClock: more than 1000 timers in one advance")
}

// call is one request the fake fetcher was asked.
type call struct {
	Feed   Feed
	Symbol string
	Expiry api.Date
	From   int64
	Syms   []string
}

// fakeSource answers every request at once from its fields, and records it.
type fakeSource struct {
	mu     sync.Mutex
	clock  *fakeClock
	calls  []call
	chain  func(q Query, expiry api.Date) ChainMsg // nil: a chain with one option
	tape   func(from int64) TapeMsg                // nil: an empty page
	cost   int
	errFor map[Feed]error
}

func (s *fakeSource) record(c call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
}

func (s *fakeSource) resp() *api.Response {
	return &api.Response{StatusCode: 200, Cost: s.cost, PointsLeft: api.Some(int64(1_000_000)), PointsUsed: api.Some(int64(3_000_000))}
}

func (s *fakeSource) Chain(_ context.Context, q Query, expiry api.Date) ChainMsg {
	s.record(call{Feed: FeedChain, Symbol: q.Symbol, Expiry: expiry})
	if s.chain != nil {
		r := s.chain(q, expiry)
		r.At = s.clock.Now()
		return r
	}
	ch := &api.SymbolWithOptions{Options: []api.OptionData{{}}}
	return ChainMsg{Query: q, Expiry: expiry, Chain: ch, Resp: s.resp(), Err: s.errFor[FeedChain], At: s.clock.Now()}
}

func (s *fakeSource) Tape(_ context.Context, q Query, day api.Date, from int64) TapeMsg {
	s.record(call{Feed: FeedTape, Symbol: q.Symbol, From: from})
	r := TapeMsg{Query: q, From: from, Resp: s.resp(), At: s.clock.Now()}
	if s.tape != nil {
		t := s.tape(from)
		r.Trades, r.Err = t.Trades, t.Err
	}
	return r
}

func (s *fakeSource) Calendar(_ context.Context, q Query) CalendarMsg {
	s.record(call{Feed: FeedCalendar, Symbol: q.Symbol})
	return CalendarMsg{Query: q, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) ContractQuote(_ context.Context, q ContractQuery) ContractQuoteMsg {
	s.record(call{Feed: FeedContractQuote, Symbol: q.OSI.String()})
	return ContractQuoteMsg{Query: q, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) ContractTrades(_ context.Context, q ContractQuery, from int64, _ api.TimeOfDay) ContractTradesMsg {
	s.record(call{Feed: FeedContractTrades, Symbol: q.OSI.String(), From: from})
	return ContractTradesMsg{Query: q, From: from, Resp: s.resp(), Err: s.errFor[FeedContractTrades], At: s.clock.Now()}
}

func (s *fakeSource) ContractTAQ(_ context.Context, q ContractQuery, from int64, _ api.TimeOfDay) ContractTAQMsg {
	s.record(call{Feed: FeedContractTAQ, Symbol: q.OSI.String(), From: from})
	return ContractTAQMsg{Query: q, From: from, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) TapeGreeks(_ context.Context, q Query, osi api.OSI, _ api.Date, from int64, _ api.TimeOfDay) TapeGreeksMsg {
	s.record(call{Feed: FeedTapeGreeks, Symbol: osi.String(), From: from})
	return TapeGreeksMsg{Query: q, OSI: osi.String(), From: from, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) Quotes(_ context.Context, q Query, symbols []string) QuotesMsg {
	s.record(call{Feed: FeedQuotes, Syms: slices.Clone(symbols)})
	return QuotesMsg{Query: q, Symbols: symbols, Resp: s.resp(), At: s.clock.Now()}
}

func (s *fakeSource) Events(_ context.Context, q Query, symbols []string) EventsMsg {
	s.record(call{Feed: FeedEvents, Syms: slices.Clone(symbols)})
	return EventsMsg{Query: q, Symbols: symbols, Resp: s.resp(), At: s.clock.Now()}
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
	clock *fakeClock
	src   *fakeSource
	m     *Monitor
	queue []func()
	mu    sync.Mutex
}

// openMarket is a Tuesday mid-session, Eastern.
var openMarket = time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern)

func newRig(t *testing.T, at time.Time) *rig {
	t.Helper()
	r := &rig{t: t, clock: &fakeClock{now: at}}
	r.src = &fakeSource{clock: r.clock, cost: 4}
	r.m = NewMonitor(MonitorOptions{Fetcher: r.src, Clock: r.clock, Budget: Budget{PerDay: 100_000},
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
			f()
		}
	}
	r.t.Fatal("more than 100 rounds of fetches")
}

// step advances the clock by d, answering each request as it is asked.
func (r *rig) step(d time.Duration) {
	r.run()
	r.clock.fired = r.run
	defer func() { r.clock.fired = nil }()
	r.clock.advance(d)
}

// feeds is the feeds of calls, in order.
func feedsOf(calls []call) []Feed {
	out := make([]Feed, len(calls))
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

func spy(gen uint64) Query { return Query{Symbol: "SPY", Mode: api.Live, Gen: gen} }
