package pricing_test

import (
	"testing"

	"chainwatch/pricing"
)

// BenchmarkImpliedCarry is one American expiry's carry (SPY-like, two
// weeks out, strikes a dollar apart), what a strategy's market solves
// per leg series when its chain changes.
func BenchmarkImpliedCarry(b *testing.B) {
	var strikes []float64
	for k := 680.0; k <= 725; k++ {
		strikes = append(strikes, k)
	}
	quotes := chainAt(702.5, 14.0/365, 0.038, 0.0115, true, strikes)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := pricing.ImpliedCarry(702.5, 14.0/365, true, quotes); !ok {
			b.Fatal("not ok")
		}
	}
}
