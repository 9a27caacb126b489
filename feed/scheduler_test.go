package feed

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
)

func eastern(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, api.Eastern)
}

// wed is a mid-month Wednesday at noon: 4 h of today's session are left and
// 14 weekdays (March 12, 13, 16-20, 23-27, 30, 31) follow, so
// TradingHoursLeftInMonth is 4 + 14 x 6.5 = 95 h.
var wed = eastern(2026, time.March, 11, 12, 0)

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// nearMs allows for the millisecond rounding of intervals.
func nearMs(got, want time.Duration) bool {
	diff := got - want
	return diff >= -time.Millisecond && diff <= time.Millisecond
}

func charged(cost int, used, left api.Int) *api.Response {
	return &api.Response{StatusCode: 200, Cost: cost, PointsUsed: used, PointsLeft: left}
}

func withPoints(b Budget, used, left int64) *Scheduler {
	s := NewScheduler(b)
	s.Observe(FeedCalendar, charged(15, api.Some(used), api.Some(left)), nil, wed)
	return s
}

// ladder is what a watch screen shows: its chain, tape and calendar.
var ladder = FeedSetOf(FeedChain, FeedTape, FeedCalendar)

var (
	liveCond    = Conditions{Mode: api.Live, Shown: ladder, Focused: true}
	delayedCond = Conditions{Mode: api.Delayed, Shown: ladder, Focused: true}
)

func tapeHidden(c Conditions) Conditions { c.Shown = c.Shown.Without(FeedTape); return c }
func blurred(c Conditions) Conditions    { c.Focused = false; return c }
func idled(c Conditions) Conditions      { c.Idle = true; return c }
func pastDate(c Conditions) Conditions   { c.Historical = true; return c }

type intervalCase struct {
	name string
	s    *Scheduler
	c    Conditions
	now  time.Time
	feed Feed
	want time.Duration
}

func checkIntervals(t *testing.T, cases []intervalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now := tc.now
			if now.IsZero() {
				now = wed
			}
			if got := tc.s.Interval(tc.feed, tc.c, now); !nearMs(got, tc.want) {
				t.Errorf("Interval(%s) = %v, want %v", tc.feed, got, tc.want)
			}
		})
	}
}

func TestSchedulerIntervals(t *testing.T) {
	// PerDay 1300 is 1300 / 6.5 = 200 points an hour: 100 each for chain and
	// tape. Live chain 4 points / 100 an hour = 0.04 h = 144 s; tape 15 / 100
	// = 0.15 h = 540 s. Delayed costs double: chain 288 s, tape 1080 s,
	// clamped to its 10 min maximum. A hidden tape gives the chain all 200.
	perDay := NewScheduler(Budget{PerDay: 1300})
	// Share 0.25 of 1,000,000 left over 95 h is 250,000 / 95 points an hour;
	// half of it for the chain: 4 x 3600 s / (250,000 / 95 / 2) = 10.944 s,
	// tape 15 x 3600 x 2 x 95 / 250,000 = 41.04 s, hidden tape: 5.472 s.
	share := withPoints(DefaultBudget(), 250_000, 1_000_000)
	// No balance known yet: fallback 2000 an hour, 1000 each: chain
	// 4 / 1000 h = 14.4 s, tape 15 / 1000 h = 54 s.
	fresh := NewScheduler(DefaultBudget())
	// An overdrawn account (negative balance) budgets nothing, not a
	// negative rate: the feeds sit at their maximum.
	overdrawn := withPoints(DefaultBudget(), 1_000_050, -50)
	if got := overdrawn.BudgetPerHour(wed); got != 0 {
		t.Errorf("overdrawn BudgetPerHour = %v, want 0", got)
	}
	checkIntervals(t, []intervalCase{
		{"overdrawn chain", overdrawn, liveCond, wed, FeedChain, time.Hour},
		{"overdrawn tape", overdrawn, liveCond, wed, FeedTape, time.Hour},
		{"perday chain", perDay, liveCond, wed, FeedChain, 144 * time.Second},
		{"perday tape", perDay, liveCond, wed, FeedTape, 540 * time.Second},
		{"perday calendar", perDay, liveCond, wed, FeedCalendar, 6 * time.Hour},
		{"perday hidden chain", perDay, tapeHidden(liveCond), wed, FeedChain, 72 * time.Second},
		{"perday hidden tape", perDay, tapeHidden(liveCond), wed, FeedTape, 0},
		{"perday delayed chain", perDay, delayedCond, wed, FeedChain, 288 * time.Second},
		{"perday delayed tape", perDay, delayedCond, wed, FeedTape, 18 * time.Minute}, // 30 / 100 h: the budget, not a cap
		{"perday delayed hidden chain", perDay, tapeHidden(delayedCond), wed, FeedChain, 144 * time.Second},
		{"share chain", share, liveCond, wed, FeedChain, secs(10.944)},
		{"share tape", share, liveCond, wed, FeedTape, secs(41.04)},
		{"share hidden chain", share, tapeHidden(liveCond), wed, FeedChain, secs(5.472)},
		{"fallback chain", fresh, liveCond, wed, FeedChain, secs(14.4)},
		{"fallback tape", fresh, liveCond, wed, FeedTape, 54 * time.Second},
		{"historical not polled", perDay, pastDate(liveCond), wed, FeedChain, 0},
	})
	if got, want := share.BudgetPerHour(wed), 250_000.0/95; math.Abs(got-want) > 1e-9 {
		t.Errorf("BudgetPerHour = %v, want %v", got, want)
	}
}

