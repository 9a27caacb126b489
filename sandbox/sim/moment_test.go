package sim

import (
	"errors"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

func TestMoment(t *testing.T) {
	close := func(d api.Date) api.TimeOfDay { return market.SessionClose(d) }
	cases := []struct {
		name string
		now  time.Time
		mode api.Mode
		date api.Date
		want Moment
	}{
		{"live mid-session", et(2026, 11, 20, 12, 0), api.Live, 20261120,
			Moment{Date: 20261120, Time: api.NewTimeOfDay(12, 0, 0, 0), Requested: 20261120}},
		{"delayed 15 minutes", et(2026, 11, 20, 12, 0), api.Delayed, 20261120,
			Moment{Date: 20261120, Time: api.NewTimeOfDay(11, 45, 0, 0), Requested: 20261120}},
		{"delayed floored at midnight", et(2026, 11, 20, 0, 10), api.Delayed, 20261120,
			Moment{Date: 20261120, Time: 0, Requested: 20261120}},
		{"before the open stays today", et(2026, 11, 20, 8, 0), api.Live, 20261120,
			Moment{Date: 20261120, Time: api.NewTimeOfDay(8, 0, 0, 0), Requested: 20261120}},
		{"after the close stays today", et(2026, 11, 20, 19, 30), api.Live, 20261120,
			Moment{Date: 20261120, Time: api.NewTimeOfDay(19, 30, 0, 0), Requested: 20261120}},
		{"weekend today shows Friday's close", et(2026, 11, 21, 10, 0), api.Live, 20261121,
			Moment{Date: 20261120, Time: close(20261120), Requested: 20261121}},
		{"holiday today shows the day before", et(2026, 11, 26, 10, 0), api.Delayed, 20261126,
			Moment{Date: 20261125, Time: close(20261125), Requested: 20261126}},
		{"historical weekday", et(2026, 11, 20, 12, 0), api.Live, 20261118,
			Moment{Date: 20261118, Time: close(20261118), Historical: true, Requested: 20261118}},
		{"historical weekend", et(2026, 11, 20, 12, 0), api.Live, 20261115,
			Moment{Date: 20261113, Time: close(20261113), Historical: true, Requested: 20261115}},
		{"historical holiday", et(2026, 12, 1, 12, 0), api.Live, 20261126,
			Moment{Date: 20261125, Time: close(20261125), Historical: true, Requested: 20261126}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Config{Now: func() time.Time { return c.now }})
			got, err := m.Moment(c.mode, c.date)
			if err != nil || got != c.want {
				t.Errorf("Moment(%s, %v) = %+v, %v; want %+v", c.mode, c.date, got, err, c.want)
			}
		})
	}
	m := New(Config{Now: func() time.Time { return et(2026, 11, 20, 23, 59) }})
	if _, err := m.Moment(api.Live, 20261121); !errors.Is(err, ErrFutureDate) {
		t.Errorf("tomorrow: err = %v, want ErrFutureDate", err)
	}
}

// TestMomentEarlyClose: the day after Thanksgiving closes at 13:00, and a
// historical request sees that close.
func TestMomentEarlyClose(t *testing.T) {
	m := at(2026, time.December, 1, 12, 0)
	got, err := m.Moment(api.Live, 20261127)
	if err != nil {
		t.Fatal(err)
	}
	if want := api.NewTimeOfDay(13, 0, 0, 0); got.Time != want || got.Date != 20261127 {
		t.Errorf("Moment(2026-11-27) = %+v, want the 13:00 close", got)
	}
}

// TestPreOpenAndClosedState: before the open the underlying is at the
// previous close with no close field; after the close the close is there.
func TestPreOpenAndClosedState(t *testing.T) {
	pre := at(2026, time.November, 20, 8, 0)
	mo, _ := pre.Moment(api.Live, 20261120)
	s, ok := pre.Symbol("AAPL", mo)
	if !ok {
		t.Fatal("no AAPL")
	}
	if s.Close.Valid || s.LastTradePrice != s.PrevDayClose || s.Volume.V != 0 {
		t.Errorf("pre-open AAPL: close %v last %v prev %v volume %v", s.Close, s.LastTradePrice, s.PrevDayClose, s.Volume)
	}
	if s.Timestamp != mo.Time {
		t.Errorf("pre-open timestamp %v, want %v", s.Timestamp, mo.Time)
	}
	post := at(2026, time.November, 20, 18, 0)
	mo, _ = post.Moment(api.Live, 20261120)
	s, _ = post.Symbol("AAPL", mo)
	if !s.Close.Valid || s.Timestamp != market.SessionClose(20261120) || !s.ImpliedUnderlyingMid.Valid {
		t.Errorf("after the close: close %v timestamp %v implied %v", s.Close, s.Timestamp, s.ImpliedUnderlyingMid)
	}
	hist, _ := post.Moment(api.Live, 20261119)
	s, _ = post.Symbol("AAPL", hist)
	if s.ImpliedUnderlyingMid.Valid || s.ImpliedUnderlyingIndicator.Valid || !s.Close.Valid {
		t.Errorf("historical: implied %v indicator %v close %v", s.ImpliedUnderlyingMid, s.ImpliedUnderlyingIndicator, s.Close)
	}
}

func et(y int, mo time.Month, d, h, mi int) time.Time {
	return time.Date(y, mo, d, h, mi, 0, 0, api.Eastern)
}
