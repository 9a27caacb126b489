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

// TestFirstLiveDayAndDaysLeft: on the Saturday after an early close the
// first live expiry is Monday's, and Dec 18 is as many days away wherever
// it is counted (from Friday's data: 21).
func TestFirstLiveDayAndDaysLeft(t *testing.T) {
	sat := time.Date(2026, 11, 28, 11, 0, 0, 0, api.Eastern)
	if got := FirstLiveDay(0, sat); got != api.NewDate(2026, 11, 28) {
		t.Errorf("FirstLiveDay on Saturday: %s", got)
	}
	if got := FirstLiveDay(api.NewDate(2026, 11, 20), sat); got != api.NewDate(2026, 11, 20) {
		t.Errorf("FirstLiveDay of a chosen day: %s", got)
	}
	for _, mode := range []api.Mode{api.Live, api.Delayed} {
		if n := DaysLeft(0, mode, sat, api.NewDate(2026, 12, 18)); n != 21 {
			t.Errorf("%v: Dec 18 is %d days away, want 21", mode, n)
		}
	}
	open := time.Date(2026, 12, 1, 11, 0, 0, 0, api.Eastern)
	if n := DaysLeft(0, api.Live, open, api.NewDate(2026, 12, 18)); n != 17 {
		t.Errorf("in session: %d days, want 17", n)
	}
}
