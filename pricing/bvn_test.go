package pricing

import (
	"math"
	"testing"
)

func TestGaussLegendre(t *testing.T) {
	x, w := gaussLegendre(bvnNodes)
	// An n-point rule integrates polynomials up to degree 2n-1 exactly.
	for deg := 0; deg < 2*bvnNodes; deg++ {
		var got float64
		for i := range x {
			got += w[i] * math.Pow(x[i], float64(deg))
		}
		want := 0.0
		if deg%2 == 0 {
			want = 2 / float64(deg+1)
		}
		if !near(got, want, 1e-14) {
			t.Errorf("degree %d: %v, want %v", deg, got, want)
		}
	}
}

// upperRef is P(X > h, Y > k; r) by Simpson's rule on
// integral over x > h of n(x) N((r x - k)/sqrt(1-r^2)), fine enough for
// 1e-13: an independent computation of what bvn approximates.
func upperRef(h, k, r float64) float64 {
	lo, hi := math.Max(h, -12), 12.0
	if lo >= hi {
		return 0
	}
	const n = 20000
	dx := (hi - lo) / n
	s := math.Sqrt(1 - r*r)
	f := func(x float64) float64 { return NormPDF(x) * NormCDF((r*x-k)/s) }
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(lo+float64(i)*dx)
	}
	return sum * dx / 3
}

// TestBVN checks both correlations against the reference (to 1e-12), and
// the derivatives against the closed forms (to 1e-11 and 1e-10): d/dh P(X > h, Y > k) =
// -n(h) N((r h - k)/sqrt(1-r^2)), and the second derivative in h.
func TestBVN(t *testing.T) {
	for _, d := range []*bvn{&bvnPlus, &bvnMinus} {
		s := math.Sqrt(1 - d.r*d.r)
		for h := -7.0; h <= 7; h += 0.7 {
			for k := -7.0; k <= 7; k += 0.7 {
				a := newArg(jet{v: h, x: 1})
				got := d.upper(&a, jet{v: k})
				if want := upperRef(h, k, d.r); !near(got.v, want, 1e-12) {
					t.Errorf("r %v: P(X > %v, Y > %v) = %v, want %v", d.r, h, k, got.v, want)
				}
				z := (d.r*h - k) / s
				if dh := -NormPDF(h) * NormCDF(z); !near(got.x, dh, 1e-11) {
					t.Errorf("r %v (%v, %v): d/dh %v, want %v", d.r, h, k, got.x, dh)
				}
				dhh := h*NormPDF(h)*NormCDF(z) - NormPDF(h)*NormPDF(z)*d.r/s
				if !near(got.xx, dhh, 1e-10) {
					t.Errorf("r %v (%v, %v): d2/dh2 %v, want %v", d.r, h, k, got.xx, dhh)
				}
			}
		}
	}
}
