package sim

import (
	"chainwatch/pricing"
	"math"
	"testing"
)

var tenors = []float64{pricing.MinT, 1.0 / 365, 7.0 / 365, T30, 0.25, 1, 2.5, 10}

func TestSurfaceATM30(t *testing.T) {
	for _, index := range []bool{true, false} {
		s := DefaultSurface(0.22, index)
		if got := s.Vol(5000, 5000, T30); !near(got, 0.22, 1e-15) {
			t.Errorf("index %v: 30-day ATM %v, want 0.22", index, got)
		}
		if got := s.ATMVol(T30); !near(got, 0.22, 1e-15) {
			t.Errorf("index %v: ATMVol(T30) %v", index, got)
		}
	}
}

// The default shapes are set per standard deviation: the documented
// anchors, and the same vol ratio at the same number of deviations.
func TestDefaultSurfaceShape(t *testing.T) {
	if s := DefaultSurface(0.18, true); !near(s.Skew, -0.9, 1e-12) || !near(s.Smile, 0.2, 1e-3) {
		t.Errorf("index at 0.18: %+v", s)
	}
	if s := DefaultSurface(0.30, false); !near(s.Skew, -0.3, 1e-12) || !near(s.Smile, 0.4, 1e-12) {
		t.Errorf("stock at 0.30: %+v", s)
	}
	for _, index := range []bool{true, false} {
		lo, hi := DefaultSurface(0.15, index), DefaultSurface(0.6, index)
		for _, z := range []float64{-2, -1, 1, 2} {
			T := 0.25
			K := func(atm float64) float64 { return 100 * math.Exp(z*atm*math.Sqrt(T)) }
			if a, b := lo.Vol(K(0.15), 100, T)/lo.ATMVol(T), hi.Vol(K(0.6), 100, T)/hi.ATMVol(T); !near(a, b, 1e-12) {
				t.Errorf("index %v z %v: ratio %v at atm 0.15, %v at 0.6", index, z, a, b)
			}
		}
	}
	if s := DefaultSurface(0, false); math.IsInf(s.Skew, 0) || math.IsNaN(s.Smile) {
		t.Errorf("atm 0: %+v", s)
	}
}

func TestSurfaceTermStructure(t *testing.T) {
	s := Surface{ATM: 0.2, TermSlope: 0.1}
	if got, want := s.ATMVol(1), 0.2*math.Pow(365.0/30, 0.1); !near(got, want, 1e-15) {
		t.Errorf("1y ATM %v, want %v", got, want)
	}
	// The power law is clamped at the short and long ends.
	s.TermSlope = 0.5
	if got := s.ATMVol(pricing.MinT); !near(got, 0.2*MinTermFactor, 1e-15) {
		t.Errorf("clamped short ATM %v", got)
	}
	if got := s.ATMVol(10); !near(got, 0.2*MaxTermFactor, 1e-15) {
		t.Errorf("clamped long ATM %v", got)
	}
}

// Equity skew: lower strikes carry higher vols down to the money, for
// every tenor, and the index skew is steeper than the stock skew.
func TestSurfaceSkew(t *testing.T) {
	idx, stk := DefaultSurface(0.2, true), DefaultSurface(0.2, false)
	for _, T := range tenors {
		F := 100.0
		prev := math.Inf(1)
		for K := 50.0; K <= 100; K += 1 {
			v := idx.Vol(K, F, T)
			if v > prev+1e-15 {
				t.Errorf("T %v: index vol rises from K %v to %v (%v > %v)", T, K-1, K, v, prev)
			}
			prev = v
		}
		if T < 1.0/365 {
			continue // both at the wing clamp
		}
		K := F * math.Exp(-0.2*math.Sqrt(T)) // k = -0.2
		if idx.Vol(K, F, T)/idx.ATMVol(T) <= stk.Vol(K, F, T)/stk.ATMVol(T) {
			t.Errorf("T %v: index skew not steeper than stock skew", T)
		}
	}
}

