package bus_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"chainwatch/serve/bus"
	"chainwatch/serve/bus/bustest"
)

// TestSeparateNatsServer: the same bus on a separate, default-configured
// nats-server: an answer larger than its 1 MB max_payload reaches a host
// in parts, the tape stream and buckets work on its JetStream API, and a
// second source is refused.
func TestSeparateNatsServer(t *testing.T) {
	url := bustest.NatsServer(t)
	nc, err := bus.Connect(url, "a", bus.Creds{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	src, err := bus.OpenSource(ctxFor(t, 10*time.Second), nc, bus.SourceOptions{Host: "a"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	at := time.Now().UTC()
	big := chainAnswer("SPX", noise(3<<20), at)
	page := tapePage("SPX", 1, []byte(`[1]`), at)
	src.Record(big)
	src.Record(page)
	h := hostOn(t, url, bus.Creds{}, bus.HostOptions{Name: "b"})
	got, err := replayEventually(t, h, big.Key, 20*time.Second)
	if err != nil || !bytes.Equal(got.Body, big.Body) {
		t.Fatalf("the 3 MB answer over nats-server: %d bytes, %v", len(got.Body), err)
	}
	pages, err := h.ReplayFamily(ctxFor(t, 10*time.Second), page.Family)
	if err != nil || len(pages) != 1 {
		t.Fatalf("the tape over nats-server: %d pages, %v", len(pages), err)
	}
	kept := make(chan []byte, 1)
	if err := src.ConsumeUsage(func(data []byte) error { kept <- data; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := h.UsageRelay().Publish(usageRec{ID: "s1", Key: "alice"}); err != nil {
		t.Fatal(err)
	}
	select {
	case data := <-kept:
		if string(data) != `{"id":"s1","key":"alice"}` {
			t.Fatalf("the usage record over nats-server: %s", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the usage record never reached the source over nats-server")
	}
	other, err := bus.Connect(url, "c", bus.Creds{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	_, err = bus.OpenSource(ctxFor(t, 10*time.Second), other, bus.SourceOptions{Host: "c"})
	var taken *bus.TakenError
	if !errors.As(err, &taken) || taken.Host != "a" {
		t.Fatalf("a second source on nats-server: %v", err)
	}
}
