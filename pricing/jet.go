package pricing

import "math"

// jet is a number carried with its derivatives along the directions the
// greeks need: x = ln S (first and second derivative: delta and gamma),
// the vol, the rate and the time to expiry. The American formula is
// written on jets, so one evaluation gives the price and every greek
// exactly (forward-mode automatic differentiation): no finite differences
// to tune, and no extra evaluations of a formula that costs about twenty
// bivariate normal probabilities.
type jet struct {
	v       float64 // value
	x, xx   float64 // d/dx, d2/dx2
	s, r, t float64 // d/dvol, d/drate, d/dT
}

// cst is a constant: no derivatives.
func cst(v float64) jet { return jet{v: v} }

func (a jet) add(b jet) jet {
	return jet{a.v + b.v, a.x + b.x, a.xx + b.xx, a.s + b.s, a.r + b.r, a.t + b.t}
}

func (a jet) sub(b jet) jet {
	return jet{a.v - b.v, a.x - b.x, a.xx - b.xx, a.s - b.s, a.r - b.r, a.t - b.t}
}

func (a jet) addc(c float64) jet { a.v += c; return a }

func (a jet) scale(c float64) jet {
	return jet{c * a.v, c * a.x, c * a.xx, c * a.s, c * a.r, c * a.t}
}

func (a jet) mul(b jet) jet {
	return jet{
		v:  a.v * b.v,
		x:  a.x*b.v + a.v*b.x,
		xx: a.xx*b.v + 2*a.x*b.x + a.v*b.xx,
		s:  a.s*b.v + a.v*b.s,
		r:  a.r*b.v + a.v*b.r,
		t:  a.t*b.v + a.v*b.t,
	}
}

func (a jet) div(b jet) jet { return a.mul(b.inv()) }

// chain applies a function of one variable with value f, first
// derivative f1 and second derivative f2 at a.v.
func (a jet) chain(f, f1, f2 float64) jet {
	return jet{v: f, x: f1 * a.x, xx: f1*a.xx + f2*a.x*a.x, s: f1 * a.s, r: f1 * a.r, t: f1 * a.t}
}

func (a jet) inv() jet {
	i := 1 / a.v
	return a.chain(i, -i*i, 2*i*i*i)
}

func (a jet) sqrt() jet {
	q := math.Sqrt(a.v)
	return a.chain(q, 0.5/q, -0.25/(q*a.v))
}

func (a jet) exp() jet {
	e := math.Exp(a.v)
	return a.chain(e, e, e)
}

func (a jet) log() jet {
	return a.chain(math.Log(a.v), 1/a.v, -1/(a.v*a.v))
}

// ncdf is N(a).
func (a jet) ncdf() jet {
	n := NormPDF(a.v)
	return a.chain(NormCDF(a.v), n, -a.v*n)
}

// max is the larger of a and b by value, with its derivatives.
func (a jet) max(b jet) jet {
	if b.v > a.v {
		return b
	}
	return a
}

// expN is e^a N(y). Where e^a alone would overflow (a tiny vol makes the
// formula's exponents huge; the product stays finite) it is taken in logs,
// with ln N from the tail series where N underflows.
func expN(a, y jet) jet {
	if a.v < 600 {
		return expMul(a, y.ncdf())
	}
	lnN := logNormCDF(y.v)
	m := math.Exp(-0.5*y.v*y.v - 0.5*math.Log(2*math.Pi) - lnN) // n(y)/N(y)
	return a.add(y.chain(lnN, m, -m*(y.v+m))).exp()
}

// expP is e^a p for a probability p, in logs where e^a would overflow.
func expP(a, p jet) jet {
	if a.v < 600 {
		return expMul(a, p)
	}
	if p.v <= 0 {
		return jet{}
	}
	return a.add(p.log()).exp()
}

// expMul is e^a p, in one step.
func expMul(a, p jet) jet {
	e := math.Exp(a.v)
	return jet{
		v:  e * p.v,
		x:  e * (a.x*p.v + p.x),
		xx: e * ((a.xx+a.x*a.x)*p.v + 2*a.x*p.x + p.xx),
		s:  e * (a.s*p.v + p.s),
		r:  e * (a.r*p.v + p.r),
		t:  e * (a.t*p.v + p.t),
	}
}

// logNormCDF is ln N(x), with the tail's asymptotic series where N(x)
// underflows.
func logNormCDF(x float64) float64 {
	if x > -37 {
		return math.Log(NormCDF(x))
	}
	x2 := x * x
	return -0.5*x2 - math.Log(-x) - 0.5*math.Log(2*math.Pi) + math.Log(1-1/x2+3/(x2*x2))
}
