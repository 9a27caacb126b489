package pricing

import "math"

// The implied volatility search range. A price whose volatility lies
// outside it is reported as not invertible rather than answered with a
// number no trader would quote; the surface (Surface.Vol) stays inside it so
// every sandbox price inverts.
const (
	MinIV = 1e-4
	MaxIV = 5.0
)

// maxIter bounds the search. Typical chains converge in 2 to 4 steps; the
// geometric bisection fallback halves the log-width of [MinIV, MaxIV] each
// step and reaches double precision well within this.
const maxIter = 100

// ImpliedVol returns the volatility at which Price reproduces price for the
// option p (p.Vol is ignored), to |Price(vol)-price| <= 1e-10*max(1, price).
//
// ok is false, with vol 0, when there is no such volatility in
// [MinIV, MaxIV]: the price is not strictly between the no-arbitrage bounds
// (Bounds), the option has expired (T <= 0), an input is not a finite
// number (S, K and price must also be positive), or the volatility lies
// outside the search range.
//
// The search runs on the undiscounted out-of-the-money equivalent (an
// in-the-money call becomes the put of the same strike by put-call parity):
// its price is pure time value, so the problem is well conditioned, and it
// is positive, so the steps can be taken on log(price), which behaves far
// better than price itself far from the money. Steps are Halley's (Newton
// with the curvature from volga, no extra transcendental call), limited to
// a factor of two, inside a bracket that falls back to geometric bisection.
//
// An American option's vol is searched on its American value, from the
// European implied vol of the same price (see americanImplied).
func ImpliedVol(price float64, p Params) (vol float64, ok bool) {
	if p.American {
		v, _, ok := americanImplied(price, p, nil, false)
		return v, ok
	}
	if !(p.T > 0 && p.S > 0 && p.K > 0 && price > 0) {
		return 0, false
	}
	if sum := p.T + p.S + p.K + p.R + p.Q + price; math.IsInf(sum, 0) || math.IsNaN(sum) {
		return 0, false // an infinity or a NaN among them
	}
	// The same arithmetic as Bounds and Price, so that the bounds and the
	// final check agree with them exactly.
	dr := math.Exp(-p.R * p.T)
	sdq := p.S * math.Exp(-p.Q*p.T)
	kdr := p.K * dr
	lower, upper := math.Max(sdq-kdr, 0), sdq
	if !p.Call {
		lower, upper = math.Max(kdr-sdq, 0), kdr
	}
	if !(price > lower && price < upper) {
		return 0, false
	}
	F := sdq / dr
	otmCall := p.K >= F
	c := price
	if p.Call != otmCall {
		c -= lower // put-call parity: C - P = S e^{-QT} - K e^{-RT}
	}
	c /= dr // undiscounted
	if !(c > 0) {
		return 0, false
	}
	tol := 1e-10 * math.Max(1, price)
	sqrtT := math.Sqrt(p.T)
	lnSK, driftT := math.Log(p.S/p.K), (p.R-p.Q)*p.T
	check := func(v float64) bool {
		return math.Abs(closedForm(sdq, kdr, lnSK, driftT, sqrtT, v, p.Call)-price) <= tol
	}
	// The solver's own tolerance leaves room for the rounding between its
	// undiscounted out-of-the-money values and Price.
	s := solver{c: c, F: F, K: p.K, lnFK: math.Log(F / p.K), sqrtT: sqrtT, call: otmCall, tol: 0.25 * tol / dr}
	v, found := s.solve(true)
	if !found {
		return 0, false
	}
	if check(v) {
		return v, true
	}
	// The shortcut's unconfirmed last step missed: solve to the end.
	if v, found = s.solve(false); found && check(v) {
		return v, true
	}
	return 0, false
}

// ImpliedVolFrom is ImpliedVol with the greeks at the vol found, searched
// from p.Vol, where the option is worth v with greeks g (as Compute gives
// them): for a quote, its theoretical value, half a spread from the
// answer, so one or two steps find it. The vol agrees with ImpliedVol's
// to within the tolerance.
//
// For a European option the steps are Halley's on Compute (vega and volga
// in closed form), to within europeanTolerance of the vol (from half a
// spread away, one step: they converge cubically), while they settle
// quickly, else ImpliedVol decides; for an American one they are Newton's
// on the American value (see americanImplied), and g may be the European
// greeks at p.Vol: its vega is only the first step's slope.
func ImpliedVolFrom(price float64, p Params, v float64, g Greeks) (float64, Greeks, bool) {
	if p.American {
		return americanImplied(price, p, &ivStart{v, g.Vega * 100}, true)
	}
	// No bounds check: a price outside them has no vol for the steps to
	// settle on, and ImpliedVol refuses it.
	sqrtT := math.Sqrt(p.T)
	lnFK := math.Log(p.S/p.K) + (p.R-p.Q)*p.T
	for i := 0; ; i++ {
		vega := g.Vega * 100 // per unit of vol
		if !(vega > 1e-9*math.Max(1, price)) || i == 4 {
			break // too flat, or slow: leave it to the bracketing solver
		}
		f := v - price
		if math.Abs(f/vega) < europeanTolerance {
			if p.Vol < MinIV || p.Vol > MaxIV {
				return 0, Greeks{}, false
			}
			return p.Vol, g, true
		}
		sd := p.Vol * sqrtT
		d1 := lnFK/sd + 0.5*sd
		volga := vega * d1 * (d1 - sd) / p.Vol
		step := f / vega
		if den := 1 - 0.5*step*volga/vega; den > 0.5 && den < 2 {
			step /= den
		}
		p.Vol -= step
		if !(p.Vol > MinIV/2 && p.Vol < 2*MaxIV) {
			break
		}
		v, g = Compute(p)
	}
	iv, ok := ImpliedVol(price, p)
	if !ok {
		return 0, Greeks{}, false
	}
	p.Vol = iv
	_, g = Compute(p)
	return iv, g, true
}

