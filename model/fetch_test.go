package model

import (
	"context"
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/sandbox"
	"chainwatch/theme"
)

// startTestSandbox starts the sandbox in process on 127.0.0.1 and returns
// the panes' common.Common with a client of it (real OAuth2 client credentials
// over loopback HTTP). The sandbox, the client and common.Common.Now share one
// stopped clock, Friday 2026-11-20 at 11:30 Eastern, so "live" is always
// mid-session and every answer is the same from run to run.
func startTestSandbox(t *testing.T) *common.Common {
	t.Helper()
	return startSandboxWith(t, sandbox.Config{})
}

// startSandboxWith is an in-process sandbox with cfg on 127.0.0.1, on the
// tests' stopped clock, and a client of it signed in with real OAuth2
// client credentials over loopback HTTP (opts added to the client's).
func startSandboxWith(t *testing.T, cfg sandbox.Config, opts ...api.Option) *common.Common {
	t.Helper()
	now := func() time.Time { return testNow }
	cfg.Now = now
	if cfg.PerSecond == 0 {
		cfg.PerSecond = -1 // a stopped clock never refills a rate limiter
	}
	sb, err := sandbox.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret})
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]api.Option{api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now)}, opts...)
	client, err := api.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Client: client, Now: now}
}

func TestFetchChain(t *testing.T) {
	sh := startTestSandbox(t)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	c := NewChain(sh)
	c.SetQuery(q)

	m, ok := fetchChainCmd(ctx, sh, q, 0)().(feed.ChainMsg)
	if !ok || m.Err != nil || m.Chain == nil || m.Query != q || m.Expiry != 0 || !m.At.Equal(testNow) {
		t.Fatalf("whole chain: %T %v", m, m.Err)
	}
	if m.Resp == nil || m.Resp.Cost != api.Cost(api.EndpointOptionQuotes, api.Live, false) {
		t.Errorf("response %+v", m.Resp)
	}
	if !c.Apply(m) {
		t.Fatal("whole chain dropped")
	}
	tabs, _ := c.Tabs()
	if len(tabs) < 5 || c.Expiry() != api.NewDate(2026, 11, 20) {
		t.Fatalf("%d expiries, selected %s", len(tabs), c.Expiry())
	}
	// The cursor is at the money: no strike of the window is nearer.
	spot := c.Spot()
	d, ok := c.Selected()
	if math.IsNaN(spot) || !ok || d.Type != api.Call {
		t.Fatalf("spot %v, selected %+v", spot, d)
	}
	rows, _ := c.window()
	for _, r := range rows {
		if math.Abs(r.Strike-spot) < math.Abs(d.Strike-spot) {
			t.Fatalf("strike %v is nearer to %v than the cursor's %v", r.Strike, spot, d.Strike)
		}
	}
	if h := c.Header(); h.Symbol != "SPY" || h.Indicator == "" || math.IsNaN(h.Last) {
		t.Errorf("header %+v", h)
	}

	// One expiry: only its contracts come back, and they apply.
	exp := tabs[1].Date
	if _, changed := c.HandleKey(runeKey(']')); !changed || c.Expiry() != exp {
		t.Fatalf("next expiry: %s", c.Expiry())
	}
	m = fetchChainCmd(ctx, sh, q, exp)().(feed.ChainMsg)
	if m.Err != nil || len(m.Chain.Options) == 0 {
		t.Fatalf("expiry %s: %v", exp, m.Err)
	}
	for _, o := range m.Chain.Options {
		if o.Expiry != exp {
			t.Fatalf("an expiry fetch for %s returned %s", exp, o.Expiry)
		}
	}
	if !c.Apply(m) || c.LastOK() != testNow {
		t.Error("expiry reply dropped")
	}
}

func TestFetchTape(t *testing.T) {
	sh := startTestSandbox(t)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	tp := NewTape(sh, 50000, 100)
	tp.SetQuery(q)

	m := fetchTapeCmd(ctx, sh, q, feed.TapeDay(q, sh.Now()), tp.NextFrom())().(feed.TapeMsg)
	if m.Err != nil || len(m.Trades) == 0 || m.From != 0 {
		t.Fatalf("first page: %d trades, %v", len(m.Trades), m.Err)
	}
	if first := m.Trades[0].Timestamp; first < api.NewTimeOfDay(11, 15, 0, 0) {
		t.Errorf("first page starts at %s, before the 15-minute window", first)
	}
	if !tp.Apply(m) {
		t.Fatal("first page dropped")
	}
	held := tp.r.len()
	t.Logf("first page: %d trades from %s, more %v", held, m.Trades[0].Timestamp, tp.More())
	// Then pages from NextFrom; the sandbox's clock is stopped, so they
	// run out (a 204, or a short page). Bounded in any case.
	for i := 0; i < 10; i++ {
		from := tp.NextFrom()
		m = fetchTapeCmd(ctx, sh, q, feed.TapeDay(q, sh.Now()), from)().(feed.TapeMsg)
		if m.Err != nil && !api.IsNoData(m.Err) {
			t.Fatalf("page from %d: %v", from, m.Err)
		}
		for _, tr := range m.Trades {
			if tr.SeqNo < from {
				t.Fatalf("page from %d holds seq_no %d", from, tr.SeqNo)
			}
		}
		if !tp.Apply(m) {
			t.Fatalf("page from %d dropped", from)
		}
		if !tp.More() {
			break
		}
	}
	seen := map[int64]bool{}
	for i := range tp.r.len() {
		s := tp.r.at(i).tr.SeqNo
		if seen[s] {
			t.Fatalf("seq_no %d held twice", s)
		}
		seen[s] = true
	}
	if tp.r.len() < held {
		t.Errorf("held %d after %d", tp.r.len(), held)
	}
}

func TestFetchCalendar(t *testing.T) {
	sh := startTestSandbox(t)
	q := feed.Query{Symbol: "AAPL", Mode: api.Live, Gen: 1}
	cal := NewCalendar(sh)
	cal.SetQuery(q)
	m := fetchCalendarCmd(context.Background(), sh, q)().(feed.CalendarMsg)
	if m.Err != nil || len(m.Events) == 0 {
		t.Fatalf("calendar: %d events, %v", len(m.Events), m.Err)
	}
	if !cal.Apply(m) || len(cal.earnings) == 0 || len(cal.dividends) == 0 {
		t.Fatalf("%d earnings, %d dividends", len(cal.earnings), len(cal.dividends))
	}
	today := q.Day(testNow)
	for _, e := range cal.earnings {
		if e.Date < today.AddDays(-120) || e.Date > today.AddDays(200) {
			t.Errorf("report %s outside the window", e.Date)
		}
	}
	if next := cal.NextEarnings(today); next < today {
		t.Errorf("next earnings %s", next)
	}
}
