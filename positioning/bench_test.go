package positioning

import "testing"

// spxLike is a chain of SPX's size: 42 root-expiries of 238 strikes, a
// call and a put each, 19,992 contracts.
func spxLike(b *testing.B) *Chain {
	b.Helper()
	c := FromSnapshot(fixture(32, 238, 11), day, at)
	n := 0
	for i := range c.Exps {
		n += 2 * len(c.Exps[i].Rows)
	}
	if n < 19900 {
		b.Fatalf("%d contracts", n)
	}
	return c
}

// BenchmarkFiguresSPX is every figure but the zero-gamma level over the
// whole of an SPX-sized chain: rows by strike, max pain per expiry,
// walls by open interest and by gamma, totals, GEX, vanna and charm
// exposure, the estimated gammas counted. Issue 44's budget is 2 ms.
//
//	go test -run '^$' -bench FiguresSPX -benchmem ./positioning
func BenchmarkFiguresSPX(b *testing.B) {
	c := spxLike(b)
	sel := Range{Kind: AllExpiries}.Select(c)
	b.ReportAllocs()
	for b.Loop() {
		_ = Compute(c, sel)
	}
}

// BenchmarkFromSnapshotSPX is an SPX-sized snapshot read into the
// figures' shape, as the page does with each whole chain: each expiry's
// carry, the missing gammas estimated, every contract's vanna and charm
// priced.
func BenchmarkFromSnapshotSPX(b *testing.B) {
	snap := fixture(32, 238, 11)
	b.ReportAllocs()
	for b.Loop() {
		_ = FromSnapshot(snap, day, at)
	}
}

// BenchmarkZeroGammaSPX is the zero-gamma search over the whole of an
// SPX-sized chain on a 200-point grid, the curve built and the level
// narrowed down. The budget is 50 ms.
//
//	go test -run '^$' -bench ZeroGammaSPX -benchmem ./positioning
func BenchmarkZeroGammaSPX(b *testing.B) {
	c := spxLike(b)
	sel := Range{Kind: AllExpiries}.Select(c)
	b.ReportAllocs()
	for b.Loop() {
		_ = NewCurve(c, sel).ZeroGamma(c.Spot, ZeroGammaGrid)
	}
}
