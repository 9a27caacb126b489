package tas_test

import (
	"context"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/sandbox/market"
	"chainwatch/tas"
)

// TestSweepsOfASandboxDay reads the page, SPY's 699 call on its
// expiry day (2026-11-24), from the sandbox over 127.0.0.1, and holds the
// sweeps found to the rule: each is one side and two or more exchanges,
// its prints adjacent in sequence within the window. The simulated market
// prints every intermarket sweep order (condition ISO) as such a run and
// nothing else like one, so the flags are exactly the ISO prints, where
// the one-second rule had flagged a fifth of the day (203 of 1,041 prints).
// (sandbox/sim's sweep tests hold whole days of every contract the same
// way.)
func TestSweepsOfASandboxDay(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 30, 0, 0, api.Eastern)
	client := modeltest.StartSandbox(t, sandbox.Config{Now: func() time.Time { return now }})
	recs, _, err := client.OptionTradesWithGreeks(context.Background(), api.OptionTradesWithGreeksParams{
		Symbol: "SPY261124C00699000", Date: "2026-11-24", MinTime: "00:00:00.000", MaxTime: "23:59:59.999",
		Limit: api.Ptr(10000), Mode: api.Live,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 200 {
		t.Fatalf("%d trades: the test needs a busy contract", len(recs))
	}
	trades := make([]tas.Trade, len(recs))
	for i := range recs {
		trades[i] = tas.FromGreeks(&recs[i])
	}
	in, sweeps, _ := tas.InSweep(trades)

	// Each flagged run (adjacent flagged prints) is a sweep by the rule.
	flagged := 0
	for i := 0; i < len(trades); {
		if !in[i] {
			i++
			continue
		}
		j := i + 1
		for j < len(trades) && in[j] && trades[j].Seq == trades[j-1].Seq+1 && tas.SideOf(trades[j].At) == tas.SideOf(trades[i].At) &&
			trades[j].Time-trades[i].Time <= api.TimeOfDay(config.SweepWindow.Milliseconds()) {
			j++
		}
		exch := map[uint8]bool{}
		for k := i; k < j; k++ {
			exch[trades[k].Exchange] = true
			if sd := tas.SideOf(trades[k].At); sd != tas.SideBid && sd != tas.SideAsk {
				t.Errorf("seq %d flagged, printed %s", trades[k].Seq, trades[k].At)
			}
		}
		if j-i < 2 || len(exch) < 2 {
			t.Errorf("seq %d..%d flagged: %d prints on %d exchanges", trades[i].Seq, trades[j-1].Seq, j-i, len(exch))
		}
		flagged += j - i
		i = j
	}

	// Every ISO run of one side on two or more exchanges is found.
	iso, isoPrints := 0, 0
	for i := 0; i < len(trades); {
		if trades[i].Condition != market.CondSweep {
			i++
			continue
		}
		j := i + 1
		for j < len(trades) && trades[j].Condition == market.CondSweep && trades[j].Seq == trades[j-1].Seq+1 {
			j++
		}
		exch, sides := map[uint8]bool{}, map[tas.Side]bool{}
		for k := i; k < j; k++ {
			exch[trades[k].Exchange] = true
			sides[tas.SideOf(trades[k].At)] = true
		}
		if len(exch) >= 2 && len(sides) == 1 && (sides[tas.SideBid] || sides[tas.SideAsk]) {
			iso++
			isoPrints += j - i
			for k := i; k < j; k++ {
				if !in[k] && trades[k].Counts() {
					t.Errorf("seq %d, of an ISO sweep on %d exchanges, is not flagged", trades[k].Seq, len(exch))
				}
			}
		}
		i = j
	}
	if iso == 0 || sweeps != iso || flagged != isoPrints {
		t.Errorf("%d sweeps (%d prints of %d), %d ISO sweeps (%d prints)", sweeps, flagged, len(trades), iso, isoPrints)
	}
	t.Logf("%d trades: %d sweeps of %d prints; %d ISO sweeps", len(trades), sweeps, flagged, iso)
}
