package pricing

import "math"

// ivStart is what is known at the vol a search starts from: the option's
// value and its vega (per unit of vol), exact or close.
type ivStart struct{ v, vega float64 }

// americanImplied is the implied vol of an American option (the vol at
// which the American value is price, to 1e-10 of the price), searched
// from p.Vol (from start, when set), with the greeks there when greeks.
//
// Far from the answer the search evaluates the value alone
// (americanValue), by Newton's method with the slope of its last two
// evaluations (the start's vega for the first step). Within jetStep of it,
// it evaluates on jets, whose exact vega makes the next Newton step small
// enough to take without checking (americanShortcutStep) and whose greeks
// are then the answer's. From a quote's theoretical value, half a spread
// from the answer, that is two values and one jet. The search is kept
// inside a bracket that falls back to geometric bisection, and starts,
// without a start, from the European implied vol of the price, which
// bounds the American one from above (an American option is worth at
// least its European twin at any vol).
func americanImplied(price float64, p Params, start *ivStart, greeks bool) (float64, Greeks, bool) {
	if !(p.T > 0 && p.S > 0 && p.K > 0 && price > 0) {
		return 0, Greeks{}, false
	}
	if sum := p.T + p.S + p.K + p.R + p.Q + price; math.IsInf(sum, 0) || math.IsNaN(sum) {
		return 0, Greeks{}, false
	}
	if lo, hi := americanBounds(p); !(price > lo && price < hi) {
		return 0, Greeks{}, false
	}
	s := ivSearch{lo: MinIV, hi: MaxIV, tol: 1e-10 * math.Max(1, price)}
	if start == nil || !(p.Vol > MinIV && p.Vol < MaxIV) {
		e := p
		e.American, start = false, nil
		p.Vol = MaxIV
		if v, ok := ImpliedVol(price, e); ok {
			p.Vol, s.hi, e.Vol = v, v, v
			_, g := Compute(e)
			start = &ivStart{americanValue(p), g.Vega * 100}
		}
	}
	e := ivEval{p: p, price: price, jets: greeks && p.T >= MinT}
	if start != nil {
		e.f, e.slope = start.v-price, start.vega
	} else {
		e.value()
	}
	for range maxIter {
		next, done, ok := s.step(e.p.Vol, e.f, e.slope)
		if done {
			if !ok {
				return 0, Greeks{}, false
			}
			return next, e.greeks(next, greeks), true
		}
		e.move(next)
	}
	return 0, Greeks{}, false
}

// ivEval is americanImplied's evaluation at p.Vol: the value less the
// price (f) and the slope there, exact from a jet (isJet) or from the
// last two values.
type ivEval struct {
	p        Params
	price    float64
	jets     bool // greeks wanted, and T at least MinT: jets may be evaluated
	f, slope float64
	jet      jet
	isJet    bool
	prevVol  float64
	prevF    float64
}

// value evaluates the value alone at p.Vol.
func (e *ivEval) value() {
	e.f, e.isJet = americanValue(e.p)-e.price, false
}

// move evaluates at vol: on jets when it is within jetStep of the last
// point, else the value alone with the secant slope.
func (e *ivEval) move(vol float64) {
	near := e.jets && math.Abs(vol-e.p.Vol) < jetStep
	e.prevVol, e.prevF = e.p.Vol, e.f
	e.p.Vol = vol
	if near {
		e.jet = americanJet(e.p)
		e.f, e.slope, e.isJet = e.jet.v-e.price, e.jet.s, true
		return
	}
	e.value()
	if d := (e.f - e.prevF) / (vol - e.prevVol); d > 0 && vol != e.prevVol {
		e.slope = d
	}
}

// greeks are the greeks at the answer: the last jet's when it is within
// americanShortcutStep of it, else a jet's there.
func (e *ivEval) greeks(answer float64, want bool) Greeks {
	if !want {
		return Greeks{}
	}
	if e.isJet && math.Abs(answer-e.p.Vol) <= americanShortcutStep {
		return greeksOf(e.jet, e.p.S)
	}
	q := e.p
	q.Vol, q.T = answer, math.Max(q.T, MinT) // greeks at a minute at least, as Compute's
	return greeksOf(americanJet(q), q.S)
}

// europeanTolerance is how close (in vol) ImpliedVolFrom's European
// steps come to the answer before they stop. americanShortcutStep is the
// step below which americanImplied takes it as the answer without
// evaluating there: its error is a small fraction of the step (of the
// order of the step squared times volga over vega with a jet's exact
// slope), and a jet's greeks that near the answer are the answer's to
// their published digits. jetStep is the step within which it evaluates
// on jets.
const (
	europeanTolerance    = 1e-9
	americanShortcutStep = 1e-8
	jetStep              = 1e-6
)

// ivSearch is a safeguarded Newton search for the root of an increasing
// function of the vol in [lo, hi].
type ivSearch struct {
	lo, hi         float64
	tol            float64
	loSeen, hiSeen bool // whether the bracket's ends were evaluated
}

// step takes the function's value f and slope at x and returns the next
// point, or done with ok and the root: x itself, or x after a Newton step
// too small to need checking (americanShortcutStep); ok false: there is no
// root in the search range, or the bracket collapsed without meeting tol.
func (s *ivSearch) step(x, f, slope float64) (next float64, done, ok bool) {
	if math.Abs(f) <= s.tol {
		return x, true, true
	}
	if n := f / slope; math.Abs(n) < americanShortcutStep && x-n > s.lo && x-n < s.hi {
		return x - n, true, true
	}
	if f < 0 {
		if x >= MaxIV {
			return 0, true, false // needs more than MaxIV
		}
		s.lo, s.loSeen = x, true
	} else {
		if x <= MinIV {
			return 0, true, false // needs less than MinIV
		}
		s.hi, s.hiSeen = x, true
	}
	if s.hi-s.lo <= 4e-16*s.hi {
		return 0, true, false
	}
	next = math.NaN()
	if slope > 0 {
		// A step may overshoot far from the money; at most a factor of
		// two per step reaches the root's neighbourhood from anywhere.
		next = math.Min(math.Max(x-f/slope, 0.5*x), 2*x)
	}
	switch {
	case next > s.lo && next < s.hi:
	case next >= s.hi && !s.hiSeen:
		next = s.hi
	case next <= s.lo && !s.loSeen:
		next = s.lo
	default:
		next = math.Sqrt(s.lo * s.hi)
	}
	return next, false, false
}
