package alert_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
)

var spyAbove700 = alert.Rule{Name: "SPY above 700", Kind: alert.KindPrice, Symbol: "SPY", Above: true, Level: 700, Margin: 0.5}

// TestPriceFiresOncePerCrossing: a price that crosses the level fires
// once; sitting on it, or coming back within the margin, fires nothing;
// only once it has left the level by the margin is the rule re-armed,
// and the next crossing fires again. Each event carries the value, the
// level, the data's own time and sequence number.
func TestPriceFiresOncePerCrossing(t *testing.T) {
	r := newRig(t, nil, spyAbove700)
	steps := []struct {
		price float64
		fires bool
	}{
		{699.00, false}, // below: armed
		{700.10, true},  // crosses
		{700.40, false}, // still above
		{699.90, false}, // back, within the margin: not re-armed
		{700.00, false}, // on the level again: no second event
		{699.40, false}, // past the margin: re-armed
		{700.20, true},  // the second crossing
	}
	for i, s := range steps {
		if i > 0 {
			r.tick()
		}
		evs := r.run(func(req *feedtest.Request) any {
			if req.Feed != feed.FeedQuotes || !slices.Equal(req.Symbols, []string{"SPY"}) {
				t.Fatalf("step %d: the engine asked for %v %v, want underlying-quotes of SPY", i, req.Feed, req.Symbols)
			}
			return quotes("SPY", s.price, 20, int64(100+i), tod(10, 0, i))
		})
		if got := len(evs) == 1; got != s.fires || len(evs) > 1 {
			t.Fatalf("step %d at %v: %d events, want fires=%v", i, s.price, len(evs), s.fires)
		}
		if !s.fires {
			continue
		}
		e := evs[0]
		want := tod(10, 0, i).On(api.Date(20261124))
		if e.Rule != "SPY above 700" || e.Symbol != "SPY" || e.Value != s.price || e.Level != 700 ||
			e.Direction != "above" || !e.Time.Equal(want) || e.Seq != int64(100+i) {
			t.Errorf("step %d: event %+v", i, e)
		}
	}
}

// TestRestartFiresNothingTwice: after a restart on the same log, the
// same data fires nothing, the rule is still waiting to re-arm, and a
// new crossing after the margin fires once.
func TestRestartFiresNothingTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alerts.jsonl")
	log, err := alert.OpenLog(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, log, spyAbove700)
	if evs := r.run(func(*feedtest.Request) any { return quotes("SPY", 700.5, 20, 7, tod(10, 0, 0)) }); len(evs) != 1 {
		t.Fatalf("first run: %d events", len(evs))
	}
	r.eng.Close()

	log2, err := alert.OpenLog(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.start(log2, spyAbove700)
	for i, p := range []float64{700.5, 700.8} { // the same data, then newer data above the level
		evs := r.run(func(*feedtest.Request) any { return quotes("SPY", p, 20, int64(7+i), tod(10, 0, i)) })
		if len(evs) != 0 {
			t.Fatalf("after the restart, %v fired %v", p, values(evs))
		}
		r.tick()
	}
	r.run(func(*feedtest.Request) any { return quotes("SPY", 699.0, 20, 20, tod(10, 1, 0)) }) // re-arms
	r.tick()
	if evs := r.run(func(*feedtest.Request) any { return quotes("SPY", 700.1, 20, 21, tod(10, 1, 30)) }); len(evs) != 1 {
		t.Fatalf("the crossing after the re-arm: %d events, want 1", len(evs))
	}
	got := 0
	for _, rec := range log2.Recent(100) {
		if rec.Type == alert.Fired {
			got++
		}
	}
	if got != 2 {
		t.Errorf("the log holds %d fired events, want 2", got)
	}
}

