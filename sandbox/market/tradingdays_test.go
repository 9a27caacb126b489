package market

import (
	"fmt"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

func TestDayNumbersRoundTrip(t *testing.T) {
	for n := -800; n < horizon+800; n++ {
		d := dateOf(n)
		if !d.Valid() || dayNum(d) != n {
			t.Fatalf("day %d: %v -> %d", n, d, dayNum(d))
		}
		if want := d.Time(time.UTC).Weekday(); weekdayOf(n) != want {
			t.Fatalf("%v: weekday %v, want %v", d, weekdayOf(n), want)
		}
	}
	if dayNum(20000101) != 0 || dateOf(0) != 20000101 {
		t.Fatal("2000-01-01 is not day 0")
	}
}

func TestRate(t *testing.T) {
	cases := map[api.Date][2]float64{
		20030505: {0.009, 0.013}, 20121015: {0, 0.002}, 20190601: {0.019, 0.024},
		20231103: {0.05, 0.054}, 20240920: {0.05, 0.054}, Anchor: {0.036, 0.04}, 20990101: {0.02, 0.05},
	}
	for d, r := range cases {
		if got := Rate(d); got < r[0] || got > r[1] {
			t.Errorf("Rate(%v) = %v, want in %v", d, got, r)
		}
	}
}

// TestCalendarIsAPIs: the calendar's bits, filled as days are asked for
// (here from the end, by four goroutines at once), say what
// market.IsTradingDay says of every day of the horizon and nothing outside.
func TestCalendarIsAPIs(t *testing.T) {
	errs := make(chan string, 8) // an error and the done of each
	for g := range 4 {
		go func() {
			defer func() { errs <- "" }()
			for n := horizon - 1 - g; n >= 0; n -= 4 {
				if got, want := isTrading(n), market.IsTradingDay(dateOf(n)); got != want {
					errs <- fmt.Sprintf("%v: isTrading %v, api %v", dateOf(n), got, want)
					return
				}
			}
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
	if isTrading(-1) || isTrading(horizon) || !isTrading(dayNum(Anchor)) {
		t.Error("the horizon's edges or the anchor day")
	}
}
