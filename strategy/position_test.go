package strategy

import (
	"testing"
	"time"

	"chainwatch/api"
)

// TestMarkExpiredPosition: an open position whose leg expired before
// today is not marked, and says so in a few words (the positions page's
// status column is 13 cells): not "SPY +1 C699 2026-11-24 is not listed;
// the nearest listed is …" cut to "SPY +1 C699 …", nor "no quote yet"
// while its chain, which no longer lists the leg, is on its way.
func TestMarkExpiredPosition(t *testing.T) {
	st := legsOf(t, "SPY 2026-11-24 +C699@0.6 -C700@0.25")
	pos, err := FromSaved(Saved(1, &st, []float64{0.6, 0.25}, testNow))
	if err != nil {
		t.Fatal(err)
	}
	saturday := time.Date(2026, 11, 28, 11, 0, 0, 0, api.Eastern)
	chain := &api.SymbolWithOptions{Underlying: api.Underlying{Symbol: "SPY"}}
	for _, chains := range []map[string]*api.SymbolWithOptions{{"SPY": chain}, {}} {
		mk := Mark([]Position{pos}, chains, saturday)[0]
		if mk.OK || mk.Err != "expired Nov24" {
			t.Errorf("%d chains: marked %v, err %q; want expired Nov24", len(chains), mk.OK, mk.Err)
		}
	}
	// On its expiry day it is still marked from the chain.
	if mk := Mark([]Position{pos}, map[string]*api.SymbolWithOptions{"SPY": chain}, testNow)[0]; mk.Err == "expired Nov24" {
		t.Errorf("on its expiry day: %q", mk.Err)
	}
}
