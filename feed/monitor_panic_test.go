package feed_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
)

// A fetch that panics settles as a failed reply of its feed: the request
// in flight is booked, the subscriber hears the failure, and the feed is
// polled again. The panic itself goes on to the spawner (serve logs it).
func TestMonitorPanickingFetchSettlesAsError(t *testing.T) {
	r := newRig(t, openMarket)
	var reported atomic.Value
	r.guard = func(f func()) {
		defer func() {
			if p := recover(); p != nil {
				reported.Store(p)
			}
		}()
		f()
	}
	var panics atomic.Int32
	r.src.chain = func(q feed.Query, expiry api.Date) feed.ChainMsg {
		if panics.Add(1) == 1 {
			panic("a fixture that breaks")
		}
		return feed.ChainMsg{Query: q, Expiry: expiry, Chain: &api.SymbolWithOptions{Options: []api.OptionData{{}}}, Resp: r.src.resp()}
	}
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(3)})
	r.run()
	chains := replies[feed.ChainMsg](s.Pending())
	if len(chains) != 1 || chains[0].Err == nil || !strings.Contains(chains[0].Err.Error(), "a fixture that breaks") {
		t.Fatalf("after a panicking fetch got %+v, want one failed chain reply", chains)
	}
	if reported.Load() != "a fixture that breaks" {
		t.Fatalf("the spawner heard %v, want the fetch's panic passed on", reported.Load())
	}
	if chains[0].Query.Gen != 3 {
		t.Fatalf("the failed reply has query %+v, want the subscriber's", chains[0].Query)
	}
	st := s.Snapshot(r.clock.Now()).Feeds[feed.FeedChain]
	if st.InFlight || st.Due.IsZero() {
		t.Fatalf("after the panic the chain is %+v, want nothing in flight and a next fetch planned", st)
	}
	r.step(st.Due.Sub(r.clock.Now()))
	if got := replies[feed.ChainMsg](s.Pending()); len(got) != 1 || got[0].Err != nil {
		t.Fatalf("the next poll got %+v, want one answer", got)
	}
}

// panicClock panics once in AfterFunc when armed: a panic inside the
// monitor's critical section.
type panicClock struct {
	feed.Clock
	armed atomic.Bool
}

func (c *panicClock) AfterFunc(d time.Duration, f func()) feed.Stopper {
	if c.armed.CompareAndSwap(true, false) {
		panic("a timer that breaks")
	}
	return c.Clock.AfterFunc(d, f)
}

// A panic while the monitor holds its lock lets the lock go: the next
// call (another session's) does not freeze.
func TestMonitorPanicUnderLockReleasesIt(t *testing.T) {
	r := newRig(t, openMarket)
	clock := &panicClock{Clock: r.clock}
	m := feed.NewMonitor(feed.MonitorOptions{Fetcher: r.src, Clock: clock, Budget: feed.Budget{PerDay: 100_000},
		Spawn: func(f func()) {}})
	t.Cleanup(m.Close)
	s := m.Subscribe()
	clock.armed.Store(true)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Set did not panic: the armed clock was never asked for a timer")
			}
		}()
		s.Set(focused, feed.Want{Feed: feed.FeedQuotes, Query: spy(1), Symbols: []string{"SPY"}})
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		other := m.Subscribe()
		other.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(2)})
		_ = other.Snapshot(r.clock.Now())
		m.Post("still here")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the monitor stayed locked after a panic under its lock")
	}
}

// Observe's cancel removes that observer and only it: a closed alert
// pool's observer hears nothing more while the monitor lives on.
func TestMonitorObserveCancel(t *testing.T) {
	r := newRig(t, openMarket)
	var a, b atomic.Int32
	cancelA := r.m.Observe(func(any) { a.Add(1) })
	r.m.Observe(func(any) { b.Add(1) })
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(1)})
	r.run()
	if a.Load() != 1 || b.Load() != 1 {
		t.Fatalf("observers saw %d and %d replies, want 1 each", a.Load(), b.Load())
	}
	cancelA()
	cancelA() // twice is harmless
	s.Refresh(feed.FeedChain)
	r.run()
	if a.Load() != 1 || b.Load() != 2 {
		t.Fatalf("after cancelling the first, observers saw %d and %d replies, want 1 and 2", a.Load(), b.Load())
	}
}
