package feed

import (
	"chainwatch/api"
	"testing"
	"time"
)

func TestTapeStart(t *testing.T) {
	live := Query{Symbol: "SPY", Mode: api.Live}
	delayed := Query{Symbol: "SPY", Mode: api.Delayed}
	past := Query{Symbol: "SPY", Date: api.NewDate(2026, 11, 18)}
	evening := time.Date(2026, 11, 20, 18, 0, 0, 0, api.Eastern)
	for _, tc := range []struct {
		q    Query
		now  time.Time
		want api.TimeOfDay
	}{
		{live, testNow, api.NewTimeOfDay(11, 15, 0, 0)},
		{delayed, testNow, api.NewTimeOfDay(11, 0, 0, 0)},
		{past, testNow, api.NewTimeOfDay(15, 45, 0, 0)},
		{live, evening, api.NewTimeOfDay(15, 45, 0, 0)},
		// The Saturday after Thanksgiving: Friday closed at 13:00.
		{live, time.Date(2026, 11, 28, 11, 0, 0, 0, api.Eastern), api.NewTimeOfDay(12, 45, 0, 0)},
		{delayed, time.Date(2026, 11, 27, 13, 5, 0, 0, api.Eastern), api.NewTimeOfDay(12, 45, 0, 0)},
	} {
		if got := TapeStart(tc.q, ShownDay(tc.q, tc.now), tc.now); got != tc.want {
			t.Errorf("%+v at %s: %s, want %s", tc.q, tc.now, got, tc.want)
		}
	}
}

// TestShownDay: a live screen before the open or on a weekend shows the
// last session's trades; a chosen day is that day.
func TestShownDay(t *testing.T) {
	live := Query{Symbol: "SPY", Mode: api.Live}
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, api.Eastern) }
	for _, tc := range []struct {
		q    Query
		now  time.Time
		want api.Date
	}{
		{live, at(20, 11, 30), api.NewDate(2026, 11, 20)},                                   // Friday, open
		{live, at(20, 18, 0), api.NewDate(2026, 11, 20)},                                    // Friday evening: today's session
		{live, at(21, 12, 0), api.NewDate(2026, 11, 20)},                                    // Saturday: Friday
		{live, at(22, 12, 0), api.NewDate(2026, 11, 20)},                                    // Sunday: Friday
		{live, at(23, 8, 0), api.NewDate(2026, 11, 20)},                                     // Monday before the open: Friday
		{live, at(24, 9, 29), api.NewDate(2026, 11, 23)},                                    // Tuesday before the open: Monday
		{live, at(24, 9, 30), api.NewDate(2026, 11, 24)},                                    // the open
		{live, at(26, 12, 0), api.NewDate(2026, 11, 25)},                                    // Thanksgiving: Wednesday
		{live, at(27, 9, 0), api.NewDate(2026, 11, 25)},                                     // Friday before the open: Wednesday
		{Query{Symbol: "SPY", Mode: api.Delayed}, at(24, 9, 40), api.NewDate(2026, 11, 23)}, // delayed data still before the open
		{Query{Symbol: "SPY", Date: api.NewDate(2026, 11, 18)}, at(21, 12, 0), api.NewDate(2026, 11, 18)},
	} {
		if got := ShownDay(tc.q, tc.now); got != tc.want {
			t.Errorf("%+v at %s: %s, want %s", tc.q, tc.now, got, tc.want)
		}
	}
}

// testNow is the sandbox tests' clock: Friday 2026-11-20, 11:30 Eastern.
var testNow = time.Date(2026, 11, 20, 11, 30, 0, 0, api.Eastern)
