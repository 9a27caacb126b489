package cmd

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"chainwatch/serve"
	"chainwatch/serve/bus"
)

// A host's sessions go into the source's ledger: what the host's desk
// appends to its usage sink is read back from the source's file ledger.
func TestServeBusUsageReachesTheSourcesLedger(t *testing.T) {
	srv, err := bus.StartServer(bus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	log := slog.New(slog.DiscardHandler)
	ncA, err := bus.Connect("", "a", bus.Creds{}, false, log, srv.SourceOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ncA.Close)
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	src, err := bus.OpenSource(ctx, ncA, bus.SourceOptions{Host: "a"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	ncB, err := bus.Connect(srv.URL(), "b", bus.Creds{}, false, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ncB.Close)
	host, err := bus.OpenHost(ncB, bus.HostOptions{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(host.Close)

	ledger := serve.OpenUsage(t.TempDir())
	if got := (&deskBus{source: src, log: log, ctx: t.Context()}).usage(ledger); got != serve.UsageSink(ledger) {
		t.Fatalf("the source's sink is %T, want its ledger", got)
	}
	sink := (&deskBus{host: host, log: log}).usage(nil)
	at := time.Date(2026, 11, 20, 11, 30, 0, 0, time.UTC)
	for _, ev := range []string{serve.UsageStart, serve.UsageEnd} {
		r := serve.UsageRecord{Event: ev, ID: "b-1", Key: "bob", Host: "b", Device: "10.0.1.9", Kind: serve.UsageScreen, RealTime: true, At: at}
		if err := sink.Append(r); err != nil {
			t.Fatal(err)
		}
		at = at.Add(30 * time.Minute)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		recs, err := ledger.Month(serve.UsageMonth(at))
		if err == nil && len(recs) == 2 {
			if recs[0].Key != "bob" || recs[0].Host != "b" || !recs[0].RealTime || recs[1].Event != serve.UsageEnd {
				t.Fatalf("the ledger holds %+v", recs)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the source's ledger: %d records, %v", len(recs), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
