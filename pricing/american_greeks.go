package pricing

import "math"

// americanPrice is Price for an American option (see american.go).
func americanPrice(p Params) float64 {
	if p.T <= 0 {
		return intrinsic(p)
	}
	if !(p.Vol > 0 && p.S > 0 && p.K > 0) {
		v, _ := deterministic(p)
		return math.Max(v, intrinsic(p))
	}
	return americanValue(p)
}

// americanJet is the value of p (T > 0, Vol > 0, S > 0, K > 0) with its
// derivatives: the formula's where the trigger is in reach, else the
// European value, and never below the European nor the intrinsic value.
func americanJet(p Params) jet {
	v := europeanJet(p)
	if !far(p) {
		c := callOf(p)
		v = v.max(c.value())
	}
	return v.max(intrinsicJet(p))
}

// europeanJet is the European value of p and its derivatives, from the
// closed form.
func europeanJet(p Params) jet {
	price, g := analytic(p)
	return jet{v: price, x: g.Delta * p.S, xx: g.Gamma*p.S*p.S + g.Delta*p.S,
		s: g.Vega * 100, r: g.Rho * 100, t: -g.Theta * DaysPerYear}
}

// intrinsicJet is the value of exercising p now.
func intrinsicJet(p Params) jet {
	if p.Call {
		return jet{v: p.S - p.K, x: p.S, xx: p.S}
	}
	return jet{v: p.K - p.S, x: -p.S, xx: -p.S}
}

// greeksOf are the greeks in the conventions' units of a value jet of an
// option on S: x = ln S, so dV/dS = V_x / S and d2V/dS2 = (V_xx - V_x) / S^2;
// theta is -dV/dT per calendar day.
func greeksOf(j jet, S float64) Greeks {
	return Greeks{
		Delta: j.x / S,
		Gamma: (j.xx - j.x) / (S * S),
		Vega:  j.s * 0.01,
		Theta: -j.t / DaysPerYear,
		Rho:   j.r * 0.01,
	}
}

// americanCompute is Compute for an American option: the price is
// Price's (americanValue), the greeks the exact derivatives of the value
// (the formula's, or the European closed form's where the trigger is out
// of reach) in the conventions' units; theta, as for a European option, is
// the rate of decay per calendar day.
func americanCompute(p Params) (float64, Greeks) {
	if p.T <= 0 {
		return expired(p)
	}
	if !(p.Vol > 0 && p.S > 0 && p.K > 0) {
		v, g := deterministic(p)
		if in := intrinsic(p); in > v { // worth more exercised now
			g = Greeks{Delta: 1}
			if !p.Call {
				g.Delta = -1
			}
			return in, g
		}
		return v, g
	}
	q := p
	q.T = math.Max(p.T, MinT)
	return americanValue(p), greeksOf(americanJet(q), p.S)
}

// americanBounds are Bounds for an American option: at least the intrinsic
// value and the European lower bound, at most the spot (a call) or the
// strike (a put).
func americanBounds(p Params) (lower, upper float64) {
	if p.T <= 0 {
		v := intrinsic(p)
		return v, v
	}
	p.American = false
	lo, _ := Bounds(p)
	lower = math.Max(lo, intrinsic(p))
	if p.Call {
		return lower, p.S
	}
	return lower, p.K
}
