package alert_test

import (
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
)

// TestSandboxPriceAndBlocks drives the rules through the sandbox over
// loopback, its clock moved by the test: SPY, 698.75 at 10:00 on
// 2026-11-24, is above 700 at 10:45 (one event), back under the margin at
// 11:30 (re-armed), above again at 14:00 (a second event); the blocks of
// 1,000 contracts or more print in between, each fired once with its own
// sequence number. A restart on the same log at 14:00 fires nothing again.
func TestSandboxPriceAndBlocks(t *testing.T) {
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
	rules := withDefaults([]alert.Rule{spyAbove700, {Kind: alert.KindBlock, Symbol: "SPY", MinSize: 1000}})
	r := &rig{t: t, mon: mon, sub: mon.Subscribe()}
	start := func() {
		log, err := alert.OpenLog(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, Every: 30 * time.Second, Log: log, Now: clock}, rules)
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
	collect := func(evs []alert.Event) {
		for _, e := range evs {
			switch e.Kind {
			case "price":
				prices = append(prices, e)
			case "block":
				if blocks[e.Seq] || e.Size < 1000 {
					t.Errorf("block %+v: twice, or under 1,000 contracts", e)
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
	r.eng.Close()
	n := len(prices)
	start() // a restart at 14:00, SPY still above 700
	collect(r.drain())
	if len(prices) != n {
		t.Errorf("after the restart SPY fired again: %+v", prices[n:])
	}
}
