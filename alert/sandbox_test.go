package alert_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/scan"
)

// TestSandboxEveryKind drives a rule of every kind through the sandbox
// over loopback, its clock moved by the test: SPY, 698.75 at 10:00 on
// 2026-11-24, is above 700 at 10:45 (one event), back under the margin at
// 11:30 (re-armed), above again at 14:00 (a second event); the blocks of
// 1,000 contracts or more and the sweeps print in between, each fired
// once with its own sequence number; IV30 moves, the 0DTE 700 call's mid
// and IV cross their levels and its volume outgrows its open interest;
// the High IV preset gains symbols. A restart on the same log at 14:00
// fires nothing again.
func TestSandboxEveryKind(t *testing.T) {
	var mu sync.Mutex
	now := open
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(h, m int) {
		mu.Lock()
		now = time.Date(2026, 11, 24, h, m, 0, 0, api.Eastern)
		mu.Unlock()
	}
	client := modeltest.StartSandbox(t, sandbox.Config{Now: clock})
	timers := feedtest.ClockOf(clock)
	src := feed.Source{Client: client, Now: clock}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: src, Clock: timers, Budget: budget})
	t.Cleanup(mon.Close)
	path := filepath.Join(t.TempDir(), "alerts.jsonl")
	call := "SPY261124C00700000"
	rules := withDefaults([]alert.Rule{spyAbove700, {Kind: alert.KindBlock, Symbol: "SPY", MinSize: 1000},
		{Kind: alert.KindSweep, Symbol: "SPY", MinSize: 1}, {Kind: alert.KindIV30, Symbol: "SPY", Move: 0.1},
		{Kind: alert.KindMid, Symbol: "SPY", Contract: call, Above: true, Level: 1.2},
		{Kind: alert.KindIV, Symbol: "SPY", Contract: call, Above: true, Level: 0.105},
		{Kind: alert.KindUnusual, Symbol: "SPY", Contract: call, Ratio: 2, MinVolume: 100},
		{Kind: alert.KindScan, Scan: "High IV"}})
	runScan := func(ctx context.Context, s scan.Scan) (scan.Outcome, error) {
		return scan.Run(ctx, client, nil, s, api.Live, clock())
	}
	// A run fetches up to four pages of 10,000 prints over loopback: on a
	// loaded machine under the race detector that takes seconds.
	r := &rig{t: t, mon: mon, sub: mon.Subscribe(), wait: time.Minute}
	start := func() {
		log, err := alert.OpenLog(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, RunScan: runScan, Every: 30 * time.Second, Log: log, Now: clock}, rules)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(eng.Close)
		r.eng = eng
		eng.Start()
	}
	start()
	var prices []alert.Event
	blocks := map[int64]bool{}
	seen := map[string]bool{}
	kinds := map[string]int{}
	collect := func(evs []alert.Event) {
		for _, e := range evs {
			if seen[e.Key()] {
				t.Errorf("fired twice: %+v", e)
			}
			seen[e.Key()] = true
			kinds[e.Kind]++
			switch e.Kind {
			case "price":
				prices = append(prices, e)
			case "block":
				if e.Size < 1000 {
					t.Errorf("block %+v: under 1,000 contracts", e)
				}
				blocks[e.Seq] = true
			}
		}
	}
	collect(r.drain()) // 10:00: 698.75, the latest quarter hour of prints
	if len(prices) != 0 {
		t.Fatalf("at 10:00 SPY fired %+v", prices)
	}
	for _, at := range [][2]int{{10, 45}, {11, 30}, {14, 0}} {
		set(at[0], at[1])
		timers.Advance(0)
		collect(r.drain())
	}
	if len(prices) != 2 || prices[0].Value <= 700 || prices[1].Value <= 700 || !prices[1].Time.After(prices[0].Time) {
		t.Fatalf("price events %+v, want two crossings above 700", prices)
	}
	if len(blocks) == 0 {
		t.Fatal("no block of 1,000 contracts printed between 10:00 and 14:00")
	}
	for _, k := range []string{"sweep", "iv30", "mid", "iv", "unusual", "scan"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event between 10:00 and 14:00 (events by kind: %v)", k, kinds)
		}
	}
	if kinds["unusual"] != 1 {
		t.Errorf("the contract's unusual volume fired %d times in one day", kinds["unusual"])
	}
	r.eng.Close()
	n := len(prices)
	start() // a restart at 14:00, SPY still above 700
	collect(r.drain())
	if len(prices) != n {
		t.Errorf("after the restart SPY fired again: %+v", prices[n:])
	}
}
