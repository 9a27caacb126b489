package pricing

import "math"

// The formula's value alone, in plain float64: what a quote needs, at a
// fraction of the cost of an evaluation on jets (the sandbox prices every
// trade of a day against the quote of its second). It is the formula of
// american.go term for term, in the same order; the tests hold the two
// equal.

// americanValue is americanJet(p).v: the formula's value where the
// trigger is in reach, else the European value, never below either the
// European or the intrinsic value (T > 0, Vol > 0, S > 0, K > 0).
func americanValue(p Params) float64 {
	v := europeanValue(p)
	if !far(p) {
		c := plainCallOf(p)
		v = math.Max(v, c.value())
	}
	return math.Max(v, intrinsic(p))
}

// europeanValue is the European value of p, as europeanJet's.
func europeanValue(p Params) float64 {
	return closedForm(p.S*math.Exp(-p.Q*p.T), p.K*math.Exp(-p.R*p.T), math.Log(p.S/p.K),
		(p.R-p.Q)*p.T, math.Sqrt(p.T), p.Vol, p.Call)
}

// plainCall is bsCall in float64.
type plainCall struct {
	S, K, lS, lK, r, b, v, T float64
	beta, I1, I2             float64
}

// plainCallOf is callOf in float64.
func plainCallOf(p Params) plainCall {
	c := plainCall{S: p.S, K: p.K, lS: math.Log(p.S), lK: math.Log(p.K), r: p.R, b: p.R - p.Q, v: p.Vol, T: p.T}
	if !p.Call {
		c.S, c.K, c.lS, c.lK, c.r, c.b = c.K, c.S, c.lK, c.lS, p.Q, p.Q-p.R
	}
	v2 := c.v * c.v
	x := c.b*(1/v2) - 0.5
	c.beta = math.Sqrt(x*x+2*c.r*(1/v2)) - x
	bInf := c.beta * (1 / (c.beta - 1)) * c.K
	b0 := c.K
	if c.r > 0 {
		b0 = math.Max(b0, c.r*(1/(c.r-c.b))*c.K)
	}
	if !(bInf > b0) {
		c.I1, c.I2 = b0, b0
		return c
	}
	span := bInf - b0
	den := c.K * c.K * (1 / (span * b0))
	trigger := func(t float64) float64 {
		h := (c.b*t + 2*(c.v*math.Sqrt(t))) * den
		return b0 + (span - span*math.Exp(-h))
	}
	c.I1, c.I2 = trigger(golden*c.T), trigger(c.T)
	return c
}

// value is bsCall.value in float64.
func (c *plainCall) value() float64 {
	if c.S >= c.I2 {
		return c.S - c.K
	}
	f := newPlainTerms(c)
	gb, g1, g0 := f.gamma(c.beta), f.gamma(1), f.gamma(0)
	a1, a2 := c.I1-c.K, c.I2-c.K
	nb1, nb2 := -(c.beta * f.l1), -(c.beta * f.l2)
	v := a2 * math.Exp(-(c.beta * f.l2S))
	v -= a2 * f.phi(&gb, f.d2, nb2)
	v = v + f.phi(&g1, f.d2, 0) - f.phi(&g1, f.d1, 0)
	v = v - c.K*f.phi(&g0, f.d2, 0) + c.K*f.phi(&g0, f.d1, 0)
	v += a1 * f.phi(&gb, f.d1, nb1)
	v -= a1 * f.psi(&gb, f.f1, nb1)
	v = v + f.psi(&g1, f.f1, 0) - f.psi(&g1, f.fK, 0)
	v = v - c.K*f.psi(&g0, f.f1, 0) + c.K*f.psi(&g0, f.fK, 0)
	return v
}

// plainTerms is bsTerms in float64.
type plainTerms struct {
	c                     *plainCall
	l1, l2, l2S, l1S, l12 float64
	v2, twoB, t1s1, TsT   float64
	d1, d2, refl, e1, e2  float64
	f1, fK, f2, f3, f4    float64
}

func newPlainTerms(c *plainCall) plainTerms {
	f := plainTerms{c: c, l1: math.Log(c.I1), l2: math.Log(c.I2), v2: c.v * c.v}
	f.l2S, f.l1S, f.l12 = f.l2-c.lS, f.l1-c.lS, f.l1-f.l2
	f.twoB = 2 * c.b * (1 / f.v2)
	t1 := golden * c.T
	is1, isT := 1/(c.v*math.Sqrt(t1)), 1/(c.v*math.Sqrt(c.T))
	f.t1s1, f.TsT = t1*is1, c.T*isT
	f.d1, f.d2 = -(f.l1S * is1), -(f.l2S * is1)
	f.refl = 2 * (f.l2S * is1)
	f.e1, f.e2 = f.d1, (2*f.l2S-f.l1S)*is1
	f.f1, f.fK = -(f.l1S * isT), (c.lS-c.lK)*isT
	f.f2, f.f3, f.f4 = 2*(f.l2S*isT), 2*(f.l1S*isT), 2*(f.l12*isT)
	return f
}

