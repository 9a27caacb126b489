package pricing

import "math"

// American exercise: Bjerksund and Stensland (2002), "Closed form
// valuation of American options", with a continuous dividend yield.
//
// The formula values the strategy that exercises a call the first time the
// underlying reaches a flat trigger: I2 over the first (golden-section)
// part of the option's life, I1 over the rest. A put is priced as the
// call of their put-call transformation, P(S, K, r, b) = C(K, S, r-b, -b),
// with b = r - q the cost of carry. It is a lower bound of the true
// American value, within a few tenths of a percent of a fine binomial tree
// (the tests compare them), in closed form. It is evaluated on jets
// (jet.go), so one evaluation gives the price and every greek.
//
// Where the trigger is out of reach (the chance of the underlying getting
// there before expiry, times the trigger, is under 1e-13 of the strike)
// the strategy is worth the European option to that precision, and the
// European closed form is used: so an out-of-the-money put far from the
// money, or a call on a name without dividends, costs what a European
// option costs. The value is never below the European value nor below the
// intrinsic value.

// golden is t1/T in Bjerksund-Stensland 2002: the split of the life of the
// option into two periods of flat triggers.
var golden = (math.Sqrt(5) - 1) / 2

// farReach is the bound below which early exercise is ignored, as a
// multiple of the strike: what exercising at the trigger could gain, times
// the chance of getting there before expiry (see far).
const farReach = 1e-13

// bsCall is one American call of Bjerksund-Stensland 2002 in the formula's
// variables (spot S, strike K, rate r, carry b, vol v, expiry T), each a
// jet of the option's own inputs.
type bsCall struct {
	lS, lK, S, K, r, b, v, T jet
	beta, I1, I2             jet // exponent and triggers of the two periods
}

// callOf maps p (T > 0, Vol > 0, S > 0, K > 0, not far) to the formula's call: p
// itself, or for a put the call of the put-call transformation (spot and
// strike swapped, rate q, carry q - r).
func callOf(p Params) bsCall {
	spot := jet{v: p.S, x: p.S, xx: p.S} // S = e^x
	lnS := jet{v: math.Log(p.S), x: 1}
	R := jet{v: p.R, r: 1}
	c := bsCall{v: jet{v: p.Vol, s: 1}, T: jet{v: p.T, t: 1}}
	if p.Call {
		c.S, c.lS, c.K, c.lK = spot, lnS, cst(p.K), cst(math.Log(p.K))
		c.r, c.b = R, R.addc(-p.Q)
	} else {
		c.S, c.lS, c.K, c.lK = cst(p.K), cst(math.Log(p.K)), spot, lnS
		c.r, c.b = cst(p.Q), R.scale(-1).addc(p.Q)
	}
	c.triggers()
	return c
}

// triggers works out beta, I1 and I2 (b < r: far says otherwise).
func (c *bsCall) triggers() {
	v2 := c.v.mul(c.v)
	x := c.b.div(v2).addc(-0.5)
	c.beta = x.mul(x).add(c.r.scale(2).div(v2)).sqrt().sub(x)
	bInf := c.beta.div(c.beta.addc(-1)).mul(c.K)
	b0 := c.K
	if c.r.v > 0 {
		b0 = b0.max(c.r.div(c.r.sub(c.b)).mul(c.K))
	}
	if !(bInf.v > b0.v) { // the triggers have nowhere to go
		c.I1, c.I2 = b0, b0
		return
	}
	span := bInf.sub(b0)
	den := c.K.mul(c.K).div(span.mul(b0))
	trigger := func(t jet) jet {
		h := c.b.mul(t).add(c.v.mul(t.sqrt()).scale(2)).mul(den)
		return b0.add(span.sub(span.mul(h.scale(-1).exp())))
	}
	c.I1, c.I2 = trigger(c.T.scale(golden)), trigger(c.T)
}

