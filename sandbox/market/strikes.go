package market

import (
	"math"
	"slices"
)

// Strike grids. A chain is dense near the money and sparse in the wings,
// and wider the longer the expiry: the range is a number of standard
// deviations (vol x sqrt(T)) either way, at least about +-20 %, in three
// bands. Each band's increment is the listed step (0.5, 1, 2.5, 5, 10,
// 25, ...) nearest to the band's width over a number of strikes, so the
// steps follow the price level and the expiry as the exchanges' do (SPX 5
// near the money, 25 and 100 further out, coarser for LEAPS; a $285 stock
// 2.5, 5 and 10; a $14 stock 0.5 and 1). This is one day's window: an
// expiry lists the union of the windows of every day since its listing
// (listing.go), so the counts are about half of what a chain shows once
// the price has wandered, which keeps a chain's size near that of a single
// wider window. Strikes are exact multiples of their increment: they are
// kept in half-dollar units until the end.

// gridKind selects the strike counts and minimum steps.
type gridKind uint8

const (
	gridStock gridKind = iota
	gridFund           // ETFs and the small indices (XSP, DJX)
	gridIndex          // SPX, NDX, RUT, OEX
	gridVIX
)

// gridShape is the number of strikes a grid aims at in its near band, its
// middle band and its wings, and its smallest near-the-money step (for
// shares and funds it grows with the price: 0.5 below $25, 1 below $200,
// 2.5 below $500, 5 above).
type gridShape struct {
	near, mid, wing float64
	minStep         float64
}

var shapes = map[gridKind]gridShape{
	gridStock: {near: 8, mid: 6, wing: 6, minStep: 0.5},
	gridFund:  {near: 12, mid: 8, wing: 8, minStep: 0.5},
	gridIndex: {near: 22, mid: 16, wing: 12, minStep: 5},
}

// niceSteps are the increments listing exchanges use.
var niceSteps = []float64{0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500}

// nice returns the listed increment nearest to x (in ratio), the
// smaller of two as near; the first one for an x that is not a positive
// number. Only the two increments around x are compared: every other one
// is at least twice as far in ratio (the increments at least double), so
// the nearest is one of them. A listing's walk asks this for every day of
// every expiry.
func nice(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 1) {
		return niceSteps[0]
	}
	i, _ := slices.BinarySearch(niceSteps, x)
	if i == 0 || i == len(niceSteps) {
		return niceSteps[min(i, len(niceSteps)-1)]
	}
	lo, hi := niceSteps[i-1], niceSteps[i]
	if math.Abs(math.Log(hi/x)) < math.Abs(math.Log(lo/x)) {
		return hi
	}
	return lo
}

// floorNice returns the largest listed increment <= x (the smallest one
// when x is below it).
func floorNice(x float64) float64 {
	best := niceSteps[0]
	for _, s := range niceSteps {
		if s <= x*(1+1e-9) {
			best = s
		}
	}
	return best
}

// onGrid returns inc, or the next listed increment that is a multiple of
// unit.
func onGrid(inc, unit float64) float64 {
	for r := inc / unit; math.Abs(r-math.Round(r)) > 1e-9; r = inc / unit {
		inc = next(inc)
	}
	return inc
}

// next returns the listed increment after inc.
func next(inc float64) float64 {
	for _, s := range niceSteps {
		if s > inc {
			return s
		}
	}
	return inc
}

// strikes returns the grid for a price s, vol and expiry t (years).
func (g gridKind) strikes(s, vol, t float64) []float64 {
	var l listing
	l.add(g, s, vol, t)
	return l.strikes(g)
}

// band is one arithmetic run of strikes: the multiples of step (in
// half-dollar units) from a to b (dollars).
type band struct {
	step int64
	a, b float64
}

// bands returns the grid's wings, middle band and near band for a price
// s, vol and expiry t (years); ok is false when s lists nothing. VIX
// grids are a fixed ladder, vixRange's.
func (g gridKind) bands(s, vol, t float64) (out [3]band, ok bool) {
	if s <= 0 || g == gridVIX {
		return out, false
	}
	sh := shapes[g]
	sd := vol * math.Sqrt(t)
	down, up := math.Max(0.22, 5*sd), math.Max(0.2, 3.5*sd)
	if g != gridIndex {
		down, up = math.Max(0.22, 4.5*sd), math.Max(0.2, 4*sd)
	}
	minStep := sh.minStep
	switch {
	case g == gridIndex:
	case s >= 1000:
		minStep = 5
	case g == gridStock && s >= 500:
		minStep = 5
	case g == gridStock && s >= 200:
		minStep = 2.5
	case s >= 25:
		minStep = 1
	}
	// The near band holds a fixed number of strikes at the finest step
	// that spans about half a standard deviation; the middle band and the
	// wings take the steps nearest to their width over their counts.
	// Every step is a multiple of the smallest (no 2.5 beside a 1 grid), so
	// that what earlier days listed stays on today's near-the-money grid.
	near := onGrid(math.Max(minStep, floorNice(2*math.Max(0.02, 0.5*sd)*s/sh.near)), minStep)
	nearW := sh.near / 2 * near / s
	midW := math.Max(math.Max(0.08, 1.5*sd), nearW)
	mid := onGrid(math.Max(next(near), nice(2*midW*s/sh.mid)), minStep)
	lo := s * math.Max(math.Exp(-math.Max(down, midW)), 0.05)
	hi := s * math.Min(math.Exp(math.Max(up, midW)), 2.2)
	wing := onGrid(math.Max(next(mid), nice((hi-lo)/sh.wing)), minStep)
	mk := func(inc, a, b float64) band {
		return band{int64(math.Round(inc * 2)), math.Max(a, lo), math.Min(b, hi)}
	}
	return [3]band{
		mk(wing, lo, hi),
		mk(mid, s*math.Exp(-midW), s*math.Exp(midW)),
		mk(near, s*math.Exp(-nearW), s*math.Exp(nearW)),
	}, true
}

// vixRange is the span of the VIX ladder: from about 60 % of the level
// to several times it (VIX calls are bought for spikes).
func vixRange(s, vol, t float64) (lo, hi float64) {
	return math.Max(9, math.Floor(s*0.6)), math.Min(150, s*(1.6+2.5*vol*math.Sqrt(t)))
}

// vixStrikes lists the VIX ladder from lo to hi: one point up to 30, then
// 2.5 to 50, then 5.
func vixStrikes(lo, hi float64) []float64 {
	var h []int64
	for k := lo; k <= hi; {
		h = append(h, int64(math.Round(k*2)))
		switch {
		case k < 30:
			k++
		case k < 50:
			k += 2.5
		default:
			k += 5
		}
	}
	return halves(h)
}

// halves sorts and dedupes half-dollar units into strikes.
func halves(h []int64) []float64 {
	slices.Sort(h)
	h = slices.Compact(h)
	out := make([]float64, len(h))
	for i, v := range h {
		out[i] = float64(v) / 2
	}
	return out
}
