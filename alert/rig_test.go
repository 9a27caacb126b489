package alert_test

import (
	"context"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
)

// open is a Tuesday at 10:00 Eastern: the market is open.
var open = time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)

// rig is an engine on a monitor whose clock and fetches the test drives
// (feedtest): every reply is the test's, every step bounded.
type rig struct {
	t     *testing.T
	clock *feedtest.Clock
	src   *feedtest.Script
	mon   *feed.Monitor
	eng   *alert.Engine
	sub   *feed.Subscription // what the engine posts, as a screen hears it
	wait  time.Duration      // the longest a run may take; 5 s when 0
}

func newRig(t *testing.T, log *alert.Log, rules ...alert.Rule) *rig {
	t.Helper()
	r := &rig{t: t, clock: feedtest.NewClock(open)}
	r.src = feedtest.NewScript(r.clock)
	r.mon = r.src.Monitor(t, budget)
	r.start(log, rules...)
	return r
}

// start builds and starts the engine (again, after a restart).
func (r *rig) start(log *alert.Log, rules ...alert.Rule) {
	r.t.Helper()
	eng, err := alert.New(alert.Options{Monitor: r.mon, Fetcher: r.src, Every: 30 * time.Second, Log: log, Now: r.clock.Now}, withDefaults(rules))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(eng.Close)
	r.eng = eng
	if r.sub == nil {
		r.sub = r.mon.Subscribe()
	}
	eng.Start()
}

func withDefaults(rules []alert.Rule) []alert.Rule {
	out := make([]alert.Rule, len(rules))
	for i, r := range rules {
		r.Enabled = true
		out[i] = r.WithDefaults()
	}
	return out
}

// next is the next thing posted of type T, waiting at most 5 s.
func next[T any](r *rig) T {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		msg, ok := r.sub.Next(ctx)
		if !ok {
			r.t.Fatalf("nothing of type %T posted in 5 s", *new(T))
		}
		if v, ok := msg.(T); ok {
			return v
		}
	}
}

// run answers the engine's next fetch of its own with answer (the
// request it made is handed to answer) and returns what fired from it.
func (r *rig) run(answer func(req *feedtest.Request) any) []alert.Event {
	r.t.Helper()
	req := r.src.Next(r.t)
	req.Answer(answer(req))
	return r.drain()
}

// drain collects what fired until the run's RunMsg.
func (r *rig) drain() []alert.Event {
	r.t.Helper()
	var out []alert.Event
	wait := r.wait
	if wait == 0 {
		wait = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		msg, ok := r.sub.Next(ctx)
		if !ok {
			r.t.Fatalf("no RunMsg in %s", wait)
		}
		switch m := msg.(type) {
		case alert.FiredMsg:
			out = append(out, m.Events...)
		case alert.RunMsg:
			return out
		}
	}
}

// tick moves the clock to the next run of the engine's feed.
func (r *rig) tick() { r.clock.Advance(30 * time.Second) }

// quotes is an underlying-quotes answer: sym at price, IV30 iv30 (points),
// its data's time and sequence number.
func quotes(sym string, price, iv30 float64, seq int64, at api.TimeOfDay) feed.QuotesMsg {
	u := api.Underlying{Symbol: sym, Timestamp: at, LastTradePrice: api.Some(price), SeqNo: api.Some(seq), IV30: api.Some(iv30), IV30Change: api.Some(1.0)}
	return feed.QuotesMsg{Quotes: []api.Symbol{{Underlying: u}}, Resp: &api.Response{StatusCode: 200, Cost: 4}}
}

func tod(h, m, s int) api.TimeOfDay { return api.NewTimeOfDay(h, m, s, 0) }

// values are the events' values.
func values(evs []alert.Event) []float64 {
	out := make([]float64, len(evs))
	for i, e := range evs {
		out[i] = e.Value
	}
	return out
}

// ctxT is a context bounded at 5 s.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// budget is large: the engine's feed runs at the interval asked.
var budget = feed.Budget{PerDay: 10_000_000}