// far reports whether p's triggers are out of reach, so that the formula
// is worth the European value to within farReach of the strike. Exercising
// at a trigger I gains at most I (r-b) T over holding on (the dividends
// forgone, r - b being the formula's dividend yield: q for a call, r for
// a put through the transformation), and the chance of the underlying
// (drift b - v^2/2) touching the lower trigger before expiry is at most
// 2 N(-z) by the reflection principle. It works on bounds of the triggers,
// which lie between B0 and B-infinity (when h <= 0 in both periods), so it
// costs a square root, a log and a NormCDF, and no jet.
func far(p Params) bool {
	S, K, r, b := p.S, p.K, p.R, p.R-p.Q
	if !p.Call {
		S, K, r, b = p.K, p.S, p.Q, p.Q-p.R
	}
	if b >= r {
		return true // never exercised early
	}
	v, T := p.Vol, p.T
	if b*T+2*v*math.Sqrt(T) < 0 || b*golden*T+2*v*math.Sqrt(golden*T) < 0 {
		return false // a trigger below B0: no bound here
	}
	v2 := v * v
	x := b/v2 - 0.5
	beta := math.Sqrt(x*x+2*r/v2) - x
	b0 := K
	if r > 0 {
		b0 = math.Max(K, r/(r-b)*K)
	}
	if S >= b0 {
		return false
	}
	hi := math.Max(beta/(beta-1)*K, b0)
	z := (math.Log(b0/S) - math.Max(b-0.5*v2, 0)*T) / (v * math.Sqrt(T))
	return z > 0 && 2*NormCDF(-z)*hi*(r-b)*T < farReach*K
}

// value is the formula's value of the call (S - K once S reaches I2).
func (c *bsCall) value() jet {
	if c.S.v >= c.I2.v {
		return c.S.sub(c.K)
	}
	f := newBSTerms(c)
	gb, g1, g0 := f.gamma(c.beta), f.gammaConst(1), f.gammaConst(0)
	a1, a2 := c.I1.sub(c.K), c.I2.sub(c.K) // alpha_i = (I_i - K) I_i^-beta: the power goes into the terms
	nb1, nb2 := c.beta.mul(f.l1).scale(-1), c.beta.mul(f.l2).scale(-1)
	v := a2.mul(c.beta.mul(f.l2S).scale(-1).exp())
	v = v.sub(a2.mul(f.phi(&gb, &f.d2, nb2)))
	v = v.add(f.phi(&g1, &f.d2, jet{})).sub(f.phi(&g1, &f.d1, jet{}))
	v = v.sub(c.K.mul(f.phi(&g0, &f.d2, jet{}))).add(c.K.mul(f.phi(&g0, &f.d1, jet{})))
	v = v.add(a1.mul(f.phi(&gb, &f.d1, nb1)))
	v = v.sub(a1.mul(f.psi(&gb, &f.f1, nb1)))
	v = v.add(f.psi(&g1, &f.f1, jet{})).sub(f.psi(&g1, &f.fK, jet{}))
	v = v.sub(c.K.mul(f.psi(&g0, &f.f1, jet{}))).add(c.K.mul(f.psi(&g0, &f.fK, jet{})))
	return v
}

// bsTerms holds what the phi and psi functions of the formula share: the
// logs of S, I1 and I2 and their differences over the periods' standard
// deviations, v sqrt(t1) and v sqrt(T).
type bsTerms struct {
	c          *bsCall
	l1, l2     jet // ln I1, ln I2
	l2S, l1S   jet // ln(I2/S), ln(I1/S)
	l12        jet // ln(I1/I2)
	v2         jet
	twoB       jet // 2b/v^2
	t1s1, TsT  jet // t1/(v sqrt(t1)), T/(v sqrt(T))
	d1, d2     jet // ln(S/I1), ln(S/I2) over v sqrt(t1): phi's d without mu
	refl       jet // 2 ln(I2/S) over v sqrt(t1): phi's reflection
	e1, e2     jet // ln(S/I1), ln(I2^2/(S I1)) over v sqrt(t1): psi's e's without mu
	f1, fK     jet // ln(S/I1), ln(S/K) over v sqrt(T): psi's f1 without mu (H = I1, K)
	f2, f3, f4 jet // what f2, f3, f4 add to f1: 2 ln(I2/S), 2 ln(I1/S), 2 ln(I1/I2) over v sqrt(T)
}

func newBSTerms(c *bsCall) bsTerms {
	f := bsTerms{c: c, l1: c.I1.log(), l2: c.I2.log(), v2: c.v.mul(c.v)}
	f.l2S, f.l1S, f.l12 = f.l2.sub(c.lS), f.l1.sub(c.lS), f.l1.sub(f.l2)
	f.twoB = c.b.scale(2).div(f.v2)
	t1 := c.T.scale(golden)
	sd1, sdT := c.v.mul(t1.sqrt()), c.v.mul(c.T.sqrt())
	is1, isT := sd1.inv(), sdT.inv()
	f.t1s1, f.TsT = t1.mul(is1), c.T.mul(isT)
	f.d1, f.d2 = f.l1S.mul(is1).scale(-1), f.l2S.mul(is1).scale(-1)
	f.refl = f.l2S.mul(is1).scale(2)
	f.e1, f.e2 = f.d1, f.l2S.scale(2).sub(f.l1S).mul(is1)
	f.f1, f.fK = f.l1S.mul(isT).scale(-1), c.lS.sub(c.lK).mul(isT)
	f.f2, f.f3, f.f4 = f.l2S.mul(isT).scale(2), f.l1S.mul(isT).scale(2), f.l12.mul(isT).scale(2)
	return f
}

