package market

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
)

// TestSessionFollowsTheCalendar: holidays have no session, early closes
// end at 13:00, and the budget's hours and the after-hours wake-up both
// skip them.
func TestSessionFollowsTheCalendar(t *testing.T) {
	at := func(d, h, m int) time.Time { return eastern(2026, time.November, d, h, m) }
	open := map[time.Time]bool{
		at(26, 11, 0):                            false, // Thanksgiving
		at(27, 12, 59):                           true,  // the day after: early close
		at(27, 13, 0):                            false,
		at(25, 15, 59):                           true,
		eastern(2026, time.December, 24, 13, 30): false, // Christmas Eve closes at 13:00
		eastern(2026, time.July, 3, 11, 0):       false, // Independence Day observed
	}
	for now, want := range open {
		if got := MarketOpen(now); got != want {
			t.Errorf("MarketOpen(%v) = %v, want %v", now, got, want)
		}
	}
	// Nov 30 alone is left after Friday the 27th's 3.5 h.
	if got := TradingHoursLeftInMonth(at(27, 8, 0)); got != 3.5+6.5 {
		t.Errorf("TradingHoursLeftInMonth(Nov 27 08:00) = %v, want 10", got)
	}
	// Fetched after Wednesday's close: the next fetch is Friday's open.
	if got := AfterHours(at(25, 16, 5), at(25, 20, 0), api.Live); !got.Equal(at(27, 9, 30)) {
		t.Errorf("AfterHours over Thanksgiving = %v, want Friday 09:30", got)
	}
	// On Friday the closing state is 13:00's.
	if got := AfterHours(at(27, 12, 59), at(27, 13, 5), api.Live); !got.Equal(at(27, 13, 5)) {
		t.Errorf("a fetch before the early close should refetch now, got %v", got)
	}
	if got := NextOpen(at(26, 12, 0), api.Delayed); !got.Equal(at(27, 9, 45)) {
		t.Errorf("NextOpen delayed on Thanksgiving = %v, want Friday 09:45", got)
	}
}

func TestPauseText(t *testing.T) {
	at := func(d, h, m int) time.Time { return eastern(2026, time.November, d, h, m) }
	cases := []struct {
		now  time.Time
		mode api.Mode
		want string
	}{
		{at(24, 20, 10), api.Live, "paused until 09:30 ET (in 13h20m)"},
		{at(25, 8, 0), api.Live, "paused until 09:30 ET (in 1h30m)"},
		{at(25, 20, 0), api.Live, "paused until Fri 09:30 ET (in 1d13h)"}, // over Thanksgiving
		{at(20, 16, 5), api.Delayed, "paused until Mon 09:45 ET (in 2d17h)"},
		{at(24, 9, 40), api.Delayed, "paused until 09:45 ET (in 5m)"},
	}
	for _, c := range cases {
		if got := PauseText(c.now, c.mode); got != c.want {
			t.Errorf("PauseText(%v, %s) = %q, want %q", c.now, c.mode, got, c.want)
		}
	}
}

func TestMarketOpen(t *testing.T) {
	tests := []struct {
		now  time.Time
		want bool
	}{
		{eastern(2026, time.March, 11, 9, 29).Add(59 * time.Second), false},
		{eastern(2026, time.March, 11, 9, 30), true},
		{eastern(2026, time.March, 11, 15, 59).Add(59 * time.Second), true},
		{eastern(2026, time.March, 11, 16, 0), false},
		{eastern(2026, time.March, 13, 12, 0), true},                     // Friday
		{eastern(2026, time.March, 14, 12, 0), false},                    // Saturday
		{eastern(2026, time.March, 15, 12, 0), false},                    // Sunday
		{time.Date(2026, time.March, 11, 14, 0, 0, 0, time.UTC), true},   // 10:00 EDT
		{time.Date(2026, time.January, 7, 14, 0, 0, 0, time.UTC), false}, // 09:00 EST
	}
	for _, tc := range tests {
		if got := MarketOpen(tc.now); got != tc.want {
			t.Errorf("MarketOpen(%v) = %v, want %v", tc.now, got, tc.want)
		}
	}
}

func TestTradingHoursLeftInMonth(t *testing.T) {
	tests := []struct {
		name string
		now  time.Time
		want float64
	}{
		{"mid-month weekday noon: 4 + 14 x 6.5", eastern(2026, time.March, 11, 12, 0), 95},
		{"mid-month weekday before open: 15 x 6.5", eastern(2026, time.March, 11, 8, 0), 97.5},
		{"same instant in UTC", time.Date(2026, time.March, 11, 16, 0, 0, 0, time.UTC), 95},
		{"last day 15:00", eastern(2026, time.June, 30, 15, 0), 1},
		{"last day after close: floor", eastern(2026, time.June, 30, 17, 0), 0.5},
		{"july in UTC, still june 30 in Eastern", time.Date(2026, time.July, 1, 2, 0, 0, 0, time.UTC), 0.5},
		{"weekend mid-month: 12 weekdays", eastern(2026, time.March, 14, 12, 0), 78},
		{"weekend ending the month: floor", eastern(2026, time.January, 31, 12, 0), 0.5},
		{"friday before it: 4 h", eastern(2026, time.January, 30, 12, 0), 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TradingHoursLeftInMonth(tc.now); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("TradingHoursLeftInMonth(%v) = %v, want %v", tc.now, got, tc.want)
			}
		})
	}
}

func eastern(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, api.Eastern)
}
