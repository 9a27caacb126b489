package market

import (
	"testing"

	"chainwatch/market"
	"chainwatch/market/caltest"
)

// TestCalendarIsTheExchangesHistory holds the sandbox's calendar to the
// NYSE's published record (market/caltest), every day of every year it
// covers: the day table the paths and expiries walk, every day; and the
// sessions the market simulates (an SPX day exists exactly on a trading
// day, its path runs from 09:30 to the record's close, 13:00 on an early
// close) on every day the record lists and the days either side of it,
// and on the first of every month (building every day's path takes
// seconds, and a day the record does not list is built the same way).
func TestCalendarIsTheExchangesHistory(t *testing.T) {
	h := caltest.NYSE(t)
	u := Default()
	spx, ok := u.Lookup("SPX")
	if !ok || spx.Since > h.From {
		t.Fatalf("SPX is not listed from %s", h.From)
	}
	bad := 0
	for d := h.From; d <= h.To && bad < 20; d = d.AddDays(1) {
		want := h.On(d)
		if got := isTrading(dayNum(d)); got != want.Trading {
			bad++
			t.Errorf("%s: the day table says trading %v, the exchange's record %v (%s)", d, got, want.Trading, want.Why)
		}
		if !h.Listed(d) && !h.Listed(d.AddDays(1)) && !h.Listed(d.AddDays(-1)) && d.Day() != 1 {
			continue
		}
		day, ok := u.Day(spx, d)
		switch {
		case ok != want.Trading:
			bad++
			t.Errorf("%s: SPX has a session %v, the exchange's record %v (%s)", d, ok, want.Trading, want.Why)
		case ok && (day.CloseTime != want.Close || len(day.path) != int(want.Close-market.SessionOpen)/1000):
			bad++
			t.Errorf("%s: SPX's session ends %v after %d seconds, the exchange's record %v (%s)", d, day.CloseTime, len(day.path), want.Close, want.Why)
		}
	}
}