// gammaTerms are what phi and psi share for one gamma: with
// lambda = -r + gamma b + gamma(gamma-1) v^2/2, kappa = 2b/v^2 + 2gamma - 1
// and mu = b + (gamma-1/2) v^2, the exponents' common parts, mu over the
// periods' standard deviations, and psi's first arguments (the e's, with
// their normal probabilities).
type gammaTerms struct {
	m1, mT   jet    // mu t1/(v sqrt(t1)), mu T/(v sqrt(T))
	at1, aT  jet    // lambda t1 + gamma ln S, lambda T + gamma ln S
	e        [4]arg // e1..e4
	k2S, k1S jet    // kappa ln(I2/S), kappa ln(I1/S)
	k12      jet    // kappa ln(I1/I2)
}

// gamma is gammaTerms for gamma beta (a jet).
func (f *bsTerms) gamma(g jet) gammaTerms {
	c := f.c
	lam := g.mul(c.b).sub(c.r).add(g.mul(g.addc(-1)).mul(f.v2).scale(0.5))
	kappa := f.twoB.add(g.scale(2)).addc(-1)
	mu := c.b.add(g.addc(-0.5).mul(f.v2))
	return f.finish(lam, kappa, mu, g.mul(c.lS))
}

// gammaConst is gammaTerms for a constant gamma (0 or 1).
func (f *bsTerms) gammaConst(g float64) gammaTerms {
	c := f.c
	lam := c.b.scale(g).sub(c.r).add(f.v2.scale(0.5 * g * (g - 1)))
	kappa := f.twoB.addc(2*g - 1)
	mu := c.b.add(f.v2.scale(g - 0.5))
	return f.finish(lam, kappa, mu, c.lS.scale(g))
}

func (f *bsTerms) finish(lam, kappa, mu, gS jet) gammaTerms {
	c := f.c
	var t gammaTerms
	t.m1, t.mT = mu.mul(f.t1s1), mu.mul(f.TsT)
	t.at1, t.aT = lam.mul(c.T).scale(golden).add(gS), lam.mul(c.T).add(gS)
	t.e = [4]arg{newArg(f.e1.add(t.m1)), newArg(f.e2.add(t.m1)), newArg(f.e1.sub(t.m1)), newArg(f.e2.sub(t.m1))}
	t.k2S, t.k1S, t.k12 = kappa.mul(f.l2S), kappa.mul(f.l1S), kappa.mul(f.l12)
	return t
}

// phi is e^ls times the formula's phi(S, t1, gamma, H, I2), given
// dH = ln(S/H)/(v sqrt t1):
//
//	e^{lambda t1} S^gamma [N(-d) - (I2/S)^kappa N(-d - 2 ln(I2/S)/(v sqrt t1))]
//
// with d = (ln(S/H) + mu t1) / (v sqrt t1).
func (f *bsTerms) phi(g *gammaTerms, dH *jet, ls jet) jet {
	d := dH.add(g.m1).scale(-1) // -d
	a := g.at1.add(ls)
	return expN(a, d).sub(expN(a.add(g.k2S), d.sub(f.refl)))
}

// psi is e^ls times the formula's psi(S, T, gamma, H, I2, I1, t1), given
// fH = ln(S/H)/(v sqrt T):
//
//	e^{lambda T} S^gamma [M(-e1, -f1, rho) - (I2/S)^kappa M(-e2, -f2, rho)
//	    - (I1/S)^kappa M(-e3, -f3, -rho) + (I1/I2)^kappa M(-e4, -f4, -rho)]
//
// with rho = sqrt(t1/T), the e's over t1 and the f's over T (see the
// paper, or Haug's "The Complete Guide to Option Pricing Formulas").
// M(-e, -f) = P(X < -e, Y < -f) = P(X > e, Y > f), bvn's upper.
func (f *bsTerms) psi(g *gammaTerms, fH *jet, ls jet) jet {
	f1 := fH.add(g.mT)
	a := g.aT.add(ls)
	return expP(a, bvnPlus.upper(&g.e[0], f1)).
		sub(expP(a.add(g.k2S), bvnPlus.upper(&g.e[1], f1.add(f.f2)))).
		sub(expP(a.add(g.k1S), bvnMinus.upper(&g.e[2], f1.add(f.f3)))).
		add(expP(a.add(g.k12), bvnMinus.upper(&g.e[3], f1.add(f.f4))))
}
