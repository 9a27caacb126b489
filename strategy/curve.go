package strategy

import (
	"math"
	"time"

	"chainwatch/pricing"
)

// A risk graph prices every leg at a couple of hundred spots, and an
// American price (Bjerksund-Stensland, where early exercise is in reach)
// costs some twenty times a European one. Its early exercise premium
// (American less European value) is smooth in spot (the two values meet
// the payoff with the same slope at the exercise trigger), so Curve
// prices American only at curveNodes spots across the graph and
// interpolates the premium between them (cubic Hermite), adding it to
// the European value at every spot; where the option is exercised at
// once it is its payoff. PnL and Value stay exact.
const curveNodes = 24

// Curve is PnL at each of xs (ascending) at time t, into out (grown as
// needed).
func (p *Pricer) Curve(xs []float64, t time.Time, out []float64) []float64 {
	out = append(out[:0], make([]float64, len(xs))...)
	if len(xs) == 0 {
		return out
	}
	sorted := true
	for j := 1; j < len(xs); j++ {
		sorted = sorted && xs[j] >= xs[j-1]
	}
	for i := range p.legs {
		u := p.legs[i].Units()
		if sorted && len(xs) > 2*curveNodes && xs[0] > 0 && p.americanAt(i, t) {
			p.premiumCurve(i, xs, t, u, out)
			continue
		}
		for j, x := range xs {
			out[j] += u * (p.Value(i, x, t) - p.entry[i])
		}
	}
	return out
}

// americanAt reports whether leg i at t is an American option still
// priced by the model (not settled, with an IV).
func (p *Pricer) americanAt(i int, t time.Time) bool {
	l := &p.legs[i]
	return l.Option() && pricing.AmericanStyle(l.Root) && t.Before(p.settle[i]) && !math.IsNaN(p.iv[i])
}

// premiumCurve adds leg i's P&L at xs (u units) to out. Where the leg
// is exercised at once (a put below its trigger, a call above it) its
// value is its payoff; elsewhere it is the European value plus the early
// exercise premium interpolated between curveNodes American prices
// across that stretch (the premium bends at the trigger, so the nodes
// start there), never below the payoff; plus the leg's basis.
func (p *Pricer) premiumCurve(i int, xs []float64, t time.Time, u float64, out []float64) {
	l := &p.legs[i]
	T := p.years(i, t)
	params := func(x float64, american bool) pricing.Params {
		a := legParams(l, x, T, p.iv[i], p.carry[i])
		a.American = american
		return a
	}
	// Exercised at once: in the money and worth no more than its payoff
	// (out of the money a worthless option is not exercised).
	exercised := func(x float64) bool {
		pay := l.Payoff(x)
		return pay > 0 && pricing.Price(params(x, true)) <= pay+1e-12*l.Strike
	}
	lo, hi := xs[0], xs[len(xs)-1]
	// The trigger, to a 4096th of the graph, when it is inside it.
	if l.Kind == Put && exercised(lo) {
		a, b := lo, hi
		for range 12 {
			if m := (a + b) / 2; exercised(m) {
				a = m
			} else {
				b = m
			}
		}
		lo = b
	} else if l.Kind == Call && exercised(hi) {
		a, b := lo, hi
		for range 12 {
			if m := (a + b) / 2; exercised(m) {
				b = m
			} else {
				a = m
			}
		}
		hi = a
	}
	// The nodes are even in z, x = lo + (hi-lo) z² from the trigger's
	// side (a put's low end, a call's high end): dense where the premium
	// bends, sparse where it fades.
	toX := func(z float64) float64 {
		if l.Kind == Call {
			return hi - (hi-lo)*z*z
		}
		return lo + (hi-lo)*z*z
	}
	toZ := func(x float64) float64 {
		if l.Kind == Call {
			return math.Sqrt(max(hi-x, 0) / (hi - lo))
		}
		return math.Sqrt(max(x-lo, 0) / (hi - lo))
	}
	var prem [curveNodes + 1]float64
	for k := range prem {
		x := toX(float64(k) / curveNodes)
		prem[k] = pricing.Price(params(x, true)) - pricing.Price(params(x, false))
	}
	for j, x := range xs {
		v := l.Payoff(x)
		if x >= lo && x <= hi && hi > lo {
			v = math.Max(v, pricing.Price(params(x, false))+hermite(prem[:], 0, 1.0/curveNodes, toZ(x)))
		}
		out[j] += u * (v + p.basis[i]*T - p.entry[i])
	}
}

// hermite interpolates ys, sampled every h from lo, at x: a cubic
// Hermite spline with Catmull-Rom slopes (one-sided at the ends).
func hermite(ys []float64, lo, h, x float64) float64 {
	n := len(ys) - 1
	if h <= 0 || n < 1 {
		return ys[0]
	}
	f := (x - lo) / h
	k := min(max(int(f), 0), n-1)
	s := f - float64(k)
	slope := func(k int) float64 {
		switch k {
		case 0:
			return ys[1] - ys[0]
		case n:
			return ys[n] - ys[n-1]
		}
		return (ys[k+1] - ys[k-1]) / 2
	}
	s2, s3 := s*s, s*s*s
	return (2*s3-3*s2+1)*ys[k] + (s3-2*s2+s)*slope(k) + (-2*s3+3*s2)*ys[k+1] + (s3-s2)*slope(k+1)
}
