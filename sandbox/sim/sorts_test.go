package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"chainwatch/api"
)

// TestSortUniform: the bucket sort gives slices.Sort's order for uniform
// draws over a range, with repeated values and both ends, and for values it
// does not expect (it falls back).
func TestSortUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 63, 64, 1000, 40_000} {
		for _, hi := range []float64{1, 0.37, 1e-3} {
			rs := make([]float64, n)
			for i := range rs {
				rs[i] = rng.Float64() * hi
				if i%97 == 5 && i > 0 {
					rs[i] = rs[i-1] // a tie
				}
			}
			if n > 2 {
				rs[0], rs[1] = 0, hi
			}
			want := slices.Clone(rs)
			slices.Sort(want)
			sortUniform(rs, hi)
			if !slices.Equal(rs, want) {
				t.Fatalf("n %d, hi %v: not slices.Sort's order", n, hi)
			}
		}
	}
	odd := []float64{0.5, 2, 0.1, -1}
	odd = append(odd, make([]float64, 100)...)
	want := slices.Clone(odd)
	slices.Sort(want)
	if sortUniform(odd, 1); !slices.Equal(odd, want) {
		t.Fatal("values out of range are not sorted as slices.Sort sorts them")
	}
}

// TestSortByTime: trades nearly in time order, many at one time and some
// anywhere in the day, sorted by time with ties in the order given, as a
// stable sort puts them.
func TestSortByTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5000, 80_000} {
		ts := make(skelTrades, n)
		for i := range ts {
			ts[i] = skelTrade{t: api.TimeOfDay(34_200_000 + i*300 + rng.IntN(4000)), ord: int32(i)}
			if i%11 == 0 {
				ts[i].t = api.TimeOfDay(rng.IntN(86_400_000))
			}
		}
		want := slices.Clone(ts)
		slices.SortStableFunc(want, func(a, b skelTrade) int { return int(a.t) - int(b.t) })
		if got := sortByTime(slices.Clone(ts)); !slices.Equal(got, want) {
			t.Fatalf("%d trades: not in time order with ties as given", n)
		}
	}
}
