package sim

import "slices"

// Two sorts of a day's draw that know their data: the order times are
// uniform draws, and the trades come out of the orders nearly in time
// order with times of a day. Each gives exactly what slices.Sort gives
// (a sorted order is unique for the times with their ties kept in the
// order drawn, and for floats that are all distinct or equal bit for
// bit), in linear time: the draw of an index's day sorts tens of
// thousands of each.

// sortUniform sorts rs, values in [0, hi] drawn about uniformly: each goes
// to its bucket of the range, about one a bucket, and an insertion sort
// then moves each within its bucket only. Values outside [0, hi] (or a
// range that is not positive) fall back to slices.Sort.
func sortUniform(rs []float64, hi float64) {
	n := len(rs)
	if n < 64 || !(hi > 0) {
		slices.Sort(rs)
		return
	}
	scale := float64(n) / hi
	start := make([]int32, n+1)
	for _, r := range rs {
		if !(r >= 0 && r <= hi) {
			slices.Sort(rs)
			return
		}
		start[min(int(r*scale), n-1)+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	out := make([]float64, n)
	for _, r := range rs {
		b := min(int(r*scale), n-1)
		out[start[b]] = r
		start[b]++
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	copy(rs, out)
}

// sortByTime returns the trades in time order, ties in the order given
// (ts itself, or a slice of its length): a stable radix sort on the time
// of day, thirteen bits at a time (two passes for times before 18:38).
func sortByTime(ts skelTrades) skelTrades {
	var hi uint32
	for i := range ts {
		if ts[i].t < 0 {
			slices.SortStableFunc(ts, func(a, b skelTrade) int { return int(a.t) - int(b.t) })
			return ts
		}
		hi = max(hi, uint32(ts[i].t))
	}
	src, dst := ts, make(skelTrades, len(ts))
	const bits = 13
	var count [1 << bits]int
	for shift := 0; shift == 0 || hi>>shift != 0; shift += bits {
		clear(count[:])
		for i := range src {
			count[uint32(src[i].t)>>shift&(1<<bits-1)]++
		}
		pos := 0
		for d, c := range count {
			count[d], pos = pos, pos+c
		}
		for i := range src {
			d := uint32(src[i].t) >> shift & (1<<bits - 1)
			dst[count[d]] = src[i]
			count[d]++
		}
		src, dst = dst, src
	}
	return src
}