func TestSchedulerMinClampRedistribution(t *testing.T) {
	// 130,000 a day = 20,000 an hour, 10,000 each. The chain would poll every
	// 4 x 3600 / 10,000 = 1.44 s: clamped to 2 s it spends 4 x 1800 = 7200,
	// so the tape gets 10,000 + 2800 = 12,800: 15 x 3600 / 12,800 = 4.21875 s
	// (5.4 s without the redistribution).
	mid := NewScheduler(Budget{PerDay: 130_000})
	// 650,000 a day = 100,000 an hour: both feeds at their minimum.
	big := NewScheduler(Budget{PerDay: 650_000})
	checkIntervals(t, []intervalCase{
		{"chain clamped", mid, liveCond, wed, FeedChain, 2 * time.Second},
		{"tape gets the rest", mid, liveCond, wed, FeedTape, secs(4.21875)},
		{"hidden chain clamped", mid, tapeHidden(liveCond), wed, FeedChain, 2 * time.Second},
		{"both clamped chain", big, liveCond, wed, FeedChain, 2 * time.Second},
		{"both clamped tape", big, liveCond, wed, FeedTape, 3 * time.Second},
	})
}

func TestSchedulerQuietMultipliers(t *testing.T) {
	// Base intervals as in TestSchedulerIntervals: share chain 10.944 s, tape
	// 41.04 s; perday chain 144 s, tape 540 s. x4 unfocused, x4 idle, x16
	// both, capped at 15 min (past the feeds' own maximum).
	share := withPoints(DefaultBudget(), 250_000, 1_000_000)
	perDay := NewScheduler(Budget{PerDay: 1300})
	checkIntervals(t, []intervalCase{
		{"blurred chain", share, blurred(liveCond), wed, FeedChain, secs(43.776)},
		{"blurred tape", share, blurred(liveCond), wed, FeedTape, secs(164.16)},
		{"idle chain", share, idled(liveCond), wed, FeedChain, secs(43.776)},
		{"idle tape", share, idled(liveCond), wed, FeedTape, secs(164.16)},
		{"both chain", share, idled(blurred(liveCond)), wed, FeedChain, secs(175.104)},
		{"both tape past its max", share, idled(blurred(liveCond)), wed, FeedTape, secs(656.64)},
		{"blurred chain past its max", perDay, blurred(liveCond), wed, FeedChain, 576 * time.Second},
		{"both chain capped", perDay, idled(blurred(liveCond)), wed, FeedChain, 15 * time.Minute},
		{"blurred tape capped", perDay, blurred(liveCond), wed, FeedTape, 15 * time.Minute},
		{"calendar unaffected", perDay, idled(blurred(liveCond)), wed, FeedCalendar, 6 * time.Hour},
	})
}

