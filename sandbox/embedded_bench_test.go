package sandbox

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"chainwatch/api"
)

// BenchmarkEmbeddedSPXPoll is the memory of the process `chainwatch SPX`
// runs, without its screen: the embedded sandbox (OneClientMarket) and the
// api client in one process, over loopback HTTP, polling as the watch
// screen does on an open market. Each iteration is one poll two seconds
// after the last on the sandbox's clock: the chain of the nearest expiry
// (min_expiry = max_expiry) and the tape from its last seq_no. The whole
// chain is fetched once first, as the screen does, for the expiries.
//
// It reports the live heap after the last poll (a collection first), its
// growth since the poll ten minutes in (the 300th; a quarter of the run if
// it is shorter than 600 polls), by when the market's per-tick caches are
// full, and the bytes allocated per poll (sandbox, HTTP and decoding
// together). 1,800 polls are an hour of polling.
//
//	go test -run '^$' -bench EmbeddedSPXPoll -benchtime 1800x ./sandbox
func BenchmarkEmbeddedSPXPoll(b *testing.B) {
	var clock atomic.Int64
	clock.Store(time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).In(api.Eastern) }
	sb, err := Start(Config{Now: now, Market: OneClientMarket(now, ""), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	client := demoClient(b, sb, now)
	ctx := context.Background()
	day := api.DateOf(now()).String()
	full, _, err := client.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "SPX", Date: day})
	if err != nil || len(full.Options) < 15000 {
		b.Fatalf("the whole SPX chain: %d contracts, %v", len(full.Options), err)
	}
	expiry := full.Options[0].Expiry
	for _, o := range full.Options {
		expiry = min(expiry, o.Expiry)
	}
	full = nil
	chainP := api.OptionQuotesParams{Symbol: "SPX", Date: day, MinExpiry: expiry.String(), MaxExpiry: expiry.String()}
	tapeP := api.OptionTradesParams{Symbol: "SPX", Date: day, Limit: api.Ptr(10000),
		MinTime: api.TimeOfDayOf(now().Add(-15 * time.Minute)).String()}
	var from int64
	poll := func() {
		clock.Add(int64(2 * time.Second))
		ch, _, err := client.OptionAndUnderlyingQuotes(ctx, chainP)
		if err != nil || len(ch.Options) == 0 {
			b.Fatalf("the %s chain: %v", expiry, err)
		}
		if from > 0 {
			tapeP.MinTime, tapeP.SeqNo = "", api.Ptr(from)
		}
		trades, _, err := client.OptionTrades(ctx, tapeP)
		if err != nil && !errors.Is(err, api.ErrNoData) { // 204: no trade since the last poll
			b.Fatalf("the tape: %v", err)
		}
		if n := len(trades); n > 0 {
			from = trades[n-1].SeqNo + 1
		}
	}
	poll()

	liveMB := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	mark := 300 // ten minutes
	if b.N < 2*mark {
		mark = max(b.N/4, 1)
	}
	atMark := 0.0
	i := 0
	for b.Loop() {
		poll()
		if i++; i == mark {
			b.StopTimer()
			atMark = liveMB()
			b.StartTimer()
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	live := liveMB()
	b.ReportMetric(live, "live-MB")
	b.ReportMetric(live-atMark, "growth-MB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MB/poll")
	b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "gc/poll")
}
