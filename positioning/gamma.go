package positioning

import (
	"math"
	"slices"

	"chainwatch/pricing"
)

// The zero-gamma level is the spot at which the dealers' total gamma
// exposure changes sign: above it their hedging damps moves (they sell
// rallies and buy dips), below it their hedging feeds them. The service
// sends each contract's gamma at today's spot only, so the level is found
// by pricing every contract's gamma again at other spots.
//
// Gamma is the chain's model's (model.go), as the displayed GEX's is:
// from the contract's own IV (the smile's where it has none), its time to
// the close of its expiry day and its expiry's carry. Its shape over spot
// is Black-Scholes-Merton's (pricing.GammaCurve), scaled to the gamma the
// contract has at spot (the service's, or the estimate's): at most twice
// the model's, and never negative. For index options (European) the scale
// is 1 but for the rounding of the spot the service sends (which moves a
// gamma a minute from expiry by a percent or two); for an American
// contract it is early exercise's effect on gamma's level at spot,
// Bjerksund-Stensland's over Black-Scholes-Merton's, where pricing it
// American at every spot of the grid would cost a hundred times more. So
// the curve at spot is the displayed total. A put deep enough to be
// exercised (gamma 0) adds nothing at any spot, which understates the
// curve above spot a little, where it would leave the exercise region.

// ZeroGammaRange is how far from spot the level is looked for: ±10 %.
const ZeroGammaRange = 0.10

// ZeroGammaGrid is the number of spots the search prices first.
const ZeroGammaGrid = 200

// term is one contract of the curve: its exposure at spot S is
// S x w x exp(-x²/2) with x = (ln S - m) / sd. m and sd fold the strike,
// IV and time; w the open interest, the sign, 100 x 0.01 and 1/(sd√(2π)).
type term struct{ m, inv, w float64 }

// Curve is the total dealer gamma exposure of a range of expiries as a
// function of spot: each contract's gamma priced again at that spot.
type Curve struct{ terms []term }

// NewCurve is the curve of the expiries sel. A contract without open
// interest or IV, or whose expiry has settled, adds nothing.
func NewCurve(c *Chain, sel []int) *Curve {
	n := 0
	for _, x := range sel {
		n += 2 * len(c.Exps[x].Rows)
	}
	cv := &Curve{terms: make([]term, 0, n)}
	ls := math.Log(c.Spot)
	for _, x := range sel {
		e := &c.Exps[x]
		for i := range e.Rows {
			r := &e.Rows[i]
			cv.add(c, e, r.Strike, &r.Call, true, ls)
			cv.add(c, e, r.Strike, &r.Put, false, ls)
		}
	}
	return cv
}

// add adds a contract: its exposure at spot S is gamma x open interest x
// the multiplier x S² x 1 %, which is S x w x exp(-x²/2) with w folding
// the gamma's peak and its scale to the contract's gamma at spot (ls is
// ln spot).
func (cv *Curve) add(c *Chain, e *Expiry, strike float64, s *Side, call bool, ls float64) {
	if s.oi() <= 0 {
		return
	}
	g, ok := pricing.GammaCurveOf(c.Params(e, strike, call, c.Spot, s.IV))
	if !ok {
		return
	}
	w := float64(s.oi()) * pricing.Multiplier * 0.01 * g.Peak
	if !call {
		w = -w
	}
	if s.Gamma >= 0 {
		x := (ls - g.Mean) * g.InvSD
		if at := g.Peak / c.Spot * math.Exp(-x*x/2); at > 0 {
			w *= min(s.Gamma/at, 2)
		}
	}
	cv.terms = append(cv.terms, term{m: g.Mean, inv: g.InvSD, w: w})
}

// Len is the number of contracts on the curve.
func (cv *Curve) Len() int { return len(cv.terms) }

// At is the total exposure at spot s, in dollars per 1 % move.
func (cv *Curve) At(s float64) float64 {
	ls := math.Log(s)
	var sum float64
	for i := range cv.terms {
		t := &cv.terms[i]
		x := (ls - t.m) * t.inv
		if x > cut || x < -cut {
			continue
		}
		sum += t.w * math.Exp(-x*x/2)
	}
	return s * sum
}

// cut is where a contract's density is too small to count:
// e^(-cut²/2) is 1e-18 of its peak.
const cut = 9.1

