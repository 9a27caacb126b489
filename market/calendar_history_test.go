package market_test

import (
	"testing"

	"chainwatch/market"
	"chainwatch/market/caltest"
)

// TestCalendarIsTheExchangesHistory holds the trading calendar to the
// NYSE's published record (market/caltest/testdata/nyse-sessions.tsv, its
// sources in its header), every day of every year it covers: whether the
// exchange held a session, when that session closed, and that a day
// without one says why.
func TestCalendarIsTheExchangesHistory(t *testing.T) {
	h := caltest.NYSE(t)
	days, bad := 0, 0
	for d := h.From; d <= h.To && bad < 20; d = d.AddDays(1) {
		want := h.On(d)
		days++
		if got := market.IsTradingDay(d); got != want.Trading {
			bad++
			t.Errorf("%s (%s): IsTradingDay %v, the exchange's record %v (%s)", d, d.Weekday(), got, want.Trading, want.Why)
			continue
		}
		if !want.Trading {
			if market.ClosedReason(d) == "" {
				t.Errorf("%s (%s) has no session and no reason", d, want.Why)
			}
			continue
		}
		if got := market.SessionClose(d); got != want.Close {
			bad++
			t.Errorf("%s (%s): SessionClose %v, the exchange's record %v (%s)", d, d.Weekday(), got, want.Close, want.Why)
		}
	}
	if days < 365*20 {
		t.Fatalf("checked %d days from %s to %s", days, h.From, h.To)
	}
	t.Logf("%d days from %s to %s, %d listed", days, h.From, h.To, h.Len())
}
