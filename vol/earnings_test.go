package vol

import (
	"math"
	"testing"

	"chainwatch/api"
)

// TestEventMoveByHand: the report's move is what its expiry's variance
// holds over the expiry before's rate, as a straddle-like mean move.
func TestEventMoveByHand(t *testing.T) {
	// 0.40² - 0.25² = 0.0975; x 73/365 = 0.0195; √ = 0.1396424;
	// x √(2/π) = 0.7978846 x 0.1396424 = 0.1114185153
	near(t, "event", EventMove(0.25, 0.40, 73.0/365), 0.1114185153)
	near(t, "no event priced", EventMove(0.30, 0.28, 0.2), 0)
}

// TestImpliedMoveEvent: the expiries either side of an AMC report on
// Thursday Jan 28 (it trades Friday Jan 29): Jan 22 before, Jan 29 after;
// an expiry before with no ATM IV is passed over for the one before it.
func TestImpliedMoveEvent(t *testing.T) {
	next := api.EarningsEvent{ReportDate: api.NewDate(2027, 1, 28), TimeOfDay: api.AfterClose}
	figs := []Figures{
		{Date: api.NewDate(2027, 1, 15), DTE: 10, ATMIV: 0.30, Move: 5},
		{Date: api.NewDate(2027, 1, 22), DTE: 17, ATMIV: math.NaN(), Move: math.NaN()},
		{Date: api.NewDate(2027, 1, 29), DTE: 24, ATMIV: 0.45, Move: 19},
	}
	im, ok := ImpliedMove(next, figs, 200)
	if !ok || im.Expiry != api.NewDate(2027, 1, 29) || im.Before != api.NewDate(2027, 1, 15) {
		t.Fatalf("implied %+v %v", im, ok)
	}
	near(t, "straddle", im.MovePct, 0.095)
	want := EventMove(0.30, 0.45, 24.0/365)
	near(t, "event", im.EventPct, want)
	near(t, "event points", im.Event, want*200)
	if !(im.EventPct < im.MovePct) {
		t.Errorf("event %v not under the straddle %v", im.EventPct, im.MovePct)
	}
	// No expiry before the news: the straddle alone.
	im, ok = ImpliedMove(next, figs[2:], 200)
	if !ok || im.Before != 0 || !math.IsNaN(im.EventPct) {
		t.Errorf("without an expiry before: %+v", im)
	}
}

// TestMissingAndBackfillDays: the reports without a realized move, and
// the sessions a backfill needs to store the closes around the oldest.
func TestMissingAndBackfillDays(t *testing.T) {
	reports := []api.EarningsEvent{
		{ReportDate: api.NewDate(2026, 10, 29), TimeOfDay: api.AfterClose},
		{ReportDate: api.NewDate(2026, 7, 30), TimeOfDay: api.BeforeOpen},
	}
	moves := []EarningsMove{{Date: api.NewDate(2026, 10, 29), MovePct: 0.02}}
	miss := Missing(reports, moves)
	if len(miss) != 1 || miss[0].ReportDate != api.NewDate(2026, 7, 30) {
		t.Fatalf("missing %+v", miss)
	}
	// A BMO report on Thu Jul 30 trades that day: the close before is
	// Wed Jul 29's. From Jul 29 to Fri Nov 20 (today Mon Nov 23): Jul 29,
	// 30, 31 (3), August's 21, September's 21 (Labor Day shut), October's
	// 22, November 2-20's 15 = 82 sessions.
	if n := BackfillDays(miss, api.NewDate(2026, 11, 23)); n != 82 {
		t.Errorf("backfill days %d, want 82", n)
	}
}
