package tape

import (
	"runtime"
	"testing"

	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// BenchmarkRing10000 is the tape's memory and cost at 10,000 trades, a
// busy SPX session's tape: a tape of capacity 10,000 filled through Apply
// in the service's pages, as from the wire, reports the heap it keeps
// (ring-MB, B/trade: the decoded pages are let go first). Each iteration
// then pushes one more trade onto the full ring, which must not allocate.
//
//	go test -run '^$' -bench Ring10000 -benchmem ./model/watch/tape
func BenchmarkRing10000(b *testing.B) {
	const n = 10_000
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	tp, q := newTestTape(n)
	for from := int64(1); from <= n; from += 1000 {
		if !tp.Apply(feed.TapeMsg{Query: q, From: tp.NextFrom(), Trades: modeltest.SynthTrades(from, 1000), At: modeltest.Now}) {
			b.Fatal("a page was dropped")
		}
	}
	if tp.r.len() != n {
		b.Fatalf("held %d trades, want %d", tp.r.len(), n)
	}
	kept := float64(heap() - before)
	more := modeltest.SynthTrades(n+1, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fillEntry(tp.r.push(), &more[0])
	}
	b.StopTimer()
	runtime.KeepAlive(tp)
	b.ReportMetric(kept/(1<<20), "ring-MB")
	b.ReportMetric(kept/n, "B/trade")
}
