package pricing

import (
	"math"
	"sort"
	"strings"
)

// The chain's carry. The service sends no rate and no dividend yield, but
// it computed each contract's IV from its mid with its own; so at the
// chain's true (r, q) the model reprices every contract at its own IV to
// its mid. ImpliedCarry solves for that pair over the few call/put pairs
// nearest the money, where both sides carry time value well above a tick
// (deeper, the service publishes its surface's vol, not the mid's).

// CarryQuote is one contract as the chain quotes it.
type CarryQuote struct {
	Strike float64
	Call   bool
	Mid    float64 // the chain's mid (bid+ask)/2
	IV     float64 // the chain's implied volatility, a fraction
}

// Carry is one expiry's continuously compounded rate and dividend yield.
type Carry struct{ R, Q float64 }

// carryPairs is how many strikes nearest the money the solve uses: enough
// to average out one odd quote, few enough to stay where IVs come from
// mids.
const carryPairs = 4

// minTimeValue is the least time value (mid less intrinsic) a side needs to
// be used: a few ticks, so its IV was inverted from its mid.
const minTimeValue = 0.05

// minCarrySens is the least change, in dollars over the pairs used, that a
// one-point (0.01) move of r or q must make for the chain to tell it: below
// it (an expiry hours away) the quotes cannot tell, and ok is false.
const minCarrySens = 0.002

// maxCarry bounds a believable rate or yield; an answer outside is a
// misfit, not a carry.
const maxCarry = 0.5

// ImpliedCarry is the rate and dividend yield that make the model (American when american)
// reprice the chain's contracts near spot s at their own IVs, t years to expiry;
// ok is false when the quotes cannot tell (then use a neighbouring expiry's).
//
// It solves by Gauss-Newton on the repricing errors with a
// finite-difference Jacobian, at most carryIter steps, European first
// (put-call parity, C - P = S e^{-qT} - K e^{-rT}, is in it) then, for an
// American chain, American from there. ok is false with fewer than one usable
// pair, when r and q barely move the prices (minCarrySens), when the fit
// leaves errors over a cent a contract, or when the answer is out of range.
func ImpliedCarry(s, t float64, american bool, quotes []CarryQuote) (c Carry, ok bool) {
	if !(s > 0) || !(t > 0) || math.IsInf(s+t, 0) {
		return Carry{}, false
	}
	pairs := carryPairsNear(s, quotes)
	if len(pairs) == 0 {
		return Carry{}, false
	}
	// European first, from no carry: its prices are all but linear in
	// the discount and the forward, so it converges from anywhere; the
	// American model then starts where early exercise is a small
	// correction, not where a wild start could lead it astray.
	f := carryFit{s: s, t: t, pairs: pairs}
	c, ok = f.solve(Carry{})
	if ok && american {
		f.american = true
		c, ok = f.solveAmerican(c)
	}
	if !ok || !f.fits(c) || math.Abs(c.R) > maxCarry || math.Abs(c.Q) > maxCarry {
		return Carry{}, false
	}
	return c, true
}

// carryPair is one strike's call and put.
type carryPair struct{ k, cMid, cIV, pMid, pIV float64 }

