package api

import (
	"math"
	"testing"
)

// TestSpot follows the ladder's order: last trade, quote mid, bid/ask,
// implied mid; NaN when none is known.
func TestSpot(t *testing.T) {
	var u Underlying
	if got := u.Spot(); !math.IsNaN(got) {
		t.Fatalf("none: %v", got)
	}
	for _, step := range []struct {
		name string
		set  func()
		want float64
	}{
		{"implied", func() { u.ImpliedUnderlyingMid = Some(99.0) }, 99},
		{"bid/ask", func() { u.Bid, u.Ask = Some(100.0), Some(100.2) }, 100.1},
		{"mid", func() { u.Mid = Some(100.05) }, 100.05},
		{"last", func() { u.LastTradePrice = Some(100.3) }, 100.3},
	} {
		step.set()
		got, implied := u.SpotImplied()
		if math.Abs(got-step.want) > 1e-9 || u.Spot() != got || implied != (step.name == "implied") {
			t.Fatalf("%s: %v (implied %v), want %v", step.name, got, implied, step.want)
		}
	}
}
