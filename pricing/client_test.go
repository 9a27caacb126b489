package pricing

import (
	"math"
	"testing"
)

// TestGammaShapeIsComputesGamma: the zero-gamma search's gamma (a
// Gaussian walked in log spot) is the European model's at no rate and no
// dividend, for every spot, strike, time and IV of a grid.
func TestGammaShapeIsComputesGamma(t *testing.T) {
	n := 0
	for _, k := range []float64{50, 400, 5000} {
		for _, years := range []float64{1e-7, 1.0 / 365, 0.25, 2} {
			for _, vol := range []float64{0.05, 0.3, 1.5} {
				g, ok := GammaShapeOf(k, years, vol)
				if !ok {
					t.Fatalf("GammaShapeOf(%v, %v, %v) has no shape", k, years, vol)
				}
				for _, m := range []float64{0.8, 0.97, 1, 1.04, 1.3} {
					s := k * m
					_, gr := Compute(Params{S: s, K: k, T: years, Vol: vol, Call: true})
					want := gr.Gamma
					if got := g.At(s); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Errorf("K %v T %v IV %v S %v: shape %g, greeks %g", k, years, vol, s, got, want)
					}
					n++
				}
			}
		}
	}
	for _, bad := range [][3]float64{{0, 1, 0.2}, {100, 0, 0.2}, {100, 1, 0}, {100, 1, math.Inf(1)}, {100, 1, math.NaN()}} {
		if _, ok := GammaShapeOf(bad[0], bad[1], bad[2]); ok {
			t.Errorf("GammaShapeOf%v has a shape, want none", bad)
		}
	}
	if n != 180 {
		t.Fatalf("checked %d points", n)
	}
}
