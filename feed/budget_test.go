package feed

import (
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

func TestSchedulerTrialPlan(t *testing.T) {
	// used + left == 500 is the trial plan, renewed daily: Share x left is
	// spread over today's session, not the month.
	trial := withPoints(Budget{Share: 1}, 100, 400)
	notTrial := withPoints(Budget{Share: 1}, 101, 400)
	tests := []struct {
		name string
		s    *Scheduler
		now  time.Time
		want float64
	}{
		{"noon: 400 over 4 h", trial, wed, 100},
		{"15:45: 0.25 h left, floor 0.5 h", trial, eastern(2026, time.March, 11, 15, 45), 800},
		{"before the open: whole 6.5 h session", trial, eastern(2026, time.March, 11, 9, 0), 400 / 6.5},
		{"saturday: no session, floor 0.5 h", trial, eastern(2026, time.March, 14, 12, 0), 800},
		{"501 is a monthly plan: 400 over 95 h", notTrial, wed, 400.0 / 95},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.BudgetPerHour(tc.now); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("BudgetPerHour = %v, want %v", got, tc.want)
			}
		})
	}
	// 100 an hour, all to the chain: 4 / 100 h = 144 s. Spread over the
	// month (400/95 an hour) it is 4 / (400/95) h = 57 min.
	checkIntervals(t, []intervalCase{
		{"trial chain", trial, tapeHidden(liveCond), wed, FeedChain, 144 * time.Second},
		{"monthly chain", notTrial, tapeHidden(liveCond), wed, FeedChain, 57 * time.Minute},
	})
}

func TestSchedulerStats(t *testing.T) {
	s := NewScheduler(DefaultBudget())
	t0 := wed
	s.Observe(FeedChain, charged(4, api.Some[int64](1000), api.Some[int64](9000)), nil, t0.Add(-time.Second))
	if st := s.Stats(t0); st.RateKnown || st.SessionSpent != 4 {
		t.Errorf("before the first poll: %+v; the first loads are not a rate", st)
	}
	s.Polled(t0)
	s.Observe(FeedChain, charged(4, api.Some[int64](1000), api.Some[int64](9000)), nil, t0)
	s.Observe(FeedTape, charged(15, api.Some[int64](1015), api.Some[int64](8985)), nil, t0.Add(30*time.Second))
	st := s.Stats(t0.Add(30 * time.Second))
	// Under a minute the window counts as one: 19 points a minute, no
	// extrapolation from 30 s and no 0/h.
	if st.SessionSpent != 23 || !st.RateKnown || math.Abs(st.HourlyRate-19*60) > 1e-9 {
		t.Errorf("after 30 s: spent %d rate %v; want 23, 1140", st.SessionSpent, st.HourlyRate)
	}
	// A 429 costs nothing, keeps the headers it lacks, and is the last error.
	errAt := t0.Add(time.Minute)
	limit := rateLimit("too many requests", 0)
	s.Observe(FeedChain, &api.Response{StatusCode: 429}, limit, errAt)
	st = s.Stats(t0.Add(30 * time.Minute))
	// 19 points in half an hour: 38 an hour. The budget is 0.25 x 8985 over
	// the 94.5 h left at 12:30 (3.5 h today + 14 x 6.5).
	if st.SessionSpent != 23 || math.Abs(st.HourlyRate-38) > 1e-9 {
		t.Errorf("after 30 min: spent %d rate %v; want 23, 38", st.SessionSpent, st.HourlyRate)
	}
	if want := 0.25 * 8985 / 94.5; math.Abs(st.BudgetPerHour-want) > 1e-9 {
		t.Errorf("BudgetPerHour = %v, want %v", st.BudgetPerHour, want)
	}
	if st.PointsUsed != api.Some[int64](1015) || st.PointsLeft != api.Some[int64](8985) {
		t.Errorf("points = %v / %v, want 1015 / 8985", st.PointsUsed, st.PointsLeft)
	}
	if st.LastErr != limit || !st.LastErrAt.Equal(errAt) {
		t.Errorf("last error = %v at %v, want %v at %v", st.LastErr, st.LastErrAt, limit, errAt)
	}
	// After 90 min only the last hour counts: the 8 points at 90 min.
	t90 := t0.Add(90 * time.Minute)
	s.Observe(FeedChain, charged(8, api.Int{}, api.Some[int64](8977)), nil, t90)
	st = s.Stats(t90)
	if len(s.spends) != 1 {
		t.Errorf("%d fetches kept, want only the last hour's 1", len(s.spends))
	}
	if st.SessionSpent != 31 || math.Abs(st.HourlyRate-8) > 1e-9 {
		t.Errorf("after 90 min: spent %d rate %v; want 31, 8", st.SessionSpent, st.HourlyRate)
	}
	if st.PointsUsed != api.Some[int64](1015) || st.PointsLeft != api.Some[int64](8977) {
		t.Errorf("points = %v / %v, want 1015 (kept) / 8977", st.PointsUsed, st.PointsLeft)
	}
	if st.LastErr != limit {
		t.Errorf("success cleared the last error: %v", st.LastErr)
	}
	if st := NewScheduler(DefaultBudget()).Stats(wed); st.HourlyRate != 0 || st.SessionSpent != 0 || st.BudgetPerHour != 2000 {
		t.Errorf("fresh Stats = %+v", st)
	}
}

