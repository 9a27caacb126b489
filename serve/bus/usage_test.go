package bus_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/serve/bus"
)

type usageRec struct {
	ID  string `json:"id"`
	Key string `json:"key"`
}

// TestUsageRelayReachesTheSource: records a host (a delayed-only user)
// relays before the source reads them are kept by the bus; the source
// appends each once, again after its ledger failed once.
func TestUsageRelayReachesTheSource(t *testing.T) {
	srv := usersBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := bus.Connect(srv.URL(), "slow", bus.Creds{User: "slow", Password: delayedPass}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h, err := bus.OpenHost(nc, bus.HostOptions{Name: "slow", Modes: []api.Mode{api.Delayed}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	relay := h.UsageRelay()
	for _, id := range []string{"s1", "s2", "s3"} {
		if err := relay.Publish(usageRec{ID: id, Key: "alice"}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		mu     sync.Mutex
		kept   []string
		failed bool
	)
	err = src.ConsumeUsage(func(data []byte) error {
		var r usageRec
		if err := json.Unmarshal(data, &r); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if r.ID == "s2" && !failed {
			failed = true
			return errors.New("the ledger's disk is full")
		}
		kept = append(kept, r.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(kept)
		got := append([]string(nil), kept...)
		mu.Unlock()
		if n >= 3 {
			seen := map[string]int{}
			for _, id := range got {
				seen[id]++
			}
			if len(got) != 3 || seen["s1"] != 1 || seen["s2"] != 1 || seen["s3"] != 1 {
				t.Fatalf("the ledger kept %v, want s1, s2, s3 once each", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ledger kept %v within 20s", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAlertsReachHostsLate: the source's alert events are on the bus for
// the window: a host (a delayed-only user) that joins after them reads
// them, then each new one.
func TestAlertsReachHostsLate(t *testing.T) {
	srv := usersBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := src.PublishAlert(usageRec{ID: "first"}); err != nil {
		t.Fatal(err)
	}
	nc, err := bus.Connect(srv.URL(), "slow", bus.Creds{User: "slow", Password: delayedPass}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h, err := bus.OpenHost(nc, bus.HostOptions{Name: "slow", Modes: []api.Mode{api.Delayed}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	got := make(chan string, 4)
	h.FollowAlerts(func(data []byte) {
		var r usageRec
		_ = json.Unmarshal(data, &r)
		got <- r.ID
	})
	if err := src.PublishAlert(usageRec{ID: "second"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"first", "second"} {
		select {
		case id := <-got:
			if id != want {
				t.Fatalf("alert %q, want %q", id, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("alert %q never reached the host", want)
		}
	}
}