func TestSchedulerMarketClosed(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 1300}) // 144 s / 540 s while open
	times := map[string]time.Time{
		"after close":  eastern(2026, time.March, 11, 16, 0),
		"evening":      eastern(2026, time.March, 11, 21, 0),
		"before open":  eastern(2026, time.March, 11, 9, 29),
		"saturday":     eastern(2026, time.March, 14, 12, 0),
		"sunday":       eastern(2026, time.March, 15, 12, 0),
		"utc midnight": time.Date(2026, time.March, 12, 0, 0, 0, 0, time.UTC),
	}
	var cases []intervalCase
	for name, now := range times {
		cases = append(cases,
			intervalCase{name + " chain", s, liveCond, now, FeedChain, 15 * time.Minute},
			intervalCase{name + " tape", s, liveCond, now, FeedTape, 15 * time.Minute},
			intervalCase{name + " blurred tape", s, blurred(liveCond), now, FeedTape, 15 * time.Minute},
			intervalCase{name + " calendar", s, liveCond, now, FeedCalendar, 6 * time.Hour})
	}
	checkIntervals(t, cases)
	// Outside the session a feed fetches once for the close, then waits
	// for the next open; delayed data closes and opens 15 minutes late.
	for _, tc := range []struct {
		name      string
		c         Conditions
		last, now time.Time
		want      time.Duration
	}{
		{"saturday, fetched since the close: Monday's open", liveCond, times["saturday"].Add(-10 * time.Minute), times["saturday"], 45*time.Hour + 30*time.Minute},
		{"friday evening, last fetch before the close: now", liveCond, eastern(2026, time.March, 13, 15, 59), eastern(2026, time.March, 13, 16, 5), 0},
		{"friday evening, fetched after the close: Monday", liveCond, eastern(2026, time.March, 13, 16, 5), eastern(2026, time.March, 13, 16, 6), 65*time.Hour + 24*time.Minute},
		{"before the open: the open", liveCond, eastern(2026, time.March, 11, 8, 0), eastern(2026, time.March, 11, 9, 0), 30 * time.Minute},
		{"delayed at 16:05 still moves: its interval", delayedCond, eastern(2026, time.March, 11, 16, 4), eastern(2026, time.March, 11, 16, 5), 288*time.Second - time.Minute}, // 8 / 100 h = 288 s
		{"delayed after its close: once", delayedCond, eastern(2026, time.March, 11, 16, 10), eastern(2026, time.March, 11, 16, 20), 0},
		{"delayed, fetched after its close: its open", delayedCond, eastern(2026, time.March, 11, 16, 20), eastern(2026, time.March, 11, 16, 21), 17*time.Hour + 24*time.Minute},
	} {
		if d, ok := s.Next(FeedChain, tc.c, tc.last, tc.now); !ok || d != tc.want {
			t.Errorf("%s: Next = %v, %v; want %v", tc.name, d, ok, tc.want)
		}
	}
}

func TestSchedulerNextFollowsConditions(t *testing.T) {
	s := withPoints(DefaultBudget(), 250_000, 1_000_000) // chain 10.944 s, blurred 43.776 s
	last := wed.Add(-20 * time.Second)
	if d, ok := s.Next(FeedChain, blurred(liveCond), last, wed); !ok || !nearMs(d, secs(23.776)) {
		t.Errorf("blurred Next = %v, %v; want 23.776s", d, ok)
	}
	if d, ok := s.Next(FeedChain, liveCond, last, wed); !ok || d != 0 {
		t.Errorf("focused again Next = %v, %v; want 0, true", d, ok)
	}
	if _, ok := s.Next(FeedTape, tapeHidden(liveCond), last, wed); ok {
		t.Error("hidden tape is polled")
	}
	if _, ok := s.Next(NumFeeds, liveCond, last, wed); ok {
		t.Error("unknown feed is polled")
	}
	if d, ok := s.Next(FeedTape, liveCond, time.Time{}, wed); !ok || d != 0 {
		t.Errorf("never fetched Next = %v, %v; want 0, true", d, ok)
	}
}

func TestFeedString(t *testing.T) {
	for f, want := range map[Feed]string{FeedChain: "chain", FeedTape: "tape", FeedCalendar: "calendar", FeedTerm: "expiries", FeedContractTrades: "contract trades", FeedQuotes: "quotes", FeedEvents: "events", 99: "feed(99)"} {
		if got := f.String(); got != want {
			t.Errorf("Feed(%d).String() = %q, want %q", int(f), got, want)
		}
	}
}

