package sandbox

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox/sim"
	"chainwatch/sandbox/wire"
)

// BenchmarkChainBuildAndEncode is the speed target: an SPX-sized
// chain (about 20,000 contracts) built at a new tick and encoded, in at most
// 50 ms on a 2-core machine. Each iteration moves the clock one second, so
// the chain is priced afresh every time, as when a new tick arrives; the
// day's trades and the previous day's state are built before the timer.
func BenchmarkChainBuildAndEncode(b *testing.B) {
	for _, f := range []api.Format{api.JSON, api.XML} {
		b.Run(f.String(), func(b *testing.B) {
			noon := time.Date(2026, 11, 20, 12, 0, 0, 0, api.Eastern)
			m := sim.New(sim.Config{Now: func() time.Time { return noon }})
			at, err := m.Moment(api.Live, api.DateOf(noon))
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := m.Chain("SPX", at); !ok {
				b.Fatal("no SPX chain")
			}
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				at.Time += 1000
				c, ok := m.Chain("SPX", at)
				if !ok {
					b.Fatal("no SPX chain")
				}
				buf = wire.AppendChain(buf[:0], f, &c.Underlying, c.Options)
			}
			b.ReportMetric(float64(len(buf))/1e6, "MB/body")
		})
	}
}