// TestScreenDataFiresWithoutFetching: a rule whose data a feed on screen
// brings (the chain of SPY) is evaluated on that feed's replies, within
// the refresh, and the engine's own feed fetches nothing for it.
func TestScreenDataFiresWithoutFetching(t *testing.T) {
	clock := feedtest.NewClock(open)
	src := feedtest.NewScript(clock)
	mon := src.Monitor(t, feed.Budget{PerDay: 10_000_000})
	screen := mon.Subscribe()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	screen.Set(feed.Attention{Focused: true}, feed.Want{Feed: feed.FeedChain, Query: q})
	chainReq := src.Next(t) // the screen's chain, asked at once
	eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, Log: nil, Now: clock.Now}, withDefaults([]alert.Rule{spyAbove700}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	eng.Start()
	if c := eng.CostOf(spyAbove700, clock.Now()); !c.Covered || c.PerHour != 0 {
		t.Errorf("cost with the chain on screen: %+v", c)
	}
	ch := &api.SymbolWithOptions{Underlying: api.Underlying{Symbol: "SPY", Timestamp: tod(10, 0, 1), LastTradePrice: api.Some(701.0), SeqNo: api.Some(int64(5))}}
	chainReq.Answer(feed.ChainMsg{Chain: ch, Resp: &api.Response{StatusCode: 200, Cost: 4}})
	var fired []alert.Event
	for range 10 {
		msg, ok := screen.Next(ctxT(t))
		if !ok {
			t.Fatal("the screen heard nothing")
		}
		if f, ok := msg.(alert.FiredMsg); ok {
			fired = f.Events
		}
		if _, ok := msg.(feed.ChainMsg); ok {
			break // the fired event came before the chain it was in
		}
	}
	if len(fired) != 1 || fired[0].Value != 701 {
		t.Fatalf("fired %+v before the chain reached the screen, want SPY at 701", fired)
	}
	// The engine's job ran with nothing to fetch: no request of its own.
	for _, req := range src.Pending() {
		if req.Feed == feed.FeedQuotes {
			t.Errorf("the engine fetched quotes although the chain on screen brings SPY")
		}
	}
}

// TestPacedAndPaused: the rules' own feed runs within the budget (a run
// that would spend faster waits longer, and says so), and after the close
// it fetches once and then waits for the next open.
func TestPacedAndPaused(t *testing.T) {
	clock := feedtest.NewClock(open)
	src := feedtest.NewScript(clock)
	mon := src.Monitor(t, feed.Budget{PerDay: 650}) // 100 points an hour: 4 points every 144 s
	r := &rig{t: t, clock: clock, src: src, mon: mon, sub: mon.Subscribe()}
	eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, Every: 30 * time.Second, Now: clock.Now}, withDefaults([]alert.Rule{spyAbove700}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	eng.Start()
	src.Next(t).Answer(quotes("SPY", 699, 20, 1, tod(10, 0, 0)))
	run := next[alert.RunMsg](r)
	if run.Every != 144*time.Second || !run.Next.Equal(open.Add(144*time.Second)) {
		t.Errorf("paced every %s, next %s; want 2m24s", run.Every, run.Next)
	}
	clock.Advance(2 * time.Minute)
	if p := src.Pending(); len(p) != 0 {
		t.Fatalf("fetched %d times before the budget allowed", len(p))
	}

	closed := time.Date(2026, 11, 24, 16, 30, 0, 0, api.Eastern)
	clock.Set(closed)
	clock.Advance(time.Minute) // the run due before the close
	src.Next(t).Answer(quotes("SPY", 699, 20, 2, tod(16, 0, 0)))
	run = next[alert.RunMsg](r)
	if wantNext := time.Date(2026, 11, 25, 9, 30, 0, 0, api.Eastern); run.Next.Before(wantNext) {
		t.Errorf("after the close the next run is %s, want the open %s", run.Next, wantNext)
	}
	clock.Advance(2 * time.Hour)
	if p := src.Pending(); len(p) != 0 {
		t.Errorf("fetched %d times while the market was closed", len(p))
	}
}
