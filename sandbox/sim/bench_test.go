package sim

import (
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox/scan"
)

// BenchmarkChainSPX builds the SPX chain at a new tick each iteration (the
// day's trades and state cached, as they are after the first request).
func BenchmarkChainSPX(b *testing.B) {
	m, mo := noon(b)
	m.Chain("SPX", mo)
	b.ReportAllocs()
	for b.Loop() {
		mo.Time += 1000
		if _, ok := m.Chain("SPX", mo); !ok {
			b.Fatal("no chain")
		}
	}
}

// BenchmarkChainSPY builds the SPY chain (American exercise) at a new tick
// each iteration, the day's trades and state cached.
func BenchmarkChainSPY(b *testing.B) {
	m, mo := noon(b)
	m.Chain("SPY", mo)
	b.ReportAllocs()
	for b.Loop() {
		mo.Time += 1000
		if _, ok := m.Chain("SPY", mo); !ok {
			b.Fatal("no chain")
		}
	}
}

// BenchmarkChainSPXOneExpiry builds the nearest expiry of SPX at a new
// tick each iteration, as the watch screen polls it (the whole chain of
// the tick not cached).
func BenchmarkChainSPXOneExpiry(b *testing.B) {
	m, mo := noon(b)
	whole, _ := m.Chain("SPX", mo)
	x := Expiries{whole.Options[0].Expiry, whole.Options[0].Expiry}
	for _, o := range whole.Options {
		x.First = min(x.First, o.Expiry)
	}
	x.Last = x.First
	b.ReportAllocs()
	for b.Loop() {
		mo.Time += 1000
		if c, ok := m.ChainExpiries("SPX", mo, x); !ok || len(c.Options) == 0 {
			b.Fatal("no chain")
		}
	}
}

// BenchmarkOptionTradesDaySPX generates and prices a full SPX day of trades.
func BenchmarkOptionTradesDaySPX(b *testing.B) {
	m, _ := noon(b)
	sec := mustSec(b, m, "SPX")
	d := api.Date(20261119)
	bk, _ := m.book(sec, d)
	b.ReportAllocs()
	for b.Loop() {
		td := priceTrades(bk, generate(bk))
		td.priceFor(len(td.px), Expiries{})
	}
}

// BenchmarkScanQuotes computes the scanner rows at a new tick each
// iteration, the per-day state cached.
func BenchmarkScanQuotes(b *testing.B) {
	m, mo := noon(b)
	m.ScanQuotes(mo, scan.AllParts)
	b.ReportAllocs()
	for b.Loop() {
		mo.Time += 1000
		m.ScanQuotes(mo, scan.AllParts)
	}
}

// BenchmarkSkeletonDaySPX draws a full SPX day of trades without pricing
// them: what the scanner pays per symbol and day for volumes.
func BenchmarkSkeletonDaySPX(b *testing.B) {
	m, _ := noon(b)
	sec := mustSec(b, m, "SPX")
	bk, _ := m.book(sec, api.Date(20261119))
	b.ReportAllocs()
	for b.Loop() {
		generate(bk)
	}
}

var surfaceSink float64

func BenchmarkSurfaceVol(b *testing.B) {
	s := DefaultSurface(0.2, true)
	s.EventTime, s.EventVar = 0.02, EarningsVar(0.04)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		K := 70 + float64(i%25)*2.5
		surfaceSink += s.Vol(K, 100, float64(1+i%700)/365)
		i++
	}
}

func TestSurfaceVolAllocatesNothing(t *testing.T) {
	s := DefaultSurface(0.25, false)
	if n := testing.AllocsPerRun(100, func() { surfaceSink += s.Vol(95, 100, 0.3) }); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
