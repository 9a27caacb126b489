package bus_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/serve/bus"
)

// TestHostReplaysWhatTheSourcePublishes: an answer the source's client
// receives reaches a host's Replay whole, also when its body is larger
// than a message and goes in parts; a delayed request does not get the
// live answer, and a key never answered waits, then says so.
func TestHostReplaysWhatTheSourcePublishes(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{ChunkSize: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	at := time.Now().UTC().Truncate(time.Second)
	big := chainAnswer("SPX", noise(100<<10), at) // 25 parts
	small := chainAnswer("SPY", []byte(`{"symbol":"SPY"}`), at)
	src.Record(big)
	src.Record(small)
	for _, want := range []api.Answer{big, small} {
		got, err := replayEventually(t, h, want.Key, 10*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", want.Query.Get("symbol"), err)
		}
		if !bytes.Equal(got.Body, want.Body) || got.Status != 200 || got.Cost != want.Cost || !got.At.Equal(at) || got.Endpoint != want.Endpoint {
			t.Fatalf("%s: got %d bytes status %d cost %d at %v, want %d bytes as published", want.Query.Get("symbol"),
				len(got.Body), got.Status, got.Cost, got.At, len(want.Body))
		}
	}
	// A newer answer replaces it.
	newer := chainAnswer("SPY", []byte(`{"symbol":"SPY","v":2}`), at.Add(time.Second))
	src.Record(newer)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := h.Replay(ctxFor(t, 5*time.Second), []string{newer.Key})
		if err == nil && bytes.Equal(got.Body, newer.Body) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the newer answer never replaced the old: %q, %v", got.Body, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	start := time.Now()
	_, err = h.Replay(api.WithReplayMode(ctxFor(t, 10*time.Second), api.Delayed), []string{small.Key})
	if !bus.IsUnavailable(err) {
		t.Fatalf("a delayed request answered from the live answer: %v", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("a key never answered waited %v", waited)
	}
}

// TestHostJoiningLateCatchesUp: a host that joins after the answers and
// tape pages were published has them from the bucket and the stream,
// without a request.
func TestHostJoiningLateCatchesUp(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC()
	chain := chainAnswer("SPY", []byte(`{"chain":1}`), at)
	p1, p2 := tapePage("SPY", 1, []byte(`[1]`), at), tapePage("SPY", 2, []byte(`[2]`), at.Add(time.Second))
	for _, a := range []api.Answer{chain, p1, p2} {
		src.Record(a)
	}
	first := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "first"})
	if _, err := replayEventually(t, first, chain.Key, 10*time.Second); err != nil {
		t.Fatal(err) // published by now
	}
	late := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "late"})
	got, err := replayEventually(t, late, chain.Key, 10*time.Second)
	if err != nil || string(got.Body) != `{"chain":1}` {
		t.Fatalf("late host: %q, %v", got.Body, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pages, err := late.ReplayFamily(ctxFor(t, 5*time.Second), p1.Family)
		if err == nil && len(pages) == 2 {
			if string(pages[0].Body) != "[1]" || string(pages[1].Body) != "[2]" {
				t.Fatalf("pages %q %q, want [1] [2] oldest first", pages[0].Body, pages[1].Body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("late host's tape: %d pages, %v", len(pages), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSecondSourceRefused: one bus, one source: a second is refused with
// the first's name, and takes over once the first closes.
func TestSecondSourceRefused(t *testing.T) {
	srv := startBus(t)
	first, err := sourceOn(t, srv, "desk-a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sourceOn(t, srv, "desk-b", bus.SourceOptions{})
	var taken *bus.TakenError
	if !errors.As(err, &taken) || taken.Host != "desk-a" || taken.Since.IsZero() {
		t.Fatalf("second source: %v, want refused naming desk-a", err)
	}
	first.Close()
	if _, err := sourceOn(t, srv, "desk-b", bus.SourceOptions{}); err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
}

// TestHostForgetsPastTheWindow: an answer that came longer ago than the
// window is forgotten once another comes; the newer one stays.
func TestHostForgetsPastTheWindow(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b", Window: 500 * time.Millisecond})
	old := chainAnswer("SPY", []byte(`{"old":1}`), time.Now().UTC())
	src.Record(old)
	if _, err := replayEventually(t, h, old.Key, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	newer := chainAnswer("QQQ", []byte(`{"new":1}`), time.Now().UTC())
	src.Record(newer)
	if _, err := replayEventually(t, h, newer.Key, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Replay(ctxFor(t, 10*time.Second), []string{old.Key}); !bus.IsUnavailable(err) {
		t.Fatalf("an answer past the window is still answered: %v", err)
	}
}

// TestHostLeavesOutPagesAheadOfTheSourcesClock: tape pages the stream
// kept from a source's earlier run on an earlier clock (a sandbox's
// --sandbox-clock starts its day again) are ahead of the source's clock
// now, and a host's tape does not show them.
func TestHostLeavesOutPagesAheadOfTheSourcesClock(t *testing.T) {
	srv := startBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	p1, ahead := tapePage("SPY", 1, []byte(`[1]`), now), tapePage("SPY", 2, []byte(`[2]`), now.Add(time.Hour))
	src.Record(ahead)
	src.Record(p1)
	h := hostOn(t, srv.URL(), bus.Creds{}, bus.HostOptions{Name: "b"})
	var pages []api.Answer
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if pages, err = h.ReplayFamily(ctxFor(t, 5*time.Second), p1.Family); err == nil && len(pages) > 0 {
			break
		}
	}
	if len(pages) != 1 || !bytes.Equal(pages[0].Body, p1.Body) {
		t.Fatalf("the host's pages: %d (%v), want the one at the source's clock", len(pages), err)
	}
}