// Grid is the exposure at n spots from lo to hi, evenly spaced in log
// price (n >= 2). Each contract's Gaussian in log price is walked by a
// ratio that changes by a constant factor from one spot to the next, so
// the grid costs two multiplications a contract a spot, not an
// exponential; the walk starts at the contract's peak, so a value too
// small to hold (underflow) only ever shrinks further.
func (cv *Curve) Grid(lo, hi float64, n int) (spots, gex []float64) {
	spots, gex = make([]float64, n), make([]float64, n)
	l0 := math.Log(lo)
	step := (math.Log(hi) - l0) / float64(n-1)
	for i := range spots {
		spots[i] = math.Exp(l0 + step*float64(i))
	}
	for i := range cv.terms {
		cv.terms[i].walk(gex, l0, step)
	}
	for i := range gex {
		gex[i] *= spots[i]
	}
	return spots, gex
}

// Profile is the curve the zero-gamma search walks, as `gex --profile`
// prints it: the exposure at n spots evenly spaced in log price over
// ±ZeroGammaRange of spot, and at spot itself, in order (n+1 points; none
// without a spot).
func (cv *Curve) Profile(spot float64, n int) (spots, gex []float64) {
	if !(spot > 0) || n < 2 {
		return nil, nil
	}
	spots, gex = cv.Grid(spot*(1-ZeroGammaRange), spot*(1+ZeroGammaRange), n)
	i, _ := slices.BinarySearch(spots, spot)
	return slices.Insert(spots, i, spot), slices.Insert(gex, i, cv.At(spot))
}

// walk adds the term's w x exp(-x_i²/2) to acc at every spot i, where
// x_i = x0 + i a: from the spot nearest its peak (x = 0) outward both
// ways, f(i±1) = f(i) r and r is multiplied by exp(-a²) at each step.
func (t *term) walk(acc []float64, l0, step float64) {
	n := len(acc)
	x0, a := (l0-t.m)*t.inv, step*t.inv
	peak := int(min(max(math.Round(-x0/a), 0), float64(n-1)))
	xp := x0 + float64(peak)*a
	if xp > cut || xp < -cut {
		return // the nearest spot is already in the tail: so are the others
	}
	q := math.Exp(-a * a)
	fp := t.w * math.Exp(-xp*xp/2)
	acc[peak] += fp
	// Upward: f(i+1)/f(i) = exp(-(x_i a + a²/2)).
	f, r := fp, math.Exp(-(xp*a + a*a/2))
	for i := peak + 1; i < n && f != 0; i++ {
		f *= r
		r *= q
		acc[i] += f
	}
	// Downward: f(i-1)/f(i) = exp(x_i a - a²/2).
	f, r = fp, math.Exp(xp*a-a*a/2)
	for i := peak - 1; i >= 0 && f != 0; i-- {
		f *= r
		r *= q
		acc[i] += f
	}
}

// Flip is where the exposure changes sign near spot: Level is the spot
// where it does (NaN when it keeps one sign over the whole range), and
// Sign is the exposure's sign over the range when it does not (+1 or
// -1; 0 when it flips, or nothing is held).
type Flip struct {
	Level float64
	Sign  int
}

// ZeroGamma finds the zero-gamma level within ±ZeroGammaRange of spot:
// the exposure is priced on a grid of n spots, the sign change nearest
// spot is taken, and the level is narrowed down within it by bisection to
// a millionth of spot.
func (cv *Curve) ZeroGamma(spot float64, n int) Flip {
	if !(spot > 0) || len(cv.terms) == 0 || n < 2 {
		return Flip{Level: math.NaN()}
	}
	spots, gex := cv.Grid(spot*(1-ZeroGammaRange), spot*(1+ZeroGammaRange), n)
	best := -1
	for i := 0; i+1 < n; i++ {
		if !crosses(gex[i], gex[i+1]) {
			continue
		}
		if best < 0 || math.Abs(spots[i]+spots[i+1]-2*spot) < math.Abs(spots[best]+spots[best+1]-2*spot) {
			best = i
		}
	}
	if best < 0 {
		f := Flip{Level: math.NaN(), Sign: 1}
		if gex[0] < 0 {
			f.Sign = -1
		}
		return f
	}
	lo, hi, glo := spots[best], spots[best+1], gex[best]
	switch {
	case glo == 0:
		return Flip{Level: lo}
	case gex[best+1] == 0:
		return Flip{Level: hi}
	}
	for range 64 {
		if hi-lo <= spot*1e-6 {
			break
		}
		mid := (lo + hi) / 2
		if g := cv.At(mid); (g < 0) == (glo < 0) {
			lo, glo = mid, g
		} else {
			hi = mid
		}
	}
	return Flip{Level: (lo + hi) / 2}
}

// crosses reports whether the exposure changes sign from a to b (one of
// them zero counts).
func crosses(a, b float64) bool { return a < 0 && b >= 0 || a > 0 && b <= 0 || a == 0 && b != 0 }
