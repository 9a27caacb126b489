package bus_test

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/serve/bus"
)

// TestSourcesFailureIsTheHosts: the source's monitor fails to fetch SPY's
// chain (its service is a closed port); the failure goes on the bus, and
// a host that holds an older answer of SPY's chain refuses it, naming the
// failure, as the source's own screen shows STALE.
func TestSourcesFailureIsTheHosts(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	old := chainAnswer("SPY", []byte(`{"old":1}`), modeltest.Now.Add(-time.Hour))
	src.Record(old)
	if _, err := replayEventually(t, h, old.Key, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	client, err := api.NewClient(api.WithBaseURL(closed), api.WithClock(modeltest.Clock), api.WithRecorder(src))
	if err != nil {
		t.Fatal(err)
	}
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: modeltest.Clock},
		Clock: feed.RealClock{NowFunc: modeltest.Clock}})
	t.Cleanup(mon.Close)
	src.Attach(mon)
	mon.Subscribe().Set(feed.Attention{Focused: true}, feed.Want{Feed: feed.FeedChain, Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}})
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := h.Replay(ctxFor(t, 5*time.Second), []string{old.Key})
		if bus.IsUnavailable(err) && strings.Contains(err.Error(), "last fetch failed") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the source's failure never reached the host: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A request of SPY's chain never answered fails at once with it (the
	// source's monitor does not ask again for a symbol the service does
	// not know), where another symbol's waits for the source.
	never := chainAnswer("SPY", nil, modeltest.Now)
	never.Key += "&expiration=2026-12-18"
	start := time.Now()
	_, err = h.Replay(ctxFor(t, 10*time.Second), []string{never.Key})
	if !bus.IsUnavailable(err) || !strings.Contains(err.Error(), "fetch failed") || time.Since(start) > time.Second {
		t.Fatalf("a never-answered request of the failing feed: %v after %v", err, time.Since(start))
	}
	other := chainAnswer("QQQ", nil, modeltest.Now)
	if _, err = h.Replay(ctxFor(t, 10*time.Second), []string{other.Key}); !bus.IsUnavailable(err) || !strings.Contains(err.Error(), "waiting for the source") {
		t.Fatalf("another symbol's request: %v", err)
	}
}

// TestSlowHostSlowsNobody: a subscriber on the bus that never reads its
// messages does not hold the source's publishing back: a host keeps
// getting every new answer.
func TestSlowHostSlowsNobody(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{ChunkSize: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	stalled, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stalled.Close)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	sub, err := stalled.Subscribe("chainwatch.answer.>", func(*nats.Msg) { <-release })
	if err != nil {
		t.Fatal(err)
	}
	_ = sub.SetPendingLimits(16, 1<<20)
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	var last api.Answer
	for i := range 40 {
		last = chainAnswer("SPX", append(noise(64<<10), byte(i)), time.Now().UTC())
		src.Record(last)
		time.Sleep(20 * time.Millisecond)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := h.Replay(ctxFor(t, 5*time.Second), []string{last.Key})
		if err == nil && bytes.Equal(got.Body, last.Body) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("with a stalled subscriber the host never got the last answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBusDownThenBack: the bus (a server on a fixed port, its store kept)
// stops: the host refuses within the bound; it starts again, and the
// source and the host resume by themselves.
func TestBusDownThenBack(t *testing.T) {
	store := t.TempDir()
	srv, err := bus.StartServer(bus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	addr := srv.Addr().String()
	url := srv.URL()
	nc, err := bus.Connect(url, "a", bus.Creds{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	src, err := bus.OpenSource(ctx, nc, bus.SourceOptions{Host: "a"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	h := hostOn(t, url, bus.Creds{}, bus.HostOptions{Name: "b"})
	first := chainAnswer("SPY", []byte(`{"v":1}`), time.Now().UTC())
	src.Record(first)
	if _, err := replayEventually(t, h, first.Key, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	// The host learns of it when its connection breaks: a request asked
	// in that moment still has its answer.
	start := time.Now()
	for {
		_, err := h.Replay(ctxFor(t, 10*time.Second), []string{first.Key})
		if bus.IsUnavailable(err) {
			break
		}
		if time.Since(start) > 8*time.Second {
			t.Fatalf("the bus down 8s, the host still answers: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	again, err := bus.StartServer(bus.ServerOptions{Listen: addr, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(again.Close)
	second := chainAnswer("SPY", []byte(`{"v":2}`), time.Now().UTC())
	deadline := time.Now().Add(30 * time.Second)
	for {
		src.Record(second)
		got, err := h.Replay(ctxFor(t, 5*time.Second), []string{second.Key})
		if err == nil && string(got.Body) == `{"v":2}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bus back, the host never resumed: %q %v", got.Body, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
