package model

import (
	"context"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// BenchmarkSessionsOnOneMonitor is the model's part of chainwatch serve's
// cost: n screens on SPY share one monitor on the sandbox (over loopback
// HTTP), as the served sessions do. It reports the live heap each screen
// past the first adds, and the process CPU of one chain refresh (one
// request, decoded once, applied and framed by every screen) at n = 1 and
// n = 20. It leaves out what each served session pays beyond its frame
// string: bubbletea's renderer and the SSH channel, and the ticks, flashes
// and tape between refreshes. cmd's BenchmarkServeSessions measures the
// server as it runs, and its ratio is the desk's.
//
//	go test -run '^$' -bench SessionsOnOneMonitor -benchtime 20x ./model
func BenchmarkSessionsOnOneMonitor(b *testing.B) {
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)
	now := sandbox.Clock(start, 1)
	client := modeltest.StartSandbox(b, sandbox.Config{Now: now, PerSecond: 1000, Market: sandbox.OneClientMarket(now, "")})
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: now}, Clock: feed.RealClock{NowFunc: now}})
	b.Cleanup(mon.Close)
	open := func() *App {
		a := New(Config{Client: client, Source: "SANDBOX", Symbol: "SPY", Now: now, Theme: "dark", Monitor: mon})
		b.Cleanup(a.Close)
		a.Init()
		a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		return a
	}
	var apps []*App
	heap := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	apps = append(apps, open())
	waitChains(b, apps, 1)
	one := heap()
	for range 19 {
		apps = append(apps, open())
	}
	waitChains(b, apps, 1)
	perSession := (heap() - one) / 19

	var cpu1, cpu20 time.Duration
	for b.Loop() {
		cpu1 += refreshCPU(b, apps[:1])
		cpu20 += refreshCPU(b, apps)
	}
	b.ReportMetric(perSession, "MB/extra-session")
	b.ReportMetric(float64(cpu1.Microseconds())/float64(b.N)/1000, "cpu-ms/refresh@1")
	b.ReportMetric(float64(cpu20.Microseconds())/float64(b.N)/1000, "cpu-ms/refresh@20")
	b.ReportMetric(float64(cpu20)/float64(cpu1), "ratio-20:1")
}

// refreshCPU is the process CPU a chain refresh costs when apps show it:
// the first asks the monitor for it, every one applies it and draws.
func refreshCPU(b *testing.B, apps []*App) time.Duration {
	b.Helper()
	before := cpuTime(b)
	apps[0].link.Sub.Refresh(feed.FeedChain)
	waitChains(b, apps, 1)
	return cpuTime(b) - before
}

// waitChains hands each app its monitor's posts until n chain replies
// reached it (at most 10 s each).
func waitChains(b *testing.B, apps []*App, n int) {
	b.Helper()
	for _, a := range apps {
		for got := 0; got < n; {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			m, ok := a.link.Sub.Next(ctx)
			cancel()
			if !ok {
				b.Fatal("no chain reply in 10 s")
			}
			if _, isChain := m.(feed.ChainMsg); isChain {
				got++
			}
			a.Update(link.Msg{Msg: m})
		}
	}
}
