package pricing

import (
	"fmt"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestNormCDF(t *testing.T) {
	cases := []struct{ x, want float64 }{
		{0, 0.5},
		{1.96, 0.9750021048517795},
		{-1.96, 0.024997895148220435},
		{-10, 7.619853024160527e-24}, // relative accuracy in the far tail
		{8, 1 - 6.22096057427178e-16},
	}
	for _, c := range cases {
		if got := NormCDF(c.x); math.Abs(got-c.want) > 1e-14*math.Abs(c.want) {
			t.Errorf("NormCDF(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := NormPDF(0); !near(got, 0.3989422804014327, 1e-16) {
		t.Errorf("NormPDF(0) = %v", got)
	}
}

// Textbook values: Hull (no dividend) and Haug (with a dividend yield).
func TestPriceReference(t *testing.T) {
	cases := []struct {
		p    Params
		want float64
	}{
		{Params{S: 42, K: 40, T: 0.5, R: 0.1, Vol: 0.2, Call: true}, 4.759422392871532},
		{Params{S: 42, K: 40, T: 0.5, R: 0.1, Vol: 0.2}, 0.8085993729000922},
		{Params{S: 100, K: 95, T: 0.5, R: 0.1, Q: 0.05, Vol: 0.2}, 2.4648},
	}
	for _, c := range cases {
		if got := Price(c.p); !near(got, c.want, 1e-4) {
			t.Errorf("Price(%+v) = %v, want %v", c.p, got, c.want)
		}
	}
}

func TestPutCallParity(t *testing.T) {
	for _, q := range []float64{0, 0.03} {
		for _, m := range []float64{0.5, 0.9, 1, 1.1, 2} {
			for _, T := range []float64{1.0 / 365, 0.25, 3} {
				c := Params{S: 100 * m, K: 100, T: T, R: 0.045, Q: q, Vol: 0.3, Call: true}
				p := c
				p.Call = false
				lhs := Price(c) - Price(p)
				rhs := c.S*math.Exp(-q*T) - c.K*math.Exp(-c.R*T)
				if !near(lhs, rhs, 1e-10*c.S) {
					t.Errorf("parity %+v: C-P = %v, want %v", c, lhs, rhs)
				}
			}
		}
	}
}

// greekGrid walks moneyness, expiry (1 day to 3 years), vol, dividend
// yield and call/put.
func greekGrid(f func(p Params)) {
	for _, m := range []float64{0.5, 0.7, 0.85, 0.95, 1, 1.05, 1.2, 1.5, 2} {
		for _, T := range []float64{1.0 / 365, 7.0 / 365, 30.0 / 365, 0.25, 1, 3} {
			for _, v := range []float64{0.05, 0.15, 0.3, 0.6, 1.0, 1.5} {
				for _, q := range []float64{0, 0.03} {
					for _, call := range []bool{true, false} {
						f(Params{S: 100 * m, K: 100, T: T, R: 0.045, Q: q, Vol: v, Call: call})
					}
				}
			}
		}
	}
}

// TestGreeksFiniteDifferences checks every greek against a central finite
// difference of Price in the conventions' units, to 1 %.
func TestGreeksFiniteDifferences(t *testing.T) {
	checked := 0
	greekGrid(func(p Params) {
		price, g := Compute(p)
		if want := Price(p); price != want {
			t.Errorf("%+v: Compute price %v != Price %v", p, price, want)
		}
		// Steps scaled to the width of the distribution, so one-day
		// options are not differenced across their whole gamma.
		hS := 1e-3 * p.S * p.Vol * math.Sqrt(p.T)
		at := func(f func(*Params)) float64 { q := p; f(&q); return Price(q) }
		fd := [5]float64{
			(at(func(q *Params) { q.S += hS }) - at(func(q *Params) { q.S -= hS })) / (2 * hS),
			(at(func(q *Params) { q.S += hS }) - 2*price + at(func(q *Params) { q.S -= hS })) / (hS * hS),
			(at(func(q *Params) { q.Vol += 1e-5 }) - at(func(q *Params) { q.Vol -= 1e-5 })) / 2e-5 * 0.01,
			-(at(func(q *Params) { q.T += 1e-4 * p.T }) - at(func(q *Params) { q.T -= 1e-4 * p.T })) / (2e-4 * p.T) / 365,
			(at(func(q *Params) { q.R += 1e-6 }) - at(func(q *Params) { q.R -= 1e-6 })) / 2e-6 * 0.01,
		}
		got := [5]float64{g.Delta, g.Gamma, g.Vega, g.Theta, g.Rho}
		// Below these magnitudes a greek is noise of the differencing
		// (prices of 100-dollar underlyings carry ~1e-14 rounding).
		floor := [5]float64{1e-6, 1e-6, 1e-6, 1e-6, 1e-6}
		names := [5]string{"delta", "gamma", "vega", "theta", "rho"}
		for i := range got {
			if math.Abs(got[i]) < floor[i] {
				continue
			}
			checked++
			if math.Abs(fd[i]-got[i]) > 0.01*math.Abs(got[i]) {
				t.Errorf("%s %+v: analytic %.10g, finite difference %.10g", names[i], p, got[i], fd[i])
			}
		}
	})
	if checked < 4000 {
		t.Errorf("only %d greeks checked", checked)
	}
}

func TestGreekSigns(t *testing.T) {
	greekGrid(func(p Params) {
		_, g := Compute(p)
		if p.Call && (g.Delta < 0 || g.Delta > 1) || !p.Call && (g.Delta > 0 || g.Delta < -1) {
			t.Errorf("delta %v out of range for %+v", g.Delta, p)
		}
		if g.Gamma < 0 || g.Vega < 0 {
			t.Errorf("negative gamma/vega %+v for %+v", g, p)
		}
		if p.Call && g.Rho < 0 || !p.Call && g.Rho > 0 {
			t.Errorf("rho sign %v for %+v", g.Rho, p)
		}
	})
	// A long at-the-money option loses value as a day passes.
	_, g := Compute(Params{S: 100, K: 100, T: 0.25, R: 0.045, Vol: 0.3, Call: true})
	if g.Theta >= 0 {
		t.Errorf("ATM call theta %v, want negative", g.Theta)
	}
}

func TestExpired(t *testing.T) {
	cases := []struct {
		p     Params
		price float64
		delta float64
	}{
		{Params{S: 110, K: 100, Call: true}, 10, 1},
		{Params{S: 90, K: 100, Call: true}, 0, 0},
		{Params{S: 100, K: 100, Call: true}, 0, 0.5},
		{Params{S: 90, K: 100, T: -1}, 10, -1},
		{Params{S: 110, K: 100}, 0, 0},
		{Params{S: 100, K: 100}, 0, -0.5},
	}
	for _, c := range cases {
		c.p.Vol = 0.3
		price, g := Compute(c.p)
		if price != c.price || g != (Greeks{Delta: c.delta}) {
			t.Errorf("%+v: price %v greeks %+v, want %v delta %v", c.p, price, g, c.price, c.delta)
		}
		if Price(c.p) != c.price {
			t.Errorf("Price(%+v) = %v", c.p, Price(c.p))
		}
	}
}

func TestZeroVol(t *testing.T) {
	p := Params{S: 110, K: 100, T: 1, R: 0.05, Q: 0.02, Call: true}
	price, g := Compute(p)
	want := 110*math.Exp(-0.02) - 100*math.Exp(-0.05)
	if !near(price, want, 1e-12) || !near(g.Delta, math.Exp(-0.02), 1e-15) || g.Gamma != 0 || g.Vega != 0 {
		t.Errorf("zero vol ITM call: %v %+v", price, g)
	}
	// Theta and rho are those of the deterministic value.
	dt := -(Price(Params{S: 110, K: 100, T: 1.001, R: 0.05, Q: 0.02, Call: true}) - price) / 0.001 / 365
	if !near(g.Theta, dt, 1e-4*math.Abs(dt)) {
		t.Errorf("zero vol theta %v, finite difference %v", g.Theta, dt)
	}
	p.Call = false
	if price, g := Compute(p); price != 0 || g != (Greeks{}) {
		t.Errorf("zero vol OTM put: %v %+v", price, g)
	}
	// The small-vol limit agrees with the zero-vol value.
	p.Call, p.Vol = true, 1e-6
	if got := Price(p); !near(got, want, 1e-9) {
		t.Errorf("vol 1e-6 price %v, want %v", got, want)
	}
}

// Greeks under a minute to expiry are those at one minute; the price is
// not floored.
func TestTinyT(t *testing.T) {
	p := Params{S: 100, K: 100, T: MinT / 60, R: 0.045, Vol: 0.3, Call: true}
	price, g := Compute(p)
	q := p
	q.T = MinT
	_, gm := Compute(q)
	if g != gm {
		t.Errorf("greeks at %v: %+v, want those at MinT %+v", p.T, g, gm)
	}
	if price != Price(p) || price >= Price(q) {
		t.Errorf("price %v, Price %v, at MinT %v", price, Price(p), Price(q))
	}
	for _, x := range []float64{g.Delta, g.Gamma, g.Vega, g.Theta, g.Rho} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("non-finite greek %+v", g)
		}
	}
}

func TestBoundsAndHelpers(t *testing.T) {
	if got := Forward(100, 2, 0.05, 0.02); !near(got, 100*math.Exp(0.06), 1e-12) {
		t.Errorf("Forward = %v", got)
	}
	if got := Discount(2, 0.05); !near(got, math.Exp(-0.1), 1e-15) {
		t.Errorf("Discount = %v", got)
	}
	greekGrid(func(p Params) {
		lo, hi := Bounds(p)
		if v := Price(p); v < lo || v > hi {
			t.Errorf("%+v: price %v outside [%v, %v]", p, v, lo, hi)
		}
	})
}

func ExampleCompute() {
	price, g := Compute(Params{S: 100, K: 100, T: 30.0 / 365, R: 0.045, Q: 0.01, Vol: 0.25, Call: true})
	fmt.Printf("price %.4f delta %.4f gamma %.4f vega %.4f theta %.4f rho %.4f\n",
		price, g.Delta, g.Gamma, g.Vega, g.Theta, g.Rho)
	// Output:
	// price 2.9981 delta 0.5298 gamma 0.0555 vega 0.1139 theta -0.0522 rho 0.0411
}
