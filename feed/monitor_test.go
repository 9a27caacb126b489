package feed_test

import (
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"context"
	"slices"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// screen is the watch screen's wants for q.
func screen(q feed.Query, expiry api.Date) []feed.Want {
	return []feed.Want{{Feed: feed.FeedChain, Query: q, Expiry: expiry}, {Feed: feed.FeedTape, Query: q, Capacity: 5000}, {Feed: feed.FeedCalendar, Query: q}}
}

var focused = feed.Attention{Focused: true}

func TestMonitorSharedFeedFetchedOnceDeliveredToEach(t *testing.T) {
	r := newRig(t, openMarket)
	a, b := r.m.Subscribe(), r.m.Subscribe()
	a.Set(focused, screen(spy(1), 0)...)
	b.Set(focused, screen(spy(7), 0)...)
	r.run()
	if got := feedsOf(r.src.taken()); !slices.Equal(got, []feed.Feed{feed.FeedChain, feed.FeedTape, feed.FeedCalendar}) {
		t.Fatalf("two subscribers of SPY asked %v, want each feed once", got)
	}
	for _, c := range []struct {
		s   *feed.Subscription
		gen uint64
	}{{a, 1}, {b, 7}} {
		msgs := c.s.Pending()
		chains := replies[feed.ChainMsg](msgs)
		if len(chains) != 1 || chains[0].Query.Gen != c.gen {
			t.Fatalf("subscriber %d got chains %+v, want one stamped with its generation", c.gen, chains)
		}
		if len(replies[feed.TapeMsg](msgs)) != 1 || len(replies[feed.CalendarMsg](msgs)) != 1 {
			t.Fatalf("subscriber %d got %d messages, want a tape and a calendar too", c.gen, len(msgs))
		}
	}
	if s := r.m.Stats(r.clock.Now()); s.SessionSpent != 12 {
		t.Fatalf("spent %d, want 12: three requests of 4 points, paid once", s.SessionSpent)
	}
}

func TestMonitorChainWholeThenExpiryThenWholeAgain(t *testing.T) {
	r := newRig(t, openMarket)
	s := r.m.Subscribe()
	exp := api.Date(20261127)
	s.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(1)})
	r.run()
	s.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(1), Expiry: exp})
	if c := r.src.taken(); len(c) != 1 || c[0].Expiry != 0 {
		t.Fatalf("first fetch %+v, want the whole chain", c)
	}
	snap := s.Snapshot(r.clock.Now())
	every := snap.Feeds[feed.FeedChain].Interval
	if every <= 0 || snap.Feeds[feed.FeedChain].Due.IsZero() {
		t.Fatalf("snapshot %+v: want the next chain planned at an interval", snap.Feeds[feed.FeedChain])
	}
	r.step(every)
	if c := r.src.taken(); len(c) != 1 || c[0].Expiry != exp {
		t.Fatalf("after an interval %+v, want the selected expiry alone", c)
	}
	if msgs := replies[feed.FetchingMsg](s.Pending()); len(msgs) != 1 {
		t.Fatalf("a timed fetch posted %d feed.FetchingMsg, want 1", len(msgs))
	}
	r.step(config.FullChainMaxAge)
	var whole int
	for _, c := range r.src.taken() {
		if c.Expiry == 0 {
			whole++
		}
	}
	if whole != 1 {
		t.Fatalf("over %s, %d whole chains, want 1 once the expiries are that old", config.FullChainMaxAge, whole)
	}
}

func TestMonitorProbeHoldsTapeAndCalendar(t *testing.T) {
	t.Run("known", func(t *testing.T) {
		r := newRig(t, openMarket)
		s := r.m.Subscribe()
		w := screen(feed.Query{Symbol: "ZZZZ", Mode: api.Live, Gen: 1}, 0)
		w[0].Probe = true
		s.Set(focused, w...)
		if got := feedsOf(r.src.taken()); len(got) != 0 {
			t.Fatalf("asked %v before running, want nothing yet", got)
		}
		r.run()
		if got := feedsOf(r.src.taken()); !slices.Equal(got, []feed.Feed{feed.FeedChain, feed.FeedCalendar, feed.FeedTape}) && !slices.Equal(got, []feed.Feed{feed.FeedChain, feed.FeedTape, feed.FeedCalendar}) {
			t.Fatalf("asked %v, want the chain alone, then the tape and calendar once it answered", got)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		r := newRig(t, openMarket)
		r.src.chain = func(q feed.Query, e api.Date) feed.ChainMsg {
			return feed.ChainMsg{Query: q, Expiry: e, Err: api.ErrNoData, Resp: r.src.resp()}
		}
		s := r.m.Subscribe()
		w := screen(feed.Query{Symbol: "ZZZZ", Mode: api.Live, Gen: 1}, 0)
		w[0].Probe = true
		s.Set(focused, w...)
		r.run()
		r.step(time.Hour)
		if got := feedsOf(r.src.taken()); !slices.Equal(got, []feed.Feed{feed.FeedChain}) {
			t.Fatalf("asked %v over an hour, want one chain and nothing more for a symbol the service does not know", got)
		}
		if !s.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].NoSuch {
			t.Fatal("snapshot does not say no such symbol")
		}
	})
}

