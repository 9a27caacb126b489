package pricing

import (
	"math"
	"testing"
)

// TestAmericanValueIsTheJets: the value alone (what quotes use) is the
// value the jets carry, to rounding, wherever the trigger is in reach.
func TestAmericanValueIsTheJets(t *testing.T) {
	n := 0
	americanGrid(func(p Params) {
		plain, j := americanValue(p), americanJet(p)
		if d := math.Abs(plain - j.v); d > 1e-12*math.Max(p.K, plain) {
			t.Errorf("%+v: value %v, jets %v", p, plain, j.v)
		}
		if !far(p) {
			n++
		}
	})
	if n < 500 {
		t.Errorf("only %d options with the trigger in reach", n)
	}
}
