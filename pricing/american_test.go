package pricing

import (
	"math"
	"testing"
)

// americanGrid walks moneyness, expiry (an hour to two years), vol,
// dividend yield (none, AAPL's, SPY's, a high one) and call/put.
func americanGrid(f func(p Params)) {
	for _, m := range []float64{0.6, 0.8, 0.9, 0.97, 1, 1.03, 1.1, 1.25, 1.6} {
		for _, T := range []float64{1.0 / 365 / 24, 1.0 / 365, 7.0 / 365, 30.0 / 365, 0.25, 1, 2} {
			for _, v := range []float64{0.05, 0.15, 0.3, 0.8} {
				for _, q := range []float64{0, 0.0037, 0.0115, 0.06} {
					for _, call := range []bool{true, false} {
						f(Params{S: 100 * m, K: 100, T: T, R: 0.038, Q: q, Vol: v, Call: call, American: true})
					}
				}
			}
		}
	}
}

// bs2002Ref is the Bjerksund-Stensland 2002 call as Haug's book writes it,
// in plain float64 with upperRef for the bivariate normal: an independent
// transcription to hold the jet implementation to.
func bs2002Ref(S, K, T, r, b, v float64) float64 {
	phi := func(S, T, g, H, I float64) float64 {
		lam := (-r + g*b + 0.5*g*(g-1)*v*v) * T
		d := -(math.Log(S/H) + (b+(g-0.5)*v*v)*T) / (v * math.Sqrt(T))
		kap := 2*b/(v*v) + 2*g - 1
		return math.Exp(lam) * math.Pow(S, g) * (NormCDF(d) - math.Pow(I/S, kap)*NormCDF(d-2*math.Log(I/S)/(v*math.Sqrt(T))))
	}
	ksi := func(S, T2, g, H, I2, I1, t1 float64) float64 {
		m := b + (g-0.5)*v*v
		s1, s2 := v*math.Sqrt(t1), v*math.Sqrt(T2)
		e1 := (math.Log(S/I1) + m*t1) / s1
		e2 := (math.Log(I2*I2/(S*I1)) + m*t1) / s1
		e3 := (math.Log(S/I1) - m*t1) / s1
		e4 := (math.Log(I2*I2/(S*I1)) - m*t1) / s1
		f1 := (math.Log(S/H) + m*T2) / s2
		f2 := (math.Log(I2*I2/(S*H)) + m*T2) / s2
		f3 := (math.Log(I1*I1/(S*H)) + m*T2) / s2
		f4 := (math.Log(S*I1*I1/(H*I2*I2)) + m*T2) / s2
		rho := math.Sqrt(t1 / T2)
		lam := -r + g*b + 0.5*g*(g-1)*v*v
		kap := 2*b/(v*v) + 2*g - 1
		// M(-e, -f, rho) = P(X > e, Y > f).
		return math.Exp(lam*T2) * math.Pow(S, g) * (upperRef(e1, f1, rho) - math.Pow(I2/S, kap)*upperRef(e2, f2, rho) -
			math.Pow(I1/S, kap)*upperRef(e3, f3, -rho) + math.Pow(I1/I2, kap)*upperRef(e4, f4, -rho))
	}
	t1 := 0.5 * (math.Sqrt(5) - 1) * T
	beta := (0.5 - b/(v*v)) + math.Sqrt(math.Pow(b/(v*v)-0.5, 2)+2*r/(v*v))
	bInf := beta / (beta - 1) * K
	b0 := math.Max(K, r/(r-b)*K)
	h1 := -(b*t1 + 2*v*math.Sqrt(t1)) * K * K / ((bInf - b0) * b0)
	h2 := -(b*T + 2*v*math.Sqrt(T)) * K * K / ((bInf - b0) * b0)
	I1 := b0 + (bInf-b0)*(1-math.Exp(h1))
	I2 := b0 + (bInf-b0)*(1-math.Exp(h2))
	a1 := (I1 - K) * math.Pow(I1, -beta)
	a2 := (I2 - K) * math.Pow(I2, -beta)
	if S >= I2 {
		return S - K
	}
	return a2*math.Pow(S, beta) - a2*phi(S, t1, beta, I2, I2) + phi(S, t1, 1, I2, I2) - phi(S, t1, 1, I1, I2) -
		K*phi(S, t1, 0, I2, I2) + K*phi(S, t1, 0, I1, I2) + a1*phi(S, t1, beta, I1, I2) - a1*ksi(S, T, beta, I1, I2, I1, t1) +
		ksi(S, T, 1, I1, I2, I1, t1) - ksi(S, T, 1, K, I2, I1, t1) - K*ksi(S, T, 0, I1, I2, I1, t1) + K*ksi(S, T, 0, K, I2, I1, t1)
}