func TestMonitorHiddenKeepsDroppedForgets(t *testing.T) {
	r := newRig(t, openMarket)
	s := r.m.Subscribe()
	s.Set(focused, screen(spy(1), 0)...)
	r.run()
	r.src.taken()
	hidden := screen(spy(1), 0)
	for i := range hidden {
		hidden[i].Hidden = true
	}
	s.Set(focused, hidden...)
	r.step(time.Hour)
	if got := r.src.taken(); len(got) != 0 {
		t.Fatalf("hidden feeds asked %v, want nothing", got)
	}
	s.Set(focused, screen(spy(1), 0)...)
	r.run()
	if got := r.src.taken(); len(got) != 0 {
		t.Fatalf("shown again asked %v at once, want each when its interval since the last is up (planned)", got)
	}
	if s.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].Due.IsZero() {
		t.Fatal("shown again, the chain is not planned")
	}
	// Another symbol: the old feeds are forgotten; a reply still in flight
	// for them is booked but not delivered.
	r.clock.Advance(s.Snapshot(r.clock.Now()).Feeds[feed.FeedChain].Interval) // the chain's fetch is asked, not answered
	s.Pending()
	spent := r.m.Stats(r.clock.Now()).SessionSpent
	s.Set(focused, screen(feed.Query{Symbol: "QQQ", Mode: api.Live, Gen: 2}, 0)...)
	r.run()
	for _, c := range replies[feed.ChainMsg](s.Pending()) {
		if c.Query.Symbol == "SPY" {
			t.Fatal("a reply for the symbol left was delivered")
		}
	}
	if got := r.m.Stats(r.clock.Now()).SessionSpent - spent; got < 4*4 {
		t.Fatalf("spent %d more, want the dropped SPY reply's points booked as well as QQQ's", got)
	}
}

func TestMonitorTapePagesFromCursorAndCatchesUp(t *testing.T) {
	r := newRig(t, openMarket)
	next := int64(100)
	full := false
	r.src.tape = func(from int64) feed.TapeMsg {
		n := 3
		if full {
			n = config.TapePageLimit
		}
		trades := make([]api.OptionTrade, n)
		for i := range trades {
			trades[i].SeqNo = next
			next++
		}
		return feed.TapeMsg{Trades: trades}
	}
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedTape, Query: spy(1), Capacity: 5000})
	r.run()
	full = true
	r.step(s.Snapshot(r.clock.Now()).Feeds[feed.FeedTape].Interval)
	calls := r.src.taken()
	if len(calls) < 3 || calls[0].From != 0 || calls[1].From != 103 {
		t.Fatalf("tape asked from %+v, want 0, then one past the last trade held", calls)
	}
	// 5,000 held, and a first full page of 10,000 behind: past the ring,
	// the tape starts over from the latest window instead of paging on.
	if calls[2].From != 0 {
		t.Fatalf("after a full page larger than the tape, asked from %d, want 0 (start over)", calls[2].From)
	}
	tapes := replies[feed.TapeMsg](s.Pending())
	if len(tapes) < 3 || tapes[0].Day != api.Today(openMarket) || tapes[0].Over {
		t.Fatalf("tape replies %+v: want today's open session named", tapes[:1])
	}
}

func TestMonitorRefetchAfterReplyInFlight(t *testing.T) {
	r := newRig(t, openMarket)
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedChain, Query: spy(1)})
	s.Refetch(feed.FeedChain) // the expiry changed while the whole chain is in flight
	r.run()                   // the whole chain answers; the refetch goes at once
	r.step(0)
	if got := r.src.taken(); len(got) != 2 {
		t.Fatalf("asked %d chains, want 2: the one in flight, then the new expiry at once", len(got))
	}
	s.Refresh(feed.FeedChain)
	s.Refresh(feed.FeedChain) // in flight already: not asked twice
	r.run()
	if got := r.src.taken(); len(got) != 1 {
		t.Fatalf("two refreshes asked %d chains, want 1", len(got))
	}
}

func TestMonitorOutdatedTimerDoesNothing(t *testing.T) {
	r := newRig(t, openMarket)
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedCalendar, Query: spy(1)})
	r.run()
	r.src.taken()
	s.Set(feed.Attention{Focused: false}, feed.Want{Feed: feed.FeedCalendar, Query: spy(1)})
	s.Set(focused, feed.Want{Feed: feed.FeedCalendar, Query: spy(1)})
	r.step(config.CalendarInterval)
	if got := r.src.taken(); len(got) != 1 {
		t.Fatalf("three plans of one feed fetched %d times at its interval, want 1", len(got))
	}
}