// plainGamma is gammaTerms in float64.
type plainGamma struct {
	m1, mT, at1, aT float64
	e, eN           [4]float64 // e1..e4 and N(-e)
	k2S, k1S, k12   float64
}

func (f *plainTerms) gamma(g float64) plainGamma {
	c := f.c
	lam := g*c.b - c.r + g*(g-1)*f.v2*0.5
	kappa := f.twoB + 2*g - 1
	mu := c.b + (g-0.5)*f.v2
	gS := g * c.lS
	t := plainGamma{m1: mu * f.t1s1, mT: mu * f.TsT, at1: lam*c.T*golden + gS, aT: lam*c.T + gS,
		k2S: kappa * f.l2S, k1S: kappa * f.l1S, k12: kappa * f.l12}
	t.e = [4]float64{f.e1 + t.m1, f.e2 + t.m1, f.e1 - t.m1, f.e2 - t.m1}
	for i, e := range t.e {
		t.eN[i] = NormCDF(-e)
	}
	return t
}

// phi is bsTerms.phi in float64.
func (f *plainTerms) phi(g *plainGamma, dH, ls float64) float64 {
	d := -(dH + g.m1)
	a := g.at1 + ls
	return expNf(a, d) - expNf(a+g.k2S, d-f.refl)
}

// psi is bsTerms.psi in float64.
func (f *plainTerms) psi(g *plainGamma, fH, ls float64) float64 {
	x := fH + g.mT
	a := g.aT + ls
	return expPf(a, bvnPlus.upperValue(g.e[0], g.eN[0], x)) -
		expPf(a+g.k2S, bvnPlus.upperValue(g.e[1], g.eN[1], x+f.f2)) -
		expPf(a+g.k1S, bvnMinus.upperValue(g.e[2], g.eN[2], x+f.f3)) +
		expPf(a+g.k12, bvnMinus.upperValue(g.e[3], g.eN[3], x+f.f4))
}

// expNf is expN in float64.
func expNf(a, y float64) float64 {
	if a < 600 {
		return math.Exp(a) * NormCDF(y)
	}
	return math.Exp(a + logNormCDF(y))
}

// expPf is expP in float64.
func expPf(a, p float64) float64 {
	if a < 600 {
		return math.Exp(a) * p
	}
	if p <= 0 {
		return 0
	}
	return math.Exp(a + math.Log(p))
}

// rangeMargin is what PriceRange adds to its upper end, as a multiple of
// the strike: the formula's value is a lower bound of the American value
// to its integration's precision (see bvnNodes), far below this.
const rangeMargin = 1e-9

// PriceRange brackets Price(p) at the cost of a European value: lo <=
// Price(p) <= hi. Where Price needs nothing more (a European option, an
// American one whose trigger is out of reach, expiry, no volatility) both
// are Price(p) to the last bit. Elsewhere the formula prices one exercise
// strategy, so it lies between the European value (and the intrinsic
// value) and the American value, which early exercise raises above the
// European one by at most (eep) what it can earn over the option's life.
// The sandbox's chain uses it to find which of a day's trades can set a
// contract's high or low without pricing them all.
func PriceRange(p Params) (lo, hi float64) {
	if !p.American || p.T <= 0 || !(p.Vol > 0 && p.S > 0 && p.K > 0) || far(p) {
		v := Price(p)
		return v, v
	}
	e, in := europeanValue(p), intrinsic(p)
	return math.Max(e, in), math.Max(e+eep(p)+rangeMargin*p.K, in)
}

// eep bounds the early-exercise premium of p, the American value less the
// European (Kim 1990): the integral over the option's life of the
// discounted gain of holding the exercised position, r K - q S_t for a
// put, q S_t - r K for a call, where the underlying is past the exercise
// boundary. That boundary lies below the strike for a put, above it for a
// call, so the premium is at most r K times the time the underlying
// spends below the strike for a put, K (1 - e^{-rT}) N(-d2) with d2 at
// its least over the life, and for a call q S times the time above it,
// S (1 - e^{-qT}) N(d1) with d1 at its greatest.
func eep(p Params) float64 {
	v, m := p.Vol, math.Log(p.S/p.K)
	if p.Call {
		reach := NormCDF(-leastOver(-m/v, -(p.R-p.Q+0.5*v*v)/v, p.T))
		return math.Max(p.S*-math.Expm1(-p.Q*p.T), 0) * reach
	}
	reach := NormCDF(-leastOver(m/v, (p.R-p.Q-0.5*v*v)/v, p.T))
	return math.Max(p.K*-math.Expm1(-p.R*p.T), 0) * reach
}

// leastOver is the least of a/sqrt(t) + b sqrt(t) over t in (0, T]: at
// t = a/b where that lies inside, else at T (a > 0); -Inf for a <= 0,
// which leaves the bound whole.
func leastOver(a, b, T float64) float64 {
	switch {
	case a <= 0:
		return math.Inf(-1)
	case b > 0 && a/b < T:
		return 2 * math.Sqrt(a*b)
	}
	return a/math.Sqrt(T) + b*math.Sqrt(T)
}
