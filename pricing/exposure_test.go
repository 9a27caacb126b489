package pricing

import (
	"math"
	"testing"
)

// exposureCases are European options from a minute-and-a-half to a year
// out, in and out of the money, with and without carry.
var exposureCases = []Params{
	{S: 6000, K: 6000, T: 30.0 / 365, R: 0.04, Q: 0.013, Vol: 0.16, Call: true},
	{S: 6000, K: 5800, T: 30.0 / 365, R: 0.04, Q: 0.013, Vol: 0.19},
	{S: 600, K: 650, T: 1, R: 0.045, Q: 0.012, Vol: 0.22, Call: true},
	{S: 600, K: 560, T: 0.5, R: 0, Q: 0, Vol: 0.3},
	{S: 6000, K: 6010, T: 90.0 / 60 / 24 / 365, R: 0.04, Q: 0.013, Vol: 0.12},
	{S: 210, K: 205, T: 7.0 / 365, R: 0.04, Q: 0.05, Vol: 0.45, Call: true},
}

// TestVannaCharmAreDeltaDifferences: vanna is Compute's delta differenced
// over a vol point, charm its delta differenced over a day passing.
func TestVannaCharmAreDeltaDifferences(t *testing.T) {
	delta := func(p Params) float64 { _, g := Compute(p); return g.Delta }
	for _, p := range exposureCases {
		vanna, charm := VannaCharm(p)
		h := 1e-4
		up, dn := p, p
		up.Vol, dn.Vol = p.Vol+h, p.Vol-h
		wantVanna := (delta(up) - delta(dn)) / (2 * h) * 0.01
		dt := min(p.T/100, 1.0/365/24)
		later, earlier := p, p
		later.T, earlier.T = p.T-dt, p.T+dt
		wantCharm := (delta(later) - delta(earlier)) / (2 * dt) / DaysPerYear
		if math.Abs(vanna-wantVanna) > 1e-6*math.Max(math.Abs(wantVanna), 1e-3) {
			t.Errorf("%+v: vanna %v, differenced %v", p, vanna, wantVanna)
		}
		if math.Abs(charm-wantCharm) > 1e-4*math.Max(math.Abs(wantCharm), 1e-4) {
			t.Errorf("%+v: charm %v, differenced %v", p, charm, wantCharm)
		}
	}
}

// TestVannaCharmDegenerate: nothing moves a settled option's delta, nor
// one without volatility.
func TestVannaCharmDegenerate(t *testing.T) {
	for _, p := range []Params{{S: 100, K: 100, T: 0, Vol: 0.2}, {S: 100, K: 100, T: 1, Vol: 0}, {S: 0, K: 100, T: 1, Vol: 0.2}} {
		if v, c := VannaCharm(p); v != 0 || c != 0 {
			t.Errorf("%+v: vanna %v charm %v", p, v, c)
		}
	}
}

// TestGammaCurveIsComputesGamma: the curve is Compute's gamma at every
// spot, with the option's carry, down to a minute from expiry.
func TestGammaCurveIsComputesGamma(t *testing.T) {
	for _, p := range exposureCases {
		g, ok := GammaCurveOf(p)
		if !ok {
			t.Fatalf("%+v: no curve", p)
		}
		for _, m := range []float64{0.85, 0.97, 1, 1.02, 1.15} {
			q := p
			q.S = p.S * m
			_, want := Compute(q)
			if got := g.At(q.S); math.Abs(got-want.Gamma) > 1e-10*math.Max(want.Gamma, 1e-6) {
				t.Errorf("%+v at %v: curve %v, Compute %v", p, q.S, got, want.Gamma)
			}
		}
	}
	if _, ok := GammaCurveOf(Params{K: 100, T: 1}); ok {
		t.Error("a curve without volatility")
	}
}

// BenchmarkVannaCharm is one contract's vanna and charm: the positioning
// figures take it for every contract with open interest.
func BenchmarkVannaCharm(b *testing.B) {
	p := exposureCases[0]
	var s float64
	for b.Loop() {
		v, c := VannaCharm(p)
		s += v + c
	}
	_ = s
}