// TestBS2002Formula holds the formula (where the trigger is in reach) to
// the reference transcription, puts through the put-call transformation.
func TestBS2002Formula(t *testing.T) {
	checked := 0
	for _, p := range []Params{
		{S: 42, K: 40, T: 0.75, R: 0.04, Q: 0.08, Vol: 0.35, Call: true},
		{S: 100, K: 110, T: 1, R: 0.04, Vol: 0.2},
		{S: 705, K: 710, T: 0.05, R: 0.038, Q: 0.0115, Vol: 0.16},
		{S: 705, K: 800, T: 2, R: 0.038, Q: 0.0115, Vol: 0.15},
		{S: 705, K: 400, T: 2, R: 0.038, Q: 0.0115, Vol: 0.15, Call: true},
		{S: 280, K: 300, T: 0.4, R: 0.038, Q: 0.0037, Vol: 0.3},
		{S: 95, K: 100, T: 3, R: 0.05, Q: 0.1, Vol: 0.5, Call: true},
	} {
		S, K, r, b := p.S, p.K, p.R, p.R-p.Q
		if !p.Call {
			S, K, r, b = p.K, p.S, p.Q, p.Q-p.R
		}
		want := bs2002Ref(S, K, p.T, r, b, p.Vol)
		c := callOf(p)
		if got := c.value().v; !near(got, want, 1e-9*K) {
			t.Errorf("%+v: %v, reference %v", p, got, want)
		}
		checked++
	}
	// Haug's example (S 42, K 40, T 0.75, r 4 %, b -4 %, vol 35 %): the
	// two-step formula is above the one-step (1993) value 5.2704 and below
	// the true American value 5.31 (a fine tree).
	v := Price(Params{S: 42, K: 40, T: 0.75, R: 0.04, Q: 0.08, Vol: 0.35, Call: true, American: true})
	if !(v > 5.2704 && v < 5.31) {
		t.Errorf("Haug's example: %v", v)
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// treePrice is the American value on a Cox-Ross-Rubinstein tree of n steps.
func treePrice(p Params, n int) float64 {
	dt := p.T / float64(n)
	u := math.Exp(p.Vol * math.Sqrt(dt))
	disc := math.Exp(-p.R * dt)
	pu := (math.Exp((p.R-p.Q)*dt) - 1/u) / (u - 1/u)
	pay := func(s float64) float64 {
		if p.Call {
			return math.Max(s-p.K, 0)
		}
		return math.Max(p.K-s, 0)
	}
	v := make([]float64, n+1)
	for i := range v {
		v[i] = pay(p.S * math.Pow(u, float64(2*i-n)))
	}
	for j := n - 1; j >= 0; j-- {
		for i := 0; i <= j; i++ {
			v[i] = math.Max(disc*(pu*v[i+1]+(1-pu)*v[i]), pay(p.S*math.Pow(u, float64(2*i-j))))
		}
	}
	return v[0]
}

// TestAmericanVsTree: on the sandbox's kind of options (SPY's and AAPL's
// yields, vols of 12 % to 30 %, up to two years) the formula is a lower
// bound of the American value of a fine tree and within 3 % of it (its
// largest shortfalls: two-year puts).
func TestAmericanVsTree(t *testing.T) {
	if testing.Short() {
		t.Skip("trees")
	}
	for _, m := range []float64{0.85, 1, 1.15} {
		for _, T := range []float64{7.0 / 365, 0.25, 2} {
			for _, v := range []float64{0.12, 0.3} {
				for _, q := range []float64{0.0037, 0.0115} {
					for _, call := range []bool{true, false} {
						p := Params{S: 100 * m, K: 100, T: T, R: 0.038, Q: q, Vol: v, Call: call, American: true}
						tree := (treePrice(p, 400) + treePrice(p, 401)) / 2
						got := Price(p)
						if got > tree*(1+2e-3)+5e-4 || got < tree*(1-0.03)-0.01 {
							t.Errorf("%+v: %v, tree %v", p, got, tree)
						}
					}
				}
			}
		}
	}
}

// TestAmericanBounds: never below the European value nor the intrinsic
// value, never above the spot (a call) or the strike (a put); a call on a
// name without dividends is its European twin.
func TestAmericanBounds(t *testing.T) {
	americanGrid(func(p Params) {
		a := Price(p)
		e := p
		e.American = false
		eu := Price(e)
		lo, hi := Bounds(p)
		if a < eu-1e-12*p.K || a < intrinsic(p) || a > hi || a < lo {
			t.Errorf("%+v: %v, European %v, bounds [%v, %v]", p, a, eu, lo, hi)
		}
		if p.Call && p.Q == 0 && a != eu {
			t.Errorf("%+v: %v, European %v", p, a, eu)
		}
		if math.IsNaN(a) || math.IsInf(a, 0) {
			t.Errorf("%+v: %v", p, a)
		}
	})
}

// TestFarIsEuropean: where far says the trigger is out of reach, the
// formula is worth the European value to within farReach of the strike.
func TestFarIsEuropean(t *testing.T) {
	n := 0
	americanGrid(func(p Params) {
		if !far(p) || (p.Call && p.Q == 0) {
			return
		}
		n++
		c := callOf(p)
		if d := math.Abs(c.value().v - europeanJet(p).v); d > 10*farReach*p.K {
			t.Errorf("%+v: far, but the formula is %v from the European value", p, d)
		}
	})
	if n < 100 {
		t.Errorf("only %d far options", n)
	}
}

// TestAmericanGreeks: the greeks (derivatives carried through the formula)
// agree with central differences of the price, away from the kink at the
// exercise trigger.
func TestAmericanGreeks(t *testing.T) {
	checked := 0
	americanGrid(func(p Params) {
		price, g := Compute(p)
		if price != Price(p) {
			t.Errorf("%+v: Compute %v, Price %v", p, price, Price(p))
		}
		h := 1e-2 * p.S * p.Vol * math.Sqrt(p.T)
		at := func(f func(*Params)) float64 { q := p; f(&q); return Price(q) }
		up, dn := at(func(q *Params) { q.S += h }), at(func(q *Params) { q.S -= h })
		up2, dn2 := at(func(q *Params) { q.S += 2 * h }), at(func(q *Params) { q.S -= 2 * h })
		g1, g2 := (up-2*price+dn)/(h*h), (up2-2*price+dn2)/(4*h*h)
		if math.Abs(g1-g2) > 1e-2*math.Abs(g1)+1e-6 {
			return // a kink within the steps
		}
		fd := [5]float64{
			(up - dn) / (2 * h),
			g1,
			(at(func(q *Params) { q.Vol += 1e-5 }) - at(func(q *Params) { q.Vol -= 1e-5 })) / 2e-5 * 0.01,
			-(at(func(q *Params) { q.T += 1e-5 * p.T }) - at(func(q *Params) { q.T -= 1e-5 * p.T })) / (2e-5 * p.T) / DaysPerYear,
			(at(func(q *Params) { q.R += 1e-6 }) - at(func(q *Params) { q.R -= 1e-6 })) / 2e-6 * 0.01,
		}
		got := [5]float64{g.Delta, g.Gamma, g.Vega, g.Theta, g.Rho}
		names := [5]string{"delta", "gamma", "vega", "theta", "rho"}
		for i := range got {
			if math.Abs(got[i]) < 1e-5 || math.Abs(fd[i]) < 1e-5 {
				continue
			}
			checked++
			if math.Abs(fd[i]-got[i]) > 2e-3*math.Abs(got[i]) {
				t.Errorf("%s %+v: %.10g, finite difference %.10g", names[i], p, got[i], fd[i])
			}
		}
	})
	if checked < 3000 {
		t.Errorf("only %d greeks checked", checked)
	}
}

// TestAmericanImpliedVol: every price the formula gives back inverts to
// its vol (where the price determines it), and ImpliedVolFrom, started
// half a spread away, finds the same vol with the greeks there.
func TestAmericanImpliedVol(t *testing.T) {
	inverted := 0
	americanGrid(func(p Params) {
		price, _ := Compute(p)
		lo, hi := Bounds(p)
		if !(price > lo+1e-9*p.K && price < hi) {
			return
		}
		iv, ok := ImpliedVol(price, p)
		if !ok {
			t.Errorf("%+v: %v did not invert", p, price)
			return
		}
		q := p
		q.Vol = iv
		if d := math.Abs(Price(q) - price); d > 1e-9*math.Max(1, price) {
			t.Errorf("%+v: residual %v at iv %v", p, d, iv)
		}
		inverted++
		// From a quote a cent off, and back.
		s := p
		s.Vol = p.Vol * 1.02
		v, g := Compute(s)
		iv2, g2, ok := ImpliedVolFrom(price, s, v, g)
		if !ok || math.Abs(iv2-iv) > 1e-7*math.Max(1, 1/(q.Vol)) && math.Abs(Price(withVol(p, iv2))-price) > 1e-9*math.Max(1, price) {
			t.Errorf("%+v: from %v: %v %v, ImpliedVol %v", p, s.Vol, iv2, ok, iv)
			return
		}
		_, gw := Compute(withVol(p, iv2))
		if !closeGreeks(g2, gw, 1e-5) {
			t.Errorf("%+v: greeks %+v, at the iv %+v", p, g2, gw)
		}
	})
	if inverted < 1000 {
		t.Errorf("only %d inverted", inverted)
	}
}

func withVol(p Params, v float64) Params { p.Vol = v; return p }

// closeGreeks compares greeks to tol relative (1e-6 absolute).
func closeGreeks(a, b Greeks, tol float64) bool {
	x := [5]float64{a.Delta, a.Gamma, a.Vega, a.Theta, a.Rho}
	y := [5]float64{b.Delta, b.Gamma, b.Vega, b.Theta, b.Rho}
	for i := range x {
		if math.Abs(x[i]-y[i]) > tol*math.Abs(y[i])+1e-6 {
			return false
		}
	}
	return true
}

// TestAmericanEdges: expired, no vol, a vol so small or large that the
// formula's exponents overflow, and less than a minute to expiry.
func TestAmericanEdges(t *testing.T) {
	put := Params{S: 90, K: 100, T: 0, R: 0.04, Vol: 0.3, American: true}
	if v, g := Compute(put); v != 10 || g != (Greeks{Delta: -1}) {
		t.Errorf("expired put: %v %+v", v, g)
	}
	put.T = 1
	put.Vol = 0
	if v, g := Compute(put); v != 10 || g.Delta != -1 {
		t.Errorf("deep put without vol: %v %+v, want its intrinsic value", v, g)
	}
	for _, vol := range []float64{MinIV, 1e-3, 4.9} {
		for _, m := range []float64{0.5, 0.95, 1, 1.05, 2} {
			for _, call := range []bool{true, false} {
				p := Params{S: 100 * m, K: 100, T: 2, R: 0.05, Q: 0.02, Vol: vol, Call: call, American: true}
				v, g := Compute(p)
				for _, x := range []float64{v, g.Delta, g.Gamma, g.Vega, g.Theta, g.Rho} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Fatalf("%+v: %v %+v", p, v, g)
					}
				}
				if v < intrinsic(p) {
					t.Errorf("%+v: %v below intrinsic", p, v)
				}
			}
		}
	}
	p := Params{S: 100, K: 99.99, T: MinT / 10, R: 0.04, Q: 0.01, Vol: 0.3, American: true}
	q := p
	q.T = MinT
	_, g := Compute(p)
	_, gm := Compute(q)
	if g != gm || Price(p) >= Price(q) {
		t.Errorf("under a minute: greeks %+v, at MinT %+v", g, gm)
	}
}
