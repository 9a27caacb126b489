package market

import (
	"chainwatch/api"
	"math"
	"testing"
	"time"
)

// TestExpiryTimeIsTheSessionClose: an option stops trading at its day's
// close, 13:00 on the day after Thanksgiving, and T counts down to it in
// ACT/365 years; a strategy's curves and the zero-gamma search both read
// T from here, so they cannot disagree about an early close.
func TestExpiryTimeIsTheSessionClose(t *testing.T) {
	for _, c := range []struct {
		d    api.Date
		hour int
	}{{api.NewDate(2026, 11, 27), 13}, {api.NewDate(2026, 11, 30), 16}, {api.NewDate(2026, 12, 24), 13}} {
		want := time.Date(c.d.Year(), c.d.Month(), c.d.Day(), c.hour, 0, 0, 0, api.Eastern)
		if got := ExpiryTime(c.d); !got.Equal(want) {
			t.Errorf("%s expires %s, want %s", c.d, got, want)
		}
	}
	morning := time.Date(2026, 11, 27, 10, 0, 0, 0, api.Eastern)
	if got, want := YearsTo(api.NewDate(2026, 11, 27), morning), 3.0/24/DaysPerYear; math.Abs(got-want) > 1e-12 {
		t.Errorf("10:00 on an early close: T %g, want three hours, %g", got, want)
	}
	if got := YearsTo(api.NewDate(2026, 11, 26), morning); got >= 0 {
		t.Errorf("an expired option's T %g, want negative", got)
	}
}
