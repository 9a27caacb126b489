package vol

import "math"

// The smile: which strikes are worth plotting, and which side of a strike
// reads the market where the two are merged.

// smileMoves is how many expected moves either side of spot the smile
// spans: a straddle is about 0.8 standard deviations, so four of them
// reach past the 5-delta wings without the far strikes, whose IVs are
// quoted off nothing, flattening the curve that matters.
const smileMoves = 4

// smileFallback is the span either side of spot, as a share of it, when
// the expiry has no expected move.
const smileFallback = 0.10

// minSmileStrikes is the fewest strikes the smile shows when the chain
// lists that many: a curve needs a few points.
const minSmileStrikes = 5

// SmileWindow is the range [lo, hi) of rows to plot for an expiry whose
// straddle prices move at spot: spot plus or minus four moves (10 % of
// spot without a move), at least five strikes, widened to take in the
// strike keep (the ladder's cursor; NaN for none). Without a spot it is
// every row.
func SmileWindow(rows []Row, spot, move, keep float64) (lo, hi int) {
	if len(rows) == 0 || math.IsNaN(spot) {
		return 0, len(rows)
	}
	span := spot * smileFallback
	if move > 0 && !math.IsInf(move, 0) {
		span = smileMoves * move
	}
	from, to := spot-span, spot+span
	if !math.IsNaN(keep) {
		from, to = min(from, keep), max(to, keep)
	}
	lo, hi = len(rows), 0
	for i := range rows {
		if k := rows[i].Strike; k >= from && k <= to {
			lo, hi = min(lo, i), i+1
		}
	}
	if lo >= hi {
		c := Nearest(rows, spot)
		lo, hi = c, c+1
	}
	for hi-lo < minSmileStrikes && (lo > 0 || hi < len(rows)) {
		if lo > 0 {
			lo--
		}
		if hi-lo < minSmileStrikes && hi < len(rows) {
			hi++
		}
	}
	return lo, hi
}

// OTM is the IV of the out-of-the-money side of r with the underlying at
// spot: the put below spot, the call at or above it, where the market is
// quoted on the option that is traded. When that side has no IV the other
// side's is used. put says which side it came from; iv is NaN when
// neither has one.
func OTM(r *Row, spot float64) (iv float64, put bool) {
	first, second := &r.Call, &r.Put
	put = r.Strike < spot
	if put {
		first, second = second, first
	}
	if q := first; q.IV > 0 && !math.IsInf(q.IV, 0) {
		return q.IV, put
	}
	if q := second; q.IV > 0 && !math.IsInf(q.IV, 0) {
		return q.IV, !put
	}
	return math.NaN(), put
}