func TestSurfaceFormula(t *testing.T) {
	s := Surface{ATM: 0.3, TermSlope: 0.05, Skew: -0.4, Smile: 0.3}
	K, F, T := 90.0, 100.0, 0.5
	k := math.Log(K/F) / math.Sqrt(T)
	want := 0.3 * math.Pow(T/T30, 0.05) * (1 - 0.4*k + 0.3*k*k)
	if got := s.Vol(K, F, T); !near(got, want, 1e-15) {
		t.Errorf("Vol = %v, want %v", got, want)
	}
	// Wing clamps, relative to the tenor's ATM.
	far := s.Vol(1e-3, 100, T30)
	if !near(far, 0.3*MaxWing, 1e-15) {
		t.Errorf("far put wing %v, want %v", far, 0.3*MaxWing)
	}
	steep := Surface{ATM: 0.3, Skew: -2}
	if got := steep.Vol(150, 100, T30); !near(got, 0.3*MinWing, 1e-15) {
		t.Errorf("call wing %v, want %v", got, 0.3*MinWing)
	}
	// Floor and cap.
	if got := (Surface{ATM: 0.001}).Vol(100, 100, 1); got != MinSurfaceVol {
		t.Errorf("floor %v", got)
	}
	if got := (Surface{ATM: 3, Skew: -1}).Vol(10, 100, 1); got != MaxSurfaceVol {
		t.Errorf("cap %v", got)
	}
	if got := (Surface{ATM: math.NaN()}).Vol(100, 100, 1); got != MinSurfaceVol {
		t.Errorf("NaN ATM %v", got)
	}
}

func TestSurfaceEventBump(t *testing.T) {
	base := DefaultSurface(0.3, false)
	ev := base
	ev.EventTime = 10.0 / 365
	ev.EventVar = EarningsVar(0.05)
	if !near(ev.EventVar, 0.0025*math.Pi/2, 1e-18) {
		t.Errorf("EarningsVar %v", ev.EventVar)
	}
	for _, T := range tenors {
		for _, K := range []float64{80, 100, 120} {
			got, plain := ev.Vol(K, 100, T), base.Vol(K, 100, T)
			want := plain
			if T > ev.EventTime {
				want = math.Sqrt(plain*plain + ev.EventVar/T)
			}
			if !near(got, want, 1e-15) {
				t.Errorf("T %v K %v: %v, want %v", T, K, got, want)
			}
		}
	}
	// The bump fades with tenor: the event's variance is spread over T.
	if b7, b365 := ev.ATMVol(11.0/365)-base.ATMVol(11.0/365), ev.ATMVol(1)-base.ATMVol(1); b7 <= b365 {
		t.Errorf("bump at 11 days %v not above bump at a year %v", b7, b365)
	}
}

// No calendar arbitrage at the money (total variance rises with tenor) and
// no butterfly arbitrage (call prices convex in strike) within five
// standard deviations of the forward, for both default shapes over vol
// levels from calm to stressed, with and without an earnings event of a
// typical size (a fifth of the ATM vol as the one-day move).
func TestSurfaceNoArbitrage(t *testing.T) {
	for _, index := range []bool{true, false} {
		for _, atm := range []float64{0.1, 0.2, 0.4, 0.8} {
			for _, event := range []bool{false, true} {
				s := DefaultSurface(atm, index)
				base := s
				if event {
					s.EventTime, s.EventVar = 5.0/365, EarningsVar(atm/5)
				}
				prev := 0.0
				for d := 1.0; d <= 1100; d++ {
					T := d / 365
					v := s.ATMVol(T)
					if v*v*T < prev {
						t.Errorf("index %v atm %v event %v: total variance falls at %v days", index, atm, event, d)
						break
					}
					prev = v * v * T
				}
				for _, T := range []float64{1.0 / 365, 7.0 / 365, T30, 0.5, 2} {
					checkConvex(t, s, T, 5*base.ATMVol(T)*math.Sqrt(T))
				}
			}
		}
	}
}

// checkConvex checks call prices on a fine strike grid over F e^{±width}.
func checkConvex(t *testing.T, s Surface, T, width float64) {
	t.Helper()
	const S, R, Q = 100.0, 0.045, 0.01
	F := pricing.Forward(S, T, R, Q)
	lo, hi := F*math.Exp(-width), F*math.Exp(width)
	dK := (hi - lo) / 400
	call := func(K float64) float64 {
		return pricing.Price(pricing.Params{S: S, K: K, T: T, R: R, Q: Q, Vol: s.Vol(K, F, T), Call: true})
	}
	for K := lo + dK; K < hi-dK; K += dK {
		if fly := call(K-dK) - 2*call(K) + call(K+dK); fly < -1e-9*S {
			t.Errorf("%+v T %v: butterfly at K %.2f is %v", s, T, K, fly)
			return
		}
	}
}

