package market

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNiceIsTheNearestStep: nice, comparing the two increments around x,
// picks what comparing every increment picks (the first of the nearest
// in ratio), at the increments, a hair either side, their geometric
// midpoints, beyond both ends, over a random spread of sizes, and for
// values that are not positive numbers.
func TestNiceIsTheNearestStep(t *testing.T) {
	every := func(x float64) float64 {
		best := niceSteps[0]
		for _, s := range niceSteps {
			if math.Abs(math.Log(s/x)) < math.Abs(math.Log(best/x)) {
				best = s
			}
		}
		return best
	}
	xs := []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 1e300, 0.01, 1e6}
	for i, s := range niceSteps {
		xs = append(xs, s, math.Nextafter(s, 0), math.Nextafter(s, math.Inf(1)))
		if i > 0 {
			m := math.Sqrt(s * niceSteps[i-1])
			xs = append(xs, m, math.Nextafter(m, 0), math.Nextafter(m, math.Inf(1)))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200_000 {
		xs = append(xs, math.Exp(-4+14*rng.Float64()))
	}
	for _, x := range xs {
		if got, want := nice(x), every(x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("nice(%v) = %v, the nearest of every increment is %v", x, got, want)
		}
	}
}
