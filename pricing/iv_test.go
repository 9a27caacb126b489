package pricing

import (
	"math"
	"testing"
)

// ivGrid is wider than greekGrid: underlyings from 1 to 6,000 dollars,
// expiries from one minute to ten years, vols across the search range.
func ivGrid(f func(p Params)) {
	for _, S := range []float64{1, 100, 6000} {
		for _, m := range []float64{0.3, 0.5, 0.7, 0.85, 0.95, 0.99, 1, 1.01, 1.05, 1.2, 1.5, 2, 3} {
			for _, T := range []float64{MinT, 1.0 / 365 / 24, 1.0 / 365, 7.0 / 365, 30.0 / 365, 0.25, 1, 3, 10} {
				for _, v := range []float64{0.0002, 0.01, 0.05, 0.15, 0.3, 0.6, 1.0, 1.5, 3, 4.9} {
					for _, q := range []float64{0, 0.03} {
						for _, call := range []bool{true, false} {
							f(Params{S: S * m, K: S, T: T, R: 0.045, Q: q, Vol: v, Call: call})
						}
					}
				}
			}
		}
	}
}

// TestImpliedVolRoundTrip: every price strictly inside the no-arbitrage
// bounds inverts, to the contract's price tolerance; where the price is
// sensitive enough to vol to determine it, the vol comes back within 1e-6.
func TestImpliedVolRoundTrip(t *testing.T) {
	inverted, determined := 0, 0
	ivGrid(func(p Params) {
		price := Price(p)
		lo, hi := Bounds(p)
		iv, ok := ImpliedVol(price, p)
		if !(price > lo && price < hi) {
			// Time value lost to rounding: the price is its bound.
			if ok {
				t.Errorf("%+v: price %v at bound [%v, %v] inverted to %v", p, price, lo, hi, iv)
			}
			return
		}
		if !ok {
			t.Errorf("%+v: price %v inside (%v, %v) did not invert", p, price, lo, hi)
			return
		}
		inverted++
		q := p
		q.Vol = iv
		if d := math.Abs(Price(q) - price); d > 1e-10*math.Max(1, price) {
			t.Errorf("%+v: residual %v at iv %v", p, d, iv)
		}
		// Non-degenerate: a vol error of 1e-6 moves the price well above
		// the price tolerance.
		_, g := Compute(p)
		if g.Vega*100*1e-6 < 1e-9*math.Max(1, price) {
			return
		}
		determined++
		if math.Abs(iv-p.Vol) > 1e-6 {
			t.Errorf("%+v: iv %v, want %v", p, iv, p.Vol)
		}
	})
	if inverted < 8000 || determined < 5000 {
		t.Errorf("only %d inverted, %d determined", inverted, determined)
	}
}

// TestImpliedVolCents: a price rounded to the cent, as a quote is,
// inverts to a vol off by about the rounding over the vega.
func TestImpliedVolCents(t *testing.T) {
	checked := 0
	greekGrid(func(p Params) {
		exact, g := Compute(p)
		rounded := math.Round(exact*100) / 100
		lo, hi := Bounds(p)
		if !(rounded > lo && rounded < hi) {
			return
		}
		iv, ok := ImpliedVol(rounded, p)
		if !ok {
			t.Errorf("%+v: rounded price %v did not invert", p, rounded)
			return
		}
		vega := g.Vega * 100 // per unit of vol
		if vega < 0.05 {
			return // a cent moves the vol by more than 0.2: not informative
		}
		checked++
		// First order |d vol| = |d price| / vega; allow for the curvature.
		want := math.Abs(rounded-exact) / vega
		if d := math.Abs(iv - p.Vol); d > 1.5*want+1e-8 {
			t.Errorf("%+v: iv %v from %v (exact %v): off by %v, expected about %v", p, iv, rounded, exact, d, want)
		}
	})
	if checked < 600 {
		t.Errorf("only %d checked", checked)
	}
}

func TestImpliedVolRejects(t *testing.T) {
	call := Params{S: 110, K: 100, T: 0.5, R: 0.05, Q: 0.01, Call: true}
	lo, hi := Bounds(call)
	put := call
	put.Call = false
	plo, phi := Bounds(put)
	cases := []struct {
		name  string
		price float64
		p     Params
	}{
		{"below intrinsic", lo - 0.01, call},
		{"at intrinsic", lo, call},
		{"at upper", hi, call},
		{"above upper", hi + 1, call},
		{"put at intrinsic", plo, put},
		{"put above strike", phi + 0.01, put},
		{"zero", 0, put},
		{"negative", -1, call},
		{"NaN", math.NaN(), call},
		{"Inf", math.Inf(1), call},
		{"expired", 10, Params{S: 110, K: 100, Call: true}},
		{"no underlying", 1, Params{K: 100, T: 1}},
		{"NaN rate", 15, Params{S: 110, K: 100, T: 0.5, R: math.NaN(), Call: true}},
		// Inside the bounds, but the vol is beyond MaxIV or below MinIV.
		{"vol above range", Price(Params{S: 100, K: 100, T: 0.5, Vol: 6, Call: true}), Params{S: 100, K: 100, T: 0.5, Call: true}},
		{"vol below range", Price(Params{S: 100, K: 100, T: 0.5, Vol: 5e-5, Call: true}), Params{S: 100, K: 100, T: 0.5, Call: true}},
		{"infinite rate", 15, Params{S: 110, K: 100, T: 0.5, R: math.Inf(1), Call: true}},
	}
	for _, c := range cases[len(cases)-3 : len(cases)-1] {
		if lo, hi := Bounds(c.p); !(c.price > lo && c.price < hi) {
			t.Fatalf("%s: price %v not inside the bounds (%v, %v)", c.name, c.price, lo, hi)
		}
	}
	for _, c := range cases {
		if v, ok := ImpliedVol(c.price, c.p); ok || v != 0 {
			t.Errorf("%s: ImpliedVol(%v, %+v) = %v, %v; want 0, false", c.name, c.price, c.p, v, ok)
		}
	}
	// Just inside the bounds still inverts.
	if _, ok := ImpliedVol(lo+0.01, call); !ok {
		t.Errorf("just above intrinsic did not invert")
	}
}

// The vol in p is ignored.
func TestImpliedVolIgnoresVol(t *testing.T) {
	p := Params{S: 100, K: 90, T: 0.3, R: 0.04, Q: 0.02, Vol: 0.35}
	price := Price(p)
	for _, v := range []float64{0, -1, 0.35, 4, math.NaN()} {
		q := p
		q.Vol = v
		if iv, ok := ImpliedVol(price, q); !ok || !near(iv, 0.35, 1e-9) {
			t.Errorf("with Vol %v: %v %v", v, iv, ok)
		}
	}
}
