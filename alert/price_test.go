package alert

import "testing"

// TestPriceText: a price in an event's text keeps its cents (x 0.10, not
// x 0.1), and its sub-penny decimals when it has them.
func TestPriceText(t *testing.T) {
	for v, want := range map[float64]string{0.1: "0.10", 700: "700.00", 2.5: "2.50", 0.0525: "0.0525", 12.34: "12.34", 0: "0.00"} {
		if got := price(v); got != want {
			t.Errorf("price(%v) = %q, want %q", v, got, want)
		}
	}
	r := Rule{Name: "b", Kind: KindBlock}
	ev := Event{Contract: "SPY261120C00700000", Size: 1000, Price: 0.1, Premium: cents(0.1 * 1000 * 100)}
	if got, want := ev.text(&r), "SPY261120C00700000 block 1,000 x 0.10 ($10,000) at "; got[:len(want)] != want {
		t.Errorf("text %q, want %q…", got, want)
	}
	if p := cents(582.92 * 100); p != 58292 {
		t.Errorf("cents %v", p)
	}
}
