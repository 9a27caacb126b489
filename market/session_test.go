package feed

import (
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
	if got := afterHours(at(25, 16, 5), at(25, 20, 0), api.Live); !got.Equal(at(27, 9, 30)) {
		t.Errorf("afterHours over Thanksgiving = %v, want Friday 09:30", got)
	}
	// On Friday the closing state is 13:00's.
	if got := afterHours(at(27, 12, 59), at(27, 13, 5), api.Live); !got.Equal(at(27, 13, 5)) {
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