func BenchmarkSchedulerNext(b *testing.B) {
	s := withPoints(DefaultBudget(), 250_000, 1_000_000)
	last := wed.Add(-5 * time.Second)
	for b.Loop() {
		s.Next(FeedChain, liveCond, last, wed)
		s.Next(FeedTape, liveCond, last, wed)
	}
}

// onWatchlist is c with a watchlist's quotes and events shown instead
// of the ladder's feeds.
func onWatchlist(c Conditions) Conditions { c.Shown = FeedSetOf(FeedQuotes, FeedEvents); return c }

// TestSchedulerWatchlist: while the watchlist fills the screen its quotes
// have the whole budget and the watch screen's feeds are not polled; the
// other way round while the watch screen shows.
func TestSchedulerWatchlist(t *testing.T) {
	// PerDay 1300 is 200 points an hour: quotes at 4 points live every
	// 72 s, at 8 delayed every 144 s, as a chain alone would.
	perDay := NewScheduler(Budget{PerDay: 1300})
	big := NewScheduler(Budget{PerDay: 650_000})
	checkIntervals(t, []intervalCase{
		{"quotes", perDay, onWatchlist(liveCond), wed, FeedQuotes, 72 * time.Second},
		{"quotes delayed", perDay, onWatchlist(delayedCond), wed, FeedQuotes, 144 * time.Second},
		{"quotes clamped", big, onWatchlist(liveCond), wed, FeedQuotes, 2 * time.Second},
		{"quotes unfocused", perDay, blurred(onWatchlist(liveCond)), wed, FeedQuotes, 288 * time.Second},
		{"events", perDay, onWatchlist(liveCond), wed, FeedEvents, 6 * time.Hour},
		{"quotes hidden", perDay, liveCond, wed, FeedQuotes, 0},
		{"chain hidden", perDay, onWatchlist(liveCond), wed, FeedChain, 0},
		{"tape hidden", perDay, onWatchlist(liveCond), wed, FeedTape, 0},
		{"historical quotes", perDay, pastDate(onWatchlist(liveCond)), wed, FeedQuotes, 0},
	})
	last := wed.Add(-time.Minute)
	for _, tc := range []struct {
		f    Feed
		c    Conditions
		want bool
	}{
		{FeedQuotes, onWatchlist(liveCond), true}, {FeedEvents, onWatchlist(liveCond), true},
		{FeedChain, onWatchlist(liveCond), false}, {FeedTape, onWatchlist(liveCond), false}, {FeedCalendar, onWatchlist(liveCond), false},
		{FeedQuotes, liveCond, false}, {FeedEvents, liveCond, false}, {FeedChain, liveCond, true},
	} {
		if _, ok := perDay.Next(tc.f, tc.c, last, wed); ok != tc.want {
			t.Errorf("Next(%s, watchlist %v) polled %v, want %v", tc.f, tc.c.Shown.Has(FeedQuotes), ok, tc.want)
		}
	}
	// A historical watchlist is fetched once.
	perDay.Observe(FeedQuotes, charged(3, api.Int{}, api.Int{}), nil, wed)
	if _, ok := perDay.Next(FeedQuotes, pastDate(onWatchlist(liveCond)), wed, wed.Add(time.Minute)); ok {
		t.Error("a past day's watchlist is polled again")
	}
	// Resetting the chain's feeds (another symbol) leaves the watchlist's.
	perDay.Reset(FeedChain, FeedTape, FeedCalendar)
	if _, ok := perDay.Next(FeedQuotes, pastDate(onWatchlist(liveCond)), wed, wed.Add(time.Minute)); ok {
		t.Error("resetting the chain's feeds forgot the watchlist's answer")
	}
	perDay.Reset()
	if _, ok := perDay.Next(FeedQuotes, pastDate(onWatchlist(liveCond)), wed, wed.Add(time.Minute)); !ok {
		t.Error("Reset() kept the watchlist's answer")
	}
	// The events are not paused after the close, like the calendar.
	night := eastern(2026, time.March, 11, 22, 0)
	if d, ok := perDay.Next(FeedEvents, onWatchlist(liveCond), night.Add(-7*time.Hour), night); !ok || d != 0 {
		t.Errorf("events at night: %v %v", d, ok)
	}
}
