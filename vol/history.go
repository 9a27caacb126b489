package vol

import (
	"chainwatch/past"
	"math"
	"slices"
)

// Past is a symbol's figures against its own year (past.Figures, where
// the feed carries them without importing vol).
type Past = past.Figures

// MinSessions is the fewest past sessions IV rank and percentile are
// given from: a range of fewer than a month of days says nothing.
const MinSessions = 20

// TradingDaysPerYear annualises realized vol.
const TradingDaysPerYear = 252

// PastStats is what the figures need of a symbol's stored year, as a
// store reads it without handing over every session: of the IV30 of the
// (up to 251) sessions before the current one, how many there are, their
// low and high, and how many are below the current IV30; and the closes
// of consecutive sessions up to the last one known, oldest first.
type PastStats struct {
	N, Below int
	Lo, Hi   float64
	Closes   []float64
}

// StatsOf is PastStats of a list: past the IV30 of the sessions before
// the current one (oldest first; only the last 251 count), cur the
// current IV30.
func StatsOf(cur float64, past, closes []float64) PastStats {
	if len(past) > TradingDaysPerYear-1 {
		past = past[len(past)-(TradingDaysPerYear-1):]
	}
	st := PastStats{N: len(past), Lo: math.Inf(1), Hi: math.Inf(-1), Closes: closes}
	for _, v := range past {
		st.Lo, st.Hi = math.Min(st.Lo, v), math.Max(st.Hi, v)
		if v < cur {
			st.Below++
		}
	}
	return st
}

// PastFigures are the figures of a symbol whose IV30 now is iv30 (in
// percentage points, as the service sends it, and so is past), with past
// the IV30 of the sessions before (oldest first; only the last 251
// count) and closes the closes of consecutive sessions up to the last
// one known, oldest first.
func PastFigures(iv30 float64, past, closes []float64) Past {
	return FiguresOf(iv30, StatsOf(iv30, past, closes))
}

// FiguresOf is the figures from a store's PastStats, by the definitions
// of IVRank, IVPercentile and HV.
func FiguresOf(iv30 float64, st PastStats) Past {
	p := Past{Sessions: st.N, IVRank: math.NaN(), IVPercentile: math.NaN(), IVHV: math.NaN(),
		HV10: HV(st.Closes, 10), HV20: HV(st.Closes, 20), HV30: HV(st.Closes, 30)}
	if !math.IsNaN(iv30) && st.N >= MinSessions {
		lo, hi := math.Min(st.Lo, iv30), math.Max(st.Hi, iv30)
		if hi > lo {
			p.IVRank = 100 * (iv30 - lo) / (hi - lo)
		}
		p.IVPercentile = 100 * float64(st.Below) / float64(st.N)
	}
	if !math.IsNaN(iv30) && p.HV30 > 0 {
		p.IVHV = iv30 / 100 / p.HV30
	}
	return p
}

// IVRank is 100 x (cur - low) / (high - low) over past and cur; NaN when
// the range is empty (every value the same).
func IVRank(cur float64, past []float64) float64 {
	lo, hi := cur, cur
	for _, v := range past {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(hi > lo) {
		return math.NaN()
	}
	return 100 * (cur - lo) / (hi - lo)
}

// IVPercentile is the percentage of past strictly below cur.
func IVPercentile(cur float64, past []float64) float64 {
	if len(past) == 0 {
		return math.NaN()
	}
	n := 0
	for _, v := range past {
		if v < cur {
			n++
		}
	}
	return 100 * float64(n) / float64(len(past))
}

// HV is the realized vol of the last n close-to-close log returns of
// closes (consecutive sessions, oldest first), annualised on 252
// sessions; NaN with fewer than n+1 closes or a close that is not
// positive.
func HV(closes []float64, n int) float64 {
	if n < 2 || len(closes) < n+1 {
		return math.NaN()
	}
	c := closes[len(closes)-n-1:]
	if slices.ContainsFunc(c, func(v float64) bool { return !(v > 0) }) {
		return math.NaN()
	}
	var mean float64
	rets := make([]float64, n)
	for i := range rets {
		rets[i] = math.Log(c[i+1] / c[i])
		mean += rets[i]
	}
	mean /= float64(n)
	var ss float64
	for _, r := range rets {
		ss += (r - mean) * (r - mean)
	}
	return math.Sqrt(ss / float64(n-1) * TradingDaysPerYear)
}
