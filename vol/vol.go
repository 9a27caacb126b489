// Package vol computes the volatility figures a trader reads first: each
// expiry's at-the-money IV, the move its ATM straddle prices in, the
// 25-delta risk reversal and butterfly, and the put/call volume and
// open-interest ratios. It has no terminal in it, so the watch screen's
// vol page and `chainwatch vol` compute the same numbers from the same
// code: the page from the chain it holds, the command from one snapshot.
package vol

import (
	"math"
	"slices"

	"chainwatch/api"
)

// Quote is what the figures read of one contract. Nulls are NaN (prices,
// IV, delta) and -1 (volume, open interest), as the ladder keeps them.
type Quote struct {
	Bid, Ask, Mid float64
	IV            float64 // a fraction: 0.2208 is 22.08 %
	Delta         float64
	Volume, OI    int64
}

// Null is a contract that is not listed or has no data.
var Null = Quote{Bid: math.NaN(), Ask: math.NaN(), Mid: math.NaN(), IV: math.NaN(), Delta: math.NaN(), Volume: -1, OI: -1}

// TwoSided reports whether the quote is a market both ways: a bid above
// zero and an ask at or above it. A zero bid is no market to sell into,
// and a straddle priced off it is not what the market expects.
func (q *Quote) TwoSided() bool { return q.Bid > 0 && q.Ask >= q.Bid }

// MidPrice is the quote's mid: the service's when it sent one, else the
// middle of bid and ask, as the ladder's Mid column shows it.
func (q *Quote) MidPrice() float64 {
	if !math.IsNaN(q.Mid) {
		return q.Mid
	}
	return (q.Bid + q.Ask) / 2
}

// Row is one strike of an expiry: its call and its put.
type Row struct {
	Strike    float64
	Call, Put Quote
}

// Expiry is one expiry's strikes, ascending, and its days to expiry
// counted from the day the data shows.
type Expiry struct {
	Date api.Date
	DTE  int
	Rows []Row
}

// Figures are one expiry's figures. Every float is NaN where the chain
// cannot support it: the page and the command show a dash there.
type Figures struct {
	Date api.Date
	DTE  int
	// ATMStrike is the listed strike nearest spot.
	ATMStrike float64
	// ATMIV is the mean of the ATM call's and put's IV (a fraction), and
	// Move the ATM straddle's mid in points: both need a two-sided market
	// on the ATM call and put, else both are NaN. MovePct is Move over
	// spot (a fraction).
	ATMIV, Move, MovePct float64
	// Call25, Put25 are the IVs at delta 0.25 and -0.25, interpolated
	// linearly in delta between the listed strikes either side.
	Call25, Put25 float64
	// RR25 is Call25 - Put25 (negative: puts richer, the usual equity
	// skew); BF25 is their mean less ATMIV (positive: the wings richer).
	RR25, BF25 float64
	// Volume and open interest summed per side (-1: none reported), and
	// put over call (NaN when the calls sum to zero).
	CallVolume, PutVolume, CallOI, PutOI int64
	PCVolume, PCOI                       float64
}

// wingDelta is the delta of the risk reversal's and butterfly's wings.
const wingDelta = 0.25

// Compute is e's figures with the underlying at spot.
func Compute(e *Expiry, spot float64) Figures {
	f := Figures{Date: e.Date, DTE: e.DTE}
	f.ATMStrike, f.ATMIV, f.Move = ATM(e.Rows, spot)
	f.MovePct = f.Move / spot
	f.Call25 = WingIV(e.Rows, wingDelta)
	f.Put25 = WingIV(e.Rows, -wingDelta)
	f.RR25 = f.Call25 - f.Put25
	f.BF25 = (f.Call25+f.Put25)/2 - f.ATMIV
	f.CallVolume, f.PutVolume = sum(e.Rows, func(r *Row) (int64, int64) { return r.Call.Volume, r.Put.Volume })
	f.CallOI, f.PutOI = sum(e.Rows, func(r *Row) (int64, int64) { return r.Call.OI, r.Put.OI })
	f.PCVolume = ratio(f.PutVolume, f.CallVolume)
	f.PCOI = ratio(f.PutOI, f.CallOI)
	return f
}

