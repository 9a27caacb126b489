package model

import (
	"runtime"
	"testing"
	"time"

	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// BenchmarkClientHeapSPX is the client's memory over a session of
// 20,000-contract snapshots: the whole screen applies 100 fresh SPX-sized
// chains (each decoded anew, as from the wire) with a frame drawn after
// each, and the live heap is read after the 10th and the 100th. The
// screen keeps one snapshot in its own compact form, so the two must be
// within 10 %.
//
//	go test -run '^$' -bench ClientHeapSPX -benchtime 1x ./model
func BenchmarkClientHeapSPX(b *testing.B) {
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	var at10, at100 float64
	for b.Loop() {
		a, now := loadedApp(b, 1, 10)
		base := heap()
		for i := 1; i <= 100; i++ {
			now = now.Add(2 * time.Second)
			snap := modeltest.SynthChain(40, 250, i)
			a.Update(feed.ChainMsg{Query: a.q, Chain: snap, Resp: okResp(4), At: now})
			_ = a.View()
			if tabs, _ := a.ws().Chain().Tabs(); !a.ws().Chain().LastOK().Equal(now) || len(tabs) < 30 {
				b.Fatalf("snapshot %d not applied: %d expiries", i, len(tabs))
			}
			switch i {
			case 10:
				at10 = heap() - base
			case 100:
				at100 = heap() - base
			}
		}
		runtime.KeepAlive(a)
	}
	b.ReportMetric(at10, "heap@10-MB")
	b.ReportMetric(at100, "heap@100-MB")
	b.ReportMetric(100*(at100-at10)/at10, "growth-%")
}