// Every price built from the surface inverts back to its vol.
func TestSurfaceInverts(t *testing.T) {
	s := DefaultSurface(1.5, false)
	s.EventTime, s.EventVar = 2.0/365, EarningsVar(0.15)
	for _, T := range tenors[1:] {
		for K := 20.0; K <= 300; K += 10 {
			p := pricing.Params{S: 100, K: K, T: T, R: 0.045, Vol: s.Vol(K, pricing.Forward(100, T, 0.045, 0), T), Call: K >= 100}
			price := pricing.Price(p)
			if lo, _ := pricing.Bounds(p); price <= lo {
				continue
			}
			if _, ok := pricing.ImpliedVol(price, p); !ok {
				t.Errorf("%+v does not invert", p)
			}
		}
	}
}

// The upper wing clamp is the identity up to the knee, then rises with a
// continuous slope, monotonically, to MaxWing.
func TestCapWing(t *testing.T) {
	if capWing(1.7) != 1.7 || capWing(wingKnee) != wingKnee {
		t.Errorf("capWing changes values below the knee")
	}
	const h = 1e-7
	if slope := (capWing(wingKnee+h) - capWing(wingKnee)) / h; !near(slope, 1, 1e-6) {
		t.Errorf("slope just above the knee %v, want 1", slope)
	}
	prev := wingKnee
	for w := wingKnee + 0.01; w < 50; w += 0.01 {
		c := capWing(w)
		if c < prev || c > MaxWing || c > w {
			t.Fatalf("capWing(%v) = %v after %v", w, c, prev)
		}
		prev = c
	}
	if !near(capWing(1e6), MaxWing, 1e-15) {
		t.Errorf("capWing(1e6) = %v", capWing(1e6))
	}
}

// TestSurfaceMonotone: prices from the surface never rise with the strike
// for a call nor fall for a put, anywhere in the wings (no call-spread or
// put-spread arbitrage), for the shapes the sandbox uses, from a day to
// two years, with and without an event; so the quotes built on them keep
// their wings monotone. European and American alike.
func TestSurfaceMonotone(t *testing.T) {
	var shapes []Surface
	for _, atm := range []float64{0.08, 0.15, 0.3, 0.6, 1.2} {
		shapes = append(shapes, DefaultSurface(atm, true), DefaultSurface(atm, false),
			UpsideSurface(atm))
	}
	checked := 0
	for _, s0 := range shapes {
		for _, event := range []bool{false, true} {
			s := s0
			if event {
				s.EventTime, s.EventVar = 2.0/365, EarningsVar(s.ATM/5)
			}
			for _, T := range []float64{pricing.MinT, 5 * pricing.MinT, 1.0 / 365 / 24, 1.0 / 365, 3.0 / 365, T30, 0.5, 2} {
				for _, american := range []bool{false, true} {
					checked += checkSurfaceMonotone(t, s, T, american)
				}
			}
		}
	}
	if checked < 100_000 {
		t.Errorf("only %d strikes checked", checked)
	}
}

// checkSurfaceMonotone walks strikes from F/20 to 20F and reports the first
// price that moves the wrong way by more than 1e-12 of the spot.
func checkSurfaceMonotone(t *testing.T, s Surface, T float64, american bool) int {
	t.Helper()
	const S, R, Q = 100.0, 0.045, 0.012
	F := pricing.Forward(S, T, R, Q)
	n := 0
	for _, call := range []bool{true, false} {
		prev := math.NaN()
		for x := -3.0; x <= 3; x += 0.004 {
			K := F * math.Exp(x)
			p := pricing.Price(pricing.Params{S: S, K: K, T: T, R: R, Q: Q, Vol: s.Vol(K, F, T), Call: call, American: american})
			n++
			if d := p - prev; call && d > 1e-12*S || !call && d < -1e-12*S {
				t.Errorf("%+v T %.5f american %v call %v: price %.6g at K %.3f after %.6g", s, T, american, call, p, K, prev)
				return n
			}
			prev = p
		}
	}
	return n
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
