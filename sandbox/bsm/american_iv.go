package bsm

import "math"

// americanImplied is the implied vol of an American option (the vol at
// which the American value is price, to 1e-10 of the price) with the
// greeks there, searched from p.Vol. start, when set, is the value and
// greeks already known at p.Vol, which saves an evaluation.
//
// Each evaluation gives the value and its exact vega (jets), so the
// search is Newton's method: from a quote's theoretical value, half a
// spread from the answer, usually one evaluation more. It is kept inside a
// bracket that falls back to geometric bisection, and starts, without a
// guess, from the European implied vol of the price, which bounds the
// American one from above (an American option is worth at least its
// European twin at any vol).
func americanImplied(price float64, p Params, start *jet) (float64, Greeks, bool) {
	if !(p.T > 0 && p.S > 0 && p.K > 0 && price > 0) {
		return 0, Greeks{}, false
	}
	if sum := p.T + p.S + p.K + p.R + p.Q + price; math.IsInf(sum, 0) || math.IsNaN(sum) {
		return 0, Greeks{}, false
	}
	if lo, hi := americanBounds(p); !(price > lo && price < hi) {
		return 0, Greeks{}, false
	}
	q := p
	q.T = math.Max(p.T, MinT) // greeks at a minute at least, as Compute's
	s := ivSearch{lo: MinIV, hi: MaxIV, tol: 1e-10 * math.Max(1, price)}
	if start == nil || !(p.Vol > MinIV && p.Vol < MaxIV) {
		e := p
		e.American, start = false, nil
		p.Vol = MaxIV
		if v, ok := ImpliedVol(price, e); ok {
			p.Vol, s.hi = v, v
		}
	}
	for range maxIter {
		var j jet
		if start != nil {
			j, start = *start, nil
		} else {
			j = americanJet(p)
		}
		next, done, ok := s.step(p.Vol, j.v-price, j.s)
		if !done {
			p.Vol = next
			continue
		}
		if !ok {
			return 0, Greeks{}, false
		}
		if q.T != p.T {
			q.Vol = p.Vol
			j = americanJet(q)
		}
		return next, greeksOf(j, p.S), true
	}
	return 0, Greeks{}, false
}

// europeanTolerance is how close (in vol) ImpliedVolFrom's European
// steps come to the answer before they stop. americanShortcutStep is the
// Newton step below which americanImplied takes the step as the answer
// without evaluating there: its error is of the order of the step squared
// times volga over vega, 1e-12 or less, and the greeks of the last
// evaluation, less than 1e-8 of a vol away, are the answer's to their
// published digits.
const (
	europeanTolerance    = 1e-9
	americanShortcutStep = 1e-8
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
