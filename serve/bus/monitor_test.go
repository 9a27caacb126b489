package bus_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/serve/bus"
)

// deskSource is a source on srv whose client is the sandbox's and whose
// monitor fetches the hosts' wants; reqs counts what the sandbox served.
func deskSource(t *testing.T, srv *bus.Server, reqs *modeltest.Requests) *bus.Source {
	t.Helper()
	src, _ := deskSourceMon(t, srv, reqs)
	return src
}

// deskSourceMon is deskSource with its monitor.
func deskSourceMon(t *testing.T, srv *bus.Server, reqs *modeltest.Requests) (*bus.Source, *feed.Monitor) {
	t.Helper()
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{Clock: modeltest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	client := modeltest.StartSandbox(t, sandbox.Config{Logger: reqs.Logger()}, api.WithRecorder(src))
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: modeltest.Clock},
		Clock: feed.RealClock{NowFunc: modeltest.Clock}})
	t.Cleanup(mon.Close)
	src.Attach(mon)
	return src, mon
}

// hostScreen is a host's monitor on its replaying client, with one
// subscriber that wants SPY's chain.
func hostScreen(t *testing.T, h *bus.Host) *feed.Subscription {
	t.Helper()
	client, err := api.NewClient(api.WithBaseURL("http://127.0.0.1/"), api.WithMode(api.Live),
		api.WithClock(modeltest.Clock), api.WithReplay(h))
	if err != nil {
		t.Fatal(err)
	}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: modeltest.Clock},
		Clock: feed.RealClock{NowFunc: modeltest.Clock}})
	t.Cleanup(mon.Close)
	h.Attach(mon)
	sub := mon.Subscribe()
	sub.Set(feed.Attention{Focused: true}, feed.Want{Feed: feed.FeedChain, Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}})
	return sub
}

// nextChain waits at most d for a chain reply that ok accepts.
func nextChain(t *testing.T, sub *feed.Subscription, d time.Duration, ok func(feed.ChainMsg) bool) (feed.ChainMsg, bool) {
	t.Helper()
	ctx, stop := context.WithTimeout(context.Background(), d)
	defer stop()
	var last feed.ChainMsg
	for {
		msg, more := sub.Next(ctx)
		if !more {
			return last, false
		}
		if c, is := msg.(feed.ChainMsg); is {
			last = c
			if ok(c) {
				return c, true
			}
		}
	}
}

func answered(c feed.ChainMsg) bool {
	return c.Err == nil && c.Chain != nil && len(c.Chain.Options) > 0
}
func refused(c feed.ChainMsg) bool { return bus.IsUnavailable(c.Err) }

// TestHostScreenOverTheBus: a host's monitor wants SPY's chain; its want
// reaches the source's monitor, which fetches it from the service; the
// answer comes back over the bus. The source gone, the host's next fetch
// fails (STALE, the data kept by the screen); a new source, and the chain
// comes again without a restart of the host.
func TestHostScreenOverTheBus(t *testing.T) {
	srv := startBus(t)
	var reqs modeltest.Requests
	src := deskSource(t, srv, &reqs)
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	sub := hostScreen(t, h)
	c, ok := nextChain(t, sub, 30*time.Second, answered)
	if !ok {
		t.Fatalf("the host's chain never came: last %+v", c.Err)
	}
	if c.Resp == nil || !c.Resp.FromRecording || c.Resp.Cost != 0 {
		t.Fatalf("the host's answer %+v: want it from the bus, 0 points", c.Resp)
	}
	if reqs.Count("/option-and-underlying-quotes") == 0 {
		t.Fatal("the sandbox served no chain: the host's answer came from elsewhere")
	}
	src.Close()
	if c, ok := nextChain(t, sub, 40*time.Second, refused); !ok {
		t.Fatalf("the source gone, the host still answers: last %+v", c.Err)
	}
	deskSource(t, srv, &reqs)
	if c, ok := nextChain(t, sub, 40*time.Second, answered); !ok {
		t.Fatalf("a new source, and the host's chain never came back: last %v", c.Err)
	}
}

// TestHostWatchlistAndContractOverTheBus: the watchlist's quotes and a
// contract's quote and trades, wanted on a host, come over the bus from
// the source's monitor, as the chain does.
func TestHostWatchlistAndContractOverTheBus(t *testing.T) {
	srv := startBus(t)
	var reqs modeltest.Requests
	deskSource(t, srv, &reqs)
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	sub := hostScreen(t, h)
	c, ok := nextChain(t, sub, 30*time.Second, answered)
	if !ok {
		t.Fatalf("the host's chain never came: %v", c.Err)
	}
	osi, err := api.ParseOSI(c.Chain.Options[len(c.Chain.Options)/2].Option)
	if err != nil {
		t.Fatal(err)
	}
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 2}
	sub.Set(feed.Attention{Focused: true},
		feed.Want{Feed: feed.FeedQuotes, Query: q, Symbols: []string{"SPY", "QQQ"}},
		feed.Want{Feed: feed.FeedContractQuote, Query: q, OSI: osi},
		feed.Want{Feed: feed.FeedContractTrades, Query: q, OSI: osi})
	ctx, stop := context.WithTimeout(context.Background(), 40*time.Second)
	defer stop()
	var quotes, contract, trades bool
	var lastErr error
	for !(quotes && contract && trades) {
		msg, more := sub.Next(ctx)
		if !more {
			t.Fatalf("within 40s: quotes %v, contract quote %v, contract trades %v; last error %v", quotes, contract, trades, lastErr)
		}
		switch m := msg.(type) {
		case feed.QuotesMsg:
			quotes = quotes || m.Err == nil && len(m.Quotes) == 2
			lastErr = cmpErr(lastErr, m.Err)
		case feed.ContractQuoteMsg:
			contract = contract || m.Err == nil
			lastErr = cmpErr(lastErr, m.Err)
		case feed.ContractTradesMsg:
			trades = trades || m.Err == nil || errors.Is(m.Err, api.ErrNoData)
			lastErr = cmpErr(lastErr, m.Err)
		}
	}
}

func cmpErr(old, err error) error {
	if err != nil {
		return err
	}
	return old
}

// TestHostsAttentionReachesTheSource: whether anybody on a host looks
// goes with its wants, so the source's monitor slows a host's feeds
// behind an empty chair as it would a local screen's, and speeds them
// up again when a trader comes back.
func TestHostsAttentionReachesTheSource(t *testing.T) {
	srv := startBus(t)
	var reqs modeltest.Requests
	_, srcMon := deskSourceMon(t, srv, &reqs)
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	sub := hostScreen(t, h)
	within := func(want feed.Attention) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if srcMon.Attention() == want {
				return
			}
		}
		t.Fatalf("the source's monitor: %+v, want %+v", srcMon.Attention(), want)
	}
	within(feed.Attention{Focused: true})
	spy := feed.Want{Feed: feed.FeedChain, Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}}
	sub.Set(feed.Attention{Idle: true}, spy)
	within(feed.Attention{Idle: true})
	sub.Set(feed.Attention{Focused: true}, spy)
	within(feed.Attention{Focused: true})
}