// carryPairsNear are the strikes nearest s (at most carryPairs) quoted on
// both sides with an IV and enough time value on each.
func carryPairsNear(s float64, quotes []CarryQuote) []carryPair {
	byK := map[float64]*carryPair{}
	for _, q := range quotes {
		if !(q.Strike > 0) || !(q.IV > 0) || !(q.Mid > 0) || math.IsInf(q.Mid+q.IV, 0) {
			continue
		}
		intr := math.Max(q.Strike-s, 0)
		if q.Call {
			intr = math.Max(s-q.Strike, 0)
		}
		if q.Mid-intr < minTimeValue {
			continue
		}
		p := byK[q.Strike]
		if p == nil {
			p = &carryPair{k: q.Strike}
			byK[q.Strike] = p
		}
		if q.Call {
			p.cMid, p.cIV = q.Mid, q.IV
		} else {
			p.pMid, p.pIV = q.Mid, q.IV
		}
	}
	var out []carryPair
	for _, p := range byK {
		if p.cIV > 0 && p.pIV > 0 {
			out = append(out, *p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return math.Abs(out[i].k-s) < math.Abs(out[j].k-s) })
	return out[:min(len(out), carryPairs)]
}

// carryIter bounds Gauss-Newton's steps; it converges in a few.
const carryIter = 20

// carryFit is the repricing problem of ImpliedCarry.
type carryFit struct {
	s, t     float64
	american bool
	pairs    []carryPair
}

// residuals are model price less mid, calls then puts, into out.
func (f *carryFit) residuals(c Carry, out []float64) {
	for i, p := range f.pairs {
		base := Params{S: f.s, K: p.k, T: f.t, R: c.R, Q: c.Q, American: f.american}
		call, put := base, base
		call.Call, call.Vol = true, p.cIV
		put.Vol = p.pIV
		out[2*i] = Price(call) - p.cMid
		out[2*i+1] = Price(put) - p.pMid
	}
}

// solveAmerican is the American solve: Gauss-Newton from a few rates along
// the European fit's forward (r - q kept), the best fit of those that
// converge. The forward is what the quotes tell best; the discount,
// weakly told on a short expiry, is where a European fit puts the early
// exercise premium it cannot model, and it may put it at a negative
// rate, where an American put is a European one and Gauss-Newton from
// there would stay.
func (f *carryFit) solveAmerican(eu Carry) (Carry, bool) {
	best, told, bestErr := eu, false, math.Inf(1)
	for _, r := range americanStarts {
		c, ok := f.solve(Carry{R: r, Q: r - (eu.R - eu.Q)})
		if !ok {
			continue
		}
		if e := f.sse(c); e < bestErr {
			best, told, bestErr = c, true, e
		}
		if bestErr < exactFit*exactFit {
			break // no other start can do better than the quotes' rounding
		}
	}
	return best, told
}

// americanStarts are the rates the American solve starts from, the
// likeliest first.
var americanStarts = [...]float64{0.04, 0, 0.08}

// exactFit is a repricing error below any quote's rounding: a fit within
// it needs no other start.
const exactFit = 1e-5

// sse is the sum of the squared repricing errors at c.
func (f *carryFit) sse(c Carry) float64 {
	res := make([]float64, 2*len(f.pairs))
	f.residuals(c, res)
	e := 0.0
	for _, x := range res {
		e += x * x
	}
	return e
}

// solve runs Gauss-Newton from c; ok is false when r and q barely move
// the prices apart (minCarrySens).
func (f *carryFit) solve(c Carry) (Carry, bool) {
	const h = 1e-5
	m := 2 * len(f.pairs)
	r0, rr, rq := make([]float64, m), make([]float64, m), make([]float64, m)
	for range carryIter {
		f.residuals(c, r0)
		f.residuals(Carry{R: c.R + h, Q: c.Q}, rr)
		f.residuals(Carry{R: c.R, Q: c.Q + h}, rq)
		// Normal equations of the 2x2 least-squares step.
		var a11, a12, a22, g1, g2 float64
		for i := range m {
			jr, jq := (rr[i]-r0[i])/h, (rq[i]-r0[i])/h
			a11 += jr * jr
			a12 += jr * jq
			a22 += jq * jq
			g1 += jr * r0[i]
			g2 += jq * r0[i]
		}
		// A point of r or q must move the prices by minCarrySens, each
		// alone and apart from the other.
		det := a11*a22 - a12*a12
		if math.Sqrt(det/math.Max(a11, a22))*0.01 < minCarrySens {
			return c, false
		}
		dr := -(a22*g1 - a12*g2) / det
		dq := -(a11*g2 - a12*g1) / det
		// No step beyond a believable carry: a far start must not land
		// where the model has no slope.
		dr = math.Max(-0.1, math.Min(0.1, dr))
		dq = math.Max(-0.1, math.Min(0.1, dq))
		c = Carry{R: c.R + dr, Q: c.Q + dq}
		if math.Abs(dr) < 1e-9 && math.Abs(dq) < 1e-9 {
			break
		}
	}
	return c, true
}

// fits reports whether the model at c reprices every contract used
// within a cent.
func (f *carryFit) fits(c Carry) bool {
	res := make([]float64, 2*len(f.pairs))
	f.residuals(c, res)
	for _, e := range res {
		if !(math.Abs(e) <= 0.01) {
			return false
		}
	}
	return true
}

// indexRoots are the symbols and option roots whose options are European
// and cash-settled: the indexes the sandbox lists (market.Index) and their
// roots, and the other index roots the real service lists.
var indexRoots = map[string]bool{
	"SPX": true, "SPXW": true, "SPXPM": true, "XSP": true, "XSPW": true,
	"NDX": true, "NDXP": true, "XND": true, "RUT": true, "RUTW": true, "MRUT": true,
	"VIX": true, "VIXW": true, "DJX": true, "DJXW": true, "OEX": true, "XEO": true,
	"MXEA": true, "MXEF": true, "SPESG": true,
}

// AmericanStyle says whether the chain of an underlying prices American (equity and ETF
// options) or European (index options: SPX, SPXW, NDX, RUT, VIX, XSP, ... whatever the
// sandbox lists as indexes and the real service marks as index).
//
// A leading '$' or '^' (an index's quote symbol elsewhere) is ignored, as
// is case.
func AmericanStyle(symbol string) bool {
	s := strings.ToUpper(strings.TrimLeft(symbol, "$^"))
	return !indexRoots[s]
}