// ImpliedVolNear is ImpliedVolFrom without the greeks, which for an
// American option saves the evaluation on jets they cost.
func ImpliedVolNear(price float64, p Params, v float64, g Greeks) (float64, bool) {
	if p.American {
		vol, _, ok := americanImplied(price, p, &ivStart{v, g.Vega * 100}, false)
		return vol, ok
	}
	vol, _, ok := ImpliedVolFrom(price, p, v, g)
	return vol, ok
}

// solver finds the vol of an undiscounted out-of-the-money Black price c.
type solver struct {
	c, F, K, lnFK, sqrtT float64
	call                 bool
	tol                  float64
}

// black is the undiscounted Black price of the option on the forward, its
// vega and its volga (first and second derivatives in vol).
func (s *solver) black(vol float64) (price, vega, volga float64) {
	sd := vol * s.sqrtT
	d1 := s.lnFK/sd + 0.5*sd
	d2 := d1 - sd
	if s.call {
		price = s.F*NormCDF(d1) - s.K*NormCDF(d2)
	} else {
		price = s.K*NormCDF(-d2) - s.F*NormCDF(-d1)
	}
	vega = s.F * NormPDF(d1) * s.sqrtT
	return price, vega, vega * d1 * d2 / vol
}

// solve returns vol in [MinIV, MaxIV] with |black(vol) - c| <= tol. With
// shortcut, a Halley step from a point already within 1e-6 (relative) of
// the target is taken as the answer without evaluating it: the error after
// it is of the order of the cube, far below the tolerance, and the caller
// checks it through Price anyway. That saves one evaluation in three.
func (s *solver) solve(shortcut bool) (float64, bool) {
	lnc := math.Log(s.c)
	lo, hi := MinIV, MaxIV
	loSeen, hiSeen := false, false // whether the range ends were evaluated
	v := s.guess()
	for range maxIter {
		b, vega, volga := s.black(v)
		diff := b - s.c
		if math.Abs(diff) <= s.tol {
			return v, true
		}
		if diff < 0 {
			if v >= MaxIV {
				return 0, false // needs more than MaxIV
			}
			lo, loSeen = v, true
		} else {
			if v <= MinIV {
				return 0, false // needs less than MinIV
			}
			hi, hiSeen = v, true
		}
		if hi-lo <= 4e-16*hi {
			// Collapsed at double precision: the caller's check against
			// the full tolerance decides.
			return v, true
		}
		next, done := s.halleyNext(v, b, vega, volga, lnc, lo, hi, shortcut)
		if done {
			return next, true
		}
		v = bracketed(next, lo, hi, loSeen, hiSeen)
	}
	return 0, false
}

// halleyNext is the next vol from v by a Halley step on ln(black) (a
// Newton step where Halley's correction is out of bounds), NaN when black
// or vega is 0; done when shortcut takes it as the answer (see solve).
func (s *solver) halleyNext(v, b, vega, volga, lnc, lo, hi float64, shortcut bool) (next float64, done bool) {
	if !(b > 0 && vega > 0) {
		return math.NaN(), false
	}
	f := math.Log(b) - lnc
	f1 := vega / b
	f2 := volga/b - f1*f1
	step := f / f1
	halley := 1 - 0.5*step*f2/f1
	if halley > 0.5 && halley < 2 {
		step /= halley
		if shortcut && math.Abs(f) < 1e-6 && v-step > lo && v-step < hi {
			return v - step, true
		}
	}
	// Far from the money a step may overshoot by orders of magnitude; a
	// factor of two per step reaches the root's neighbourhood quickly
	// from any guess.
	return math.Min(math.Max(v-step, 0.5*v), 2*v), false
}

// bracketed is next when it is inside (lo, hi), else the end of the range
// on its side when that was never evaluated, else the bracket's
// geometric middle.
func bracketed(next, lo, hi float64, loSeen, hiSeen bool) float64 {
	switch {
	case next > lo && next < hi:
		return next
	case next >= hi && !hiSeen:
		return MaxIV
	case next <= lo && !loSeen:
		return MinIV
	}
	return math.Sqrt(lo * hi)
}

// guess is the Corrado-Miller approximation of the implied volatility,
// written on the undiscounted call of the same strike (parity from the put),
// or 0.3 where it fails. It is close near the money; far from it the
// limited steps do the rest.
func (s *solver) guess() float64 {
	c := s.c
	if !s.call {
		c += s.F - s.K
	}
	h := c - 0.5*(s.F-s.K)
	disc := h*h - (s.F-s.K)*(s.F-s.K)/math.Pi
	v := sqrt2Pi / (s.F + s.K) * (h + math.Sqrt(math.Max(disc, 0))) / s.sqrtT
	if !(v > MinIV) || !(v < MaxIV) {
		return 0.3
	}
	return v
}