func TestMonitorWatchlistSymbolsAndEvents(t *testing.T) {
	r := newRig(t, openMarket)
	s := r.m.Subscribe()
	wq := feed.Query{Mode: api.Live, Gen: 1}
	wants := func(syms, need []string) []feed.Want {
		return []feed.Want{{Feed: feed.FeedQuotes, Query: wq, Symbols: syms}, {Feed: feed.FeedEvents, Query: wq, Symbols: syms, Need: need}}
	}
	s.Set(focused, wants([]string{"SPY"}, []string{"SPY"})...)
	r.step(0)
	if got := r.src.taken(); len(got) != 2 {
		t.Fatalf("opening the watchlist asked %+v, want its quotes and events", got)
	}
	s.Set(focused, wants([]string{"SPY"}, nil)...)                      // the subscriber applied them
	s.Set(focused, wants([]string{"SPY", "AAPL"}, []string{"AAPL"})...) // a symbol added
	r.step(0)
	got := r.src.taken()
	if len(got) != 1 || got[0].Feed != feed.FeedQuotes || !slices.Equal(got[0].Syms, []string{"SPY", "AAPL"}) {
		t.Fatalf("adding a symbol asked %+v, want the quotes of both now", got)
	}
	s.Set(focused, wants([]string{"SPY", "AAPL"}, []string{"AAPL"})...) // the quotes applied
	r.run()
	got = r.src.taken()
	if len(got) != 1 || got[0].Feed != feed.FeedEvents || !slices.Equal(got[0].Syms, []string{"AAPL"}) {
		t.Fatalf("after its quote, asked %+v, want the events of the added symbol alone", got)
	}
}

func TestMonitorJobPacedAndPausedWhileClosed(t *testing.T) {
	closeAt := time.Date(2026, 11, 24, 15, 59, 0, 0, api.Eastern)
	r := newRig(t, closeAt)
	runs := 0
	cost := 4
	job := &feed.Job{Name: "chain SPY", Every: 30 * time.Second, Mode: api.Live, Run: func(context.Context) feed.JobResult {
		runs++
		return feed.JobResult{Value: runs, Resps: []*api.Response{{StatusCode: 200, Cost: cost}}}
	}}
	s := r.m.Subscribe()
	s.Set(focused, feed.Want{Feed: feed.FeedJob, Job: job})
	r.run()
	r.step(30 * time.Second)
	msgs := replies[feed.JobMsg](s.Pending())
	if len(msgs) != 2 || msgs[0].Run != 0 || msgs[1].Run != 1 || msgs[1].Every != 30*time.Second {
		t.Fatalf("runs %+v, want the first at once and the next 30s later", msgs)
	}
	// Past the close the data stops changing: the next run is at the open.
	r.step(time.Minute)
	msgs = replies[feed.JobMsg](s.Pending())
	last := msgs[len(msgs)-1]
	if want := market.NextOpen(last.At, api.Live); !last.Next.Equal(want) {
		t.Fatalf("after the close, next run %s, want the open %s", last.Next, want)
	}
	// A run that costs more than the budget allows an hour at that pace
	// stretches the interval.
	cost = 100_000
	r.step(market.NextOpen(r.clock.Now(), api.Live).Sub(r.clock.Now()))
	msgs = replies[feed.JobMsg](s.Pending())
	if len(msgs) != 1 || msgs[0].Every <= 30*time.Second {
		t.Fatalf("a costly run: %+v, want one run and a longer interval", msgs)
	}
	if got := r.m.Stats(r.clock.Now()); got.SessionSpent != runs*4-4+100_000 {
		t.Fatalf("spent %d, want every run's points", got.SessionSpent)
	}
}

// TestMonitorConcurrentSubscribers drives one monitor from several
// goroutines at once, on real timers and goroutines, as SSH sessions and
// alert rules would: the race detector checks the locking, and every
// subscriber still gets its replies. Bounded: a fixed number of rounds and
// a deadline.
func TestMonitorConcurrentSubscribers(t *testing.T) {
	clock := feedtest.NewClock(openMarket)
	src := &fakeSource{clock: clock, cost: 1}
	m := feed.NewMonitor(feed.MonitorOptions{Fetcher: src, Clock: feed.RealClock{NowFunc: clock.Now}, Budget: feed.Budget{PerDay: 1_000_000}})
	defer m.Close()
	done := make(chan int, 4)
	for i := range 4 {
		go func() {
			s := m.Subscribe()
			q := feed.Query{Symbol: []string{"SPY", "QQQ"}[i%2], Mode: api.Live, Gen: uint64(i + 1)}
			got := 0
			for round := range 20 {
				w := screen(q, 0)
				w[1].Hidden = round%3 == 0
				s.Set(feed.Attention{Focused: round%2 == 0}, w...)
				s.Refresh(feed.FeedChain, feed.FeedTape)
				_ = s.Snapshot(clock.Now())
				got += len(replies[feed.ChainMsg](s.Pending()))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for got == 0 {
				msg, ok := s.Next(ctx)
				if !ok {
					break
				}
				if _, ok := msg.(feed.ChainMsg); ok {
					got++
				}
			}
			s.Close()
			done <- got
		}()
	}
	for range 4 {
		if got := <-done; got == 0 {
			t.Fatal("a subscriber got no chain")
		}
	}
}