func TestBudgetValidate(t *testing.T) {
	tests := []struct {
		b    Budget
		want string // "" for valid
	}{
		{DefaultBudget(), ""},
		{Budget{Share: 1}, ""},
		{Budget{PerDay: 500}, ""},
		{Budget{PerDay: 500, Share: 7}, ""}, // PerDay overrides Share
		{Budget{PerDay: -1, Share: 0.25}, "points per day must not be negative, got -1"},
		{Budget{}, "must be in (0, 1] when no points per day are set, got 0"},
		{Budget{Share: 1.5}, "must be in (0, 1] when no points per day are set, got 1.5"},
		{Budget{Share: -0.1}, "got -0.1"},
		{Budget{Share: math.Inf(1)}, "got +Inf"},
		{Budget{Share: math.NaN()}, "not a number (NaN)"},
		{Budget{PerDay: 500, Share: math.NaN()}, "not a number (NaN)"},
	}
	for _, tc := range tests {
		err := tc.b.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tc.b, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want one containing %q", tc.b, err, tc.want)
		}
	}
	// An invalid budget falls back to the default share of 0.25:
	// 0.25 x 9500 / 95 h = 25 an hour.
	s := NewScheduler(Budget{PerDay: -5})
	s.Observe(FeedChain, charged(4, api.Some[int64](500), api.Some[int64](9500)), nil, wed)
	if got := s.BudgetPerHour(wed); math.Abs(got-25) > 1e-9 {
		t.Errorf("BudgetPerHour of an invalid budget = %v, want 25", got)
	}
}

func TestSchedulerSpend(t *testing.T) {
	s := NewScheduler(DefaultBudget())
	// Before any clock the points count, but are not dated.
	s.Spend(charged(4, api.Int{}, api.Some[int64](5000)))
	s.Polled(wed)
	s.Observe(FeedChain, charged(4, api.Some[int64](1000), api.Some[int64](9000)), nil, wed)
	s.Next(FeedChain, liveCond, wed, wed.Add(10*time.Minute))
	// A stale reply: booked at the latest time seen (the Next at 10 min),
	// with its balance, and without touching the chain's state.
	s.Spend(charged(8, api.Some[int64](1008), api.Some[int64](8992)))
	s.Spend(nil)
	st := s.Stats(wed.Add(80 * time.Minute))
	// The last hour at 80 min (20 to 80 min) holds none of it: the stale 8
	// points were dated at 10 min.
	if st.SessionSpent != 16 || st.HourlyRate != 0 {
		t.Errorf("spent %d rate %v; want 16, 0", st.SessionSpent, st.HourlyRate)
	}
	st = s.Stats(wed.Add(30 * time.Minute))
	// 4 + 8 dated in the first 30 min: 24 an hour.
	if math.Abs(st.HourlyRate-24) > 1e-9 {
		t.Errorf("rate after 30 min = %v, want 24", st.HourlyRate)
	}
	if st.PointsUsed != api.Some[int64](1008) || st.PointsLeft != api.Some[int64](8992) {
		t.Errorf("points = %v / %v, want 1008 / 8992", st.PointsUsed, st.PointsLeft)
	}
	if d, ok := s.Next(FeedChain, pastDate(liveCond), wed, wed.Add(time.Hour)); ok {
		t.Errorf("Spend disturbed the chain: historical Next = %v, true", d)
	}
}

