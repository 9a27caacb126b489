package alert_test

import (
	"slices"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
)

// poolRig is two traders' engines in one pool on a monitor the test
// drives; what each fires is told apart by its sender.
type poolRig struct {
	*rig
	pool *alert.Pool
}

func (p *poolRig) engine(rules ...alert.Rule) *alert.Engine {
	p.t.Helper()
	eng, err := alert.New(alert.Options{Pool: p.pool}, withDefaults(rules))
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(eng.Close)
	return eng
}

// answer answers the run's requests in order, each by its feed, and
// returns what fired from each engine until the run's RunMsg.
func (p *poolRig) answer(answers ...func(*feedtest.Request) any) map[*alert.Engine][]alert.Event {
	p.t.Helper()
	for _, a := range answers {
		req := p.src.Next(p.t)
		req.Answer(a(req))
	}
	fired := map[*alert.Engine][]alert.Event{}
	for {
		switch m := next[any](p.rig).(type) {
		case alert.FiredMsg:
			fired[m.From] = append(fired[m.From], m.Events...)
		case alert.RunMsg:
			return fired
		}
	}
}

// asks checks a request's feed and symbols (or tape start).
func asks(t *testing.T, f feed.Feed, syms []string, from int64, reply func(*feedtest.Request) any) func(*feedtest.Request) any {
	return func(req *feedtest.Request) any {
		t.Helper()
		if req.Feed != f || f == feed.FeedQuotes && !slices.Equal(req.Symbols, syms) || f == feed.FeedTape && req.From != from {
			t.Fatalf("asked %v %v from %d; want %v %v from %d", req.Feed, req.Symbols, req.From, f, syms, from)
		}
		return reply(req)
	}
}

// TestPoolFetchesEachNeedOnce: two traders' rules in one pool share its
// one job: QQQ's quote both watch is asked once a run, with the symbol
// only one watches; the tape both watch is asked from one past what both
// have seen; a trader who joins is evaluated at once on the last run;
// each hears only its own events; one who leaves fetches nothing more.
func TestPoolFetchesEachNeedOnce(t *testing.T) {
	r := &rig{t: t, clock: feedtest.NewClock(open)}
	r.src = feedtest.NewScript(r.clock)
	r.mon = r.src.Monitor(t, budget)
	r.sub = r.mon.Subscribe()
	p := &poolRig{rig: r, pool: alert.NewPool(alert.PoolOptions{Monitor: r.mon, Fetcher: r.src, Every: 30 * time.Second, Now: r.clock.Now})}
	t.Cleanup(p.pool.Close)
	qqq := func(price float64, seq int64) func(*feedtest.Request) any {
		return func(*feedtest.Request) any { return quotes("QQQ", price, 20, seq, tod(10, 0, int(seq))) }
	}
	ann := p.engine(alert.Rule{Name: "ann qqq", Kind: alert.KindPrice, Symbol: "QQQ", Above: true, Level: 500, Margin: 0.5},
		alert.Rule{Name: "ann blocks", Kind: alert.KindBlock, Symbol: "SPY", MinSize: 500})
	ann.Start()
	fired := p.answer(asks(t, feed.FeedTape, nil, 0, tape(print(1, 10, 1, 0, call700), print(4, 600, 1, 10, call700))),
		asks(t, feed.FeedQuotes, []string{"QQQ"}, 0, qqq(520, 1)))
	if len(fired[ann]) != 2 {
		t.Fatalf("ann's first run fired %+v", fired)
	}

	bob := p.engine(alert.Rule{Name: "bob qqq", Kind: alert.KindPrice, Symbol: "QQQ", Above: true, Level: 510, Margin: 0.5},
		alert.Rule{Name: "bob iwm", Kind: alert.KindPrice, Symbol: "IWM", Above: false, Level: 300, Margin: 0.5},
		alert.Rule{Name: "bob blocks", Kind: alert.KindBlock, Symbol: "SPY", MinSize: 1000})
	bob.Start() // evaluated on the last run: QQQ at 520
	if f := next[alert.FiredMsg](r); f.From != bob || len(f.Events) != 1 || f.Events[0].Rule != "bob qqq" {
		t.Fatalf("bob on joining: %+v", f)
	}
	if pending := r.src.Pending(); len(pending) != 0 {
		t.Fatalf("bob's joining asked %d requests", len(pending))
	}
	if c := bob.Statuses(r.clock.Now())[0].Cost; !c.Shared {
		t.Errorf("bob's QQQ rule costs %+v, want shared with ann's", c)
	}

	r.tick()
	fired = p.answer(asks(t, feed.FeedTape, nil, 5, tape(print(5, 2000, 1, 20, call700))),
		asks(t, feed.FeedQuotes, []string{"QQQ", "IWM"}, 0, qqq(521, 2)))
	if len(fired[ann]) != 1 || len(fired[bob]) != 1 || fired[ann][0].Seq != 5 || fired[bob][0].Rule != "bob blocks" {
		t.Fatalf("the shared run fired %+v", fired)
	}

	bob.Close()
	r.tick()
	fired = p.answer(asks(t, feed.FeedTape, nil, 6, tape()), asks(t, feed.FeedQuotes, []string{"QQQ"}, 0, qqq(522, 3)))
	if len(fired) != 0 {
		t.Fatalf("after bob left: %+v", fired)
	}
}

// TestPoolEnginePostsAreItsOwn: a lagging subscriber keeps each engine's
// waiting events apart: neither is folded into the other's.
func TestPoolEnginePostsAreItsOwn(t *testing.T) {
	clock := feedtest.NewClock(open)
	mon := feedtest.NewScript(clock).Monitor(t, budget)
	pool := alert.NewPool(alert.PoolOptions{Monitor: mon})
	var engs []*alert.Engine
	for range 2 {
		e, err := alert.New(alert.Options{Pool: pool}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Close)
		engs = append(engs, e)
	}
	sub := mon.Subscribe()
	for i := range 100 {
		mon.Post(alert.FiredMsg{Events: []alert.Event{{Seq: int64(i)}}, From: engs[i%2]})
	}
	got := map[*alert.Engine]int{}
	for _, m := range sub.Pending() {
		f := m.(alert.FiredMsg)
		for _, e := range f.Events {
			if int(e.Seq)%2 != slices.Index(engs, f.From) {
				t.Fatalf("event %d of engine %d came from the other", e.Seq, e.Seq%2)
			}
			got[f.From]++
		}
	}
	if got[engs[0]] != 50 || got[engs[1]] != 50 {
		t.Errorf("events by engine %v", got)
	}
}
