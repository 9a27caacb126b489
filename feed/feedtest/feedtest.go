// Package feedtest drives a feed.Monitor in tests: a clock the test moves
// (its timers fire as it passes them) and a source whose requests wait for
// the test to answer them. No sleeps: every wait is for something the
// test itself sets off, and bounded.
package feedtest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
)

// Clock is a clock the test moves; timers fire in order of their time, on
// the test's goroutine, as Advance passes them.
type Clock struct {
	// Fired, when set, runs after each timer fires (a test answers what
	// the timer asked before the clock moves on).
	Fired  func()
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	read   func() time.Time // ClockOf's: the test's own clock
}

type timer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (t *timer) Stop() bool { t.stopped = true; return true }

// NewClock is a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// ClockOf is a clock that reads the test's own (now), whose timers fire
// only when Advance passes them: a monitor under a model whose test moves
// time by hand and fires nothing.
func ClockOf(now func() time.Time) *Clock { return &Clock{read: now} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	if c.read != nil {
		return c.read()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t without firing anything (a test's jump).
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// AfterFunc calls f when Advance passes d from now.
func (c *Clock) AfterFunc(d time.Duration, f func()) feed.Stopper {
	at := c.Now().Add(d)
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: at, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Advance moves the clock by d, firing every timer due on the way, each at
// its own time.
func (c *Clock) Advance(d time.Duration) {
	end := c.Now().Add(d)
	for range 10_000 {
		c.mu.Lock()
		var next *timer
		for _, t := range c.timers {
			if !t.stopped && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			if c.read == nil {
				c.now = end
			}
			c.timers = slices.DeleteFunc(c.timers, func(t *timer) bool { return t.stopped })
			c.mu.Unlock()
			return
		}
		next.stopped = true
		if next.at.After(c.now) && c.read == nil {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
		if c.Fired != nil {
			c.Fired()
		}
	}
	panic("feedtest: more than 10,000 timers in one Advance")
}

// Request is one fetch the monitor made, waiting for its answer.
type Request struct {
	Feed    feed.Feed
	Query   feed.Query
	Expiry  api.Date // FeedChain: 0 is the whole chain
	From    int64    // tape, contract trades and quotes, tape greeks
	Day     api.Date // tape: the session asked for
	OSI     api.OSI  // contract feeds, tape greeks
	Symbols []string // quotes, events
	reply   chan any
}

// Script is a feed.Fetcher whose requests wait for the test's answer (or
// the monitor's end).
type Script struct {
	Clock *Clock
	reqs  chan *Request
}

// NewScript is a source on clock.
func NewScript(clock *Clock) *Script { return &Script{Clock: clock, reqs: make(chan *Request, 64)} }

// Monitor is a monitor on s and its clock, with budget b.
func (s *Script) Monitor(t testing.TB, b feed.Budget) *feed.Monitor {
	m := feed.NewMonitor(feed.MonitorOptions{Fetcher: s, Clock: s.Clock, Budget: b})
	t.Cleanup(m.Close)
	return m
}

// Next is the next request the monitor made, waiting at most 5 s for it.
func (s *Script) Next(t testing.TB) *Request {
	t.Helper()
	select {
	case r := <-s.reqs:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("feedtest: no request in 5 s")
		return nil
	}
}

// Pending is the requests made and not yet taken, without waiting.
func (s *Script) Pending() []*Request {
	var out []*Request
	for {
		select {
		case r := <-s.reqs:
			out = append(out, r)
		default:
			return out
		}
	}
}

// Answer gives r its reply: a message of r's feed (its Query, From and At
// the test's to set, or left zero to be filled from r and the clock).
func (r *Request) Answer(msg any) { r.reply <- msg }

func ask[T any](ctx context.Context, s *Script, r *Request, fill func(*T)) T {
	r.reply = make(chan any, 1)
	s.reqs <- r
	var out T
	select {
	case m := <-r.reply:
		out = m.(T)
		fill(&out)
	case <-ctx.Done():
		fill(&out)
	}
	return out
}

func (s *Script) at(t *time.Time) {
	if t.IsZero() {
		*t = s.Clock.Now()
	}
}

func (s *Script) Chain(ctx context.Context, q feed.Query, expiry api.Date) feed.ChainMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedChain, Query: q, Expiry: expiry}, func(m *feed.ChainMsg) {
		m.Query, m.Expiry = q, expiry
		s.at(&m.At)
	})
}

func (s *Script) Term(ctx context.Context, q feed.Query) feed.TermMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedTerm, Query: q}, func(m *feed.TermMsg) {
		m.Query = q
		s.at(&m.At)
	})
}

func (s *Script) Tape(ctx context.Context, q feed.Query, day api.Date, from int64) feed.TapeMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedTape, Query: q, From: from, Day: day}, func(m *feed.TapeMsg) {
		m.Query, m.From = q, from
		s.at(&m.At)
	})
}

func (s *Script) Calendar(ctx context.Context, q feed.Query) feed.CalendarMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedCalendar, Query: q}, func(m *feed.CalendarMsg) {
		m.Query = q
		s.at(&m.At)
	})
}

func (s *Script) ContractQuote(ctx context.Context, q feed.ContractQuery) feed.ContractQuoteMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedContractQuote, Query: q.Query, OSI: q.OSI}, func(m *feed.ContractQuoteMsg) {
		m.Query = q
		s.at(&m.At)
	})
}

func (s *Script) ContractTrades(ctx context.Context, q feed.ContractQuery, from int64, _ api.TimeOfDay) feed.ContractTradesMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedContractTrades, Query: q.Query, OSI: q.OSI, From: from}, func(m *feed.ContractTradesMsg) {
		m.Query, m.From = q, from
		s.at(&m.At)
	})
}

func (s *Script) ContractTAQ(ctx context.Context, q feed.ContractQuery, from int64, _ api.TimeOfDay) feed.ContractTAQMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedContractTAQ, Query: q.Query, OSI: q.OSI, From: from}, func(m *feed.ContractTAQMsg) {
		m.Query, m.From = q, from
		s.at(&m.At)
	})
}

func (s *Script) TapeGreeks(ctx context.Context, q feed.Query, osi api.OSI, _ api.Date, from int64, _ api.TimeOfDay) feed.TapeGreeksMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedTapeGreeks, Query: q, OSI: osi, From: from}, func(m *feed.TapeGreeksMsg) {
		m.Query, m.OSI, m.From = q, osi.String(), from
		s.at(&m.At)
	})
}

func (s *Script) Quotes(ctx context.Context, q feed.Query, symbols []string) feed.QuotesMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedQuotes, Query: q, Symbols: slices.Clone(symbols)}, func(m *feed.QuotesMsg) {
		m.Query, m.Symbols = q, symbols
		s.at(&m.At)
	})
}

func (s *Script) Events(ctx context.Context, q feed.Query, symbols []string) feed.EventsMsg {
	return ask(ctx, s, &Request{Feed: feed.FeedEvents, Query: q, Symbols: slices.Clone(symbols)}, func(m *feed.EventsMsg) {
		m.Query, m.Symbols = q, symbols
		s.at(&m.At)
	})
}