// TestSchedulerBalanceOutOfOrder: replies booked out of the order the
// service charged them keep the newest balance (the most used within one
// second of the service's clock), and a later second may reset it.
func TestSchedulerBalanceOutOfOrder(t *testing.T) {
	at := func(resp *api.Response, date string) *api.Response {
		resp.Header = http.Header{"Date": {date}}
		return resp
	}
	const sec = "Wed, 25 Nov 2026 15:00:00 GMT"
	s := NewScheduler(DefaultBudget())
	s.Observe(FeedChain, at(charged(3, api.Some[int64](27), api.Some[int64](473)), sec), nil, wed)
	s.Observe(FeedTape, at(charged(3, api.Some[int64](33), api.Some[int64](467)), sec), nil, wed)
	s.Observe(FeedCalendar, at(charged(3, api.Some[int64](30), api.Some[int64](470)), sec), nil, wed)
	if st := s.Stats(wed); st.SessionSpent != 9 || st.PointsLeft != api.Some[int64](467) || st.PointsUsed != api.Some[int64](33) {
		t.Fatalf("spent %d, used %v, left %v: want 9, 33 and 467 (the newest balance)", st.SessionSpent, st.PointsUsed, st.PointsLeft)
	}
	// The next day the trial's allowance starts again.
	s.Observe(FeedChain, at(charged(3, api.Some[int64](3), api.Some[int64](497)), "Thu, 26 Nov 2026 15:00:01 GMT"), nil, wed)
	if st := s.Stats(wed); st.PointsLeft != api.Some[int64](497) {
		t.Fatalf("left %v after a reset, want 497", st.PointsLeft)
	}
}

// TestSchedulerDaySpent: the points of a trading day (Eastern) are
// counted apart from the session's, polling and points spent outside
// alike, and start from nothing on the next day; an undated booking
// counts in the day held.
func TestSchedulerDaySpent(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 100})
	s.Spend(charged(3, api.Int{}, api.Int{})) // before any clock
	s.Observe(FeedChain, charged(4, api.Int{}, api.Int{}), nil, wed)
	s.OutsideAt(charged(150, api.Int{}, api.Int{}), wed.Add(time.Hour))
	if st := s.Stats(wed.Add(2 * time.Hour)); st.DaySpent != 157 || st.SessionSpent != 157 {
		t.Fatalf("day %d, session %d; want 157, 157", st.DaySpent, st.SessionSpent)
	}
	thu := wed.Add(24 * time.Hour)
	if st := s.Stats(thu); st.DaySpent != 0 || st.SessionSpent != 157 {
		t.Fatalf("the next day: day %d, session %d; want 0, 157", st.DaySpent, st.SessionSpent)
	}
	s.OutsideAt(charged(30, api.Int{}, api.Int{}), thu)
	s.Outside(charged(5, api.Int{}, api.Int{})) // at the latest time seen: still Wednesday's clock
	if st := s.Stats(thu); st.DaySpent != 35 || st.SessionSpent != 192 {
		t.Fatalf("thursday: day %d, session %d; want 35, 192", st.DaySpent, st.SessionSpent)
	}
}