// ComputeAll is the figures of every expiry, in order.
func ComputeAll(exps []Expiry, spot float64) []Figures {
	out := make([]Figures, len(exps))
	for i := range exps {
		out[i] = Compute(&exps[i], spot)
	}
	return out
}

// Nearest is the index of the row whose strike is closest to x (a tie
// goes to the lower strike, as the ladder's cursor does); -1 when there
// are no rows or x is not a number.
func Nearest(rows []Row, x float64) int {
	if len(rows) == 0 || math.IsNaN(x) {
		return -1
	}
	i, _ := slices.BinarySearchFunc(rows, x, func(r Row, x float64) int {
		switch {
		case r.Strike < x:
			return -1
		case r.Strike > x:
			return 1
		}
		return 0
	})
	if i == len(rows) || (i > 0 && x-rows[i-1].Strike <= rows[i].Strike-x) {
		i--
	}
	return i
}

// ATM is the strike nearest spot, the mean IV of its call and put, and
// its straddle's mid. Without a two-sided market on both, iv and move are
// NaN: a number made from a one-sided quote would mislead. Strike is NaN
// when there is no strike or no spot.
func ATM(rows []Row, spot float64) (strike, iv, move float64) {
	i := Nearest(rows, spot)
	if i < 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	r := &rows[i]
	if !r.Call.TwoSided() || !r.Put.TwoSided() {
		return r.Strike, math.NaN(), math.NaN()
	}
	return r.Strike, meanIV(r.Call.IV, r.Put.IV), r.Call.MidPrice() + r.Put.MidPrice()
}

// meanIV is the mean of the IVs there are; NaN when neither is.
func meanIV(a, b float64) float64 {
	okA, okB := a > 0 && !math.IsInf(a, 0), b > 0 && !math.IsInf(b, 0)
	switch {
	case okA && okB:
		return (a + b) / 2
	case okA:
		return a
	case okB:
		return b
	}
	return math.NaN()
}

// WingIV is the IV at delta target (0.25 for calls, -0.25 for puts),
// interpolated linearly in delta between the two listed strikes whose
// deltas bracket it, on the side the sign picks. Strikes without an IV or
// a delta are skipped. Calls are searched upward from the lowest strike
// and puts downward from the highest, so the bracket found is the one on
// the out-of-the-money side even where the deltas are noisy deep in the
// money. NaN when no two strikes bracket it.
func WingIV(rows []Row, target float64) float64 {
	put := target < 0
	side := func(r *Row) *Quote {
		if put {
			return &r.Put
		}
		return &r.Call
	}
	usable := func(q *Quote) bool {
		return q.IV > 0 && !math.IsInf(q.IV, 0) && !math.IsNaN(q.Delta)
	}
	prev := -1
	for k := range rows {
		i := k
		if put {
			i = len(rows) - 1 - k
		}
		q := side(&rows[i])
		if !usable(q) {
			continue
		}
		if q.Delta == target {
			return q.IV
		}
		if prev >= 0 {
			p := side(&rows[prev])
			// Moving out of the money, |delta| falls past |target|.
			if math.Abs(p.Delta) > math.Abs(target) && math.Abs(q.Delta) < math.Abs(target) {
				w := (target - p.Delta) / (q.Delta - p.Delta)
				return p.IV + w*(q.IV-p.IV)
			}
		}
		prev = i
	}
	return math.NaN()
}

// sum adds each side's counts over the rows; a side with no count at all
// is -1, so "none reported" is not read as zero.
func sum(rows []Row, get func(*Row) (int64, int64)) (calls, puts int64) {
	calls, puts = -1, -1
	for i := range rows {
		c, p := get(&rows[i])
		if c >= 0 {
			calls = max(calls, 0) + c
		}
		if p >= 0 {
			puts = max(puts, 0) + p
		}
	}
	return calls, puts
}

// ratio is num over den, NaN when either is unknown or den is zero.
func ratio(num, den int64) float64 {
	if num < 0 || den <= 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}
