package bus_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/serve/bus"
)

// startBus starts the embedded bus on 127.0.0.1 with its store in a
// temporary directory.
func startBus(t *testing.T, users ...bus.User) *bus.Server {
	t.Helper()
	srv, err := bus.StartServer(bus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Users: users})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// sourceOn opens a source on srv over its in-process connection.
func sourceOn(t *testing.T, srv *bus.Server, host string, o bus.SourceOptions) (*bus.Source, error) {
	t.Helper()
	nc, err := bus.Connect("", host, bus.Creds{}, false, nil, srv.SourceOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	o.Host = host
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	src, err := bus.OpenSource(ctx, nc, o)
	if err == nil {
		t.Cleanup(src.Close)
	}
	return src, err
}

// hostOn opens a host on the bus at url with creds.
func hostOn(t *testing.T, url string, c bus.Creds, o bus.HostOptions) *bus.Host {
	t.Helper()
	nc, err := bus.Connect(url, o.Name, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h, err := bus.OpenHost(nc, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// chainAnswer is an answer to a chain request of sym, with body.
func chainAnswer(sym string, body []byte, at time.Time) api.Answer {
	q := url.Values{"symbol": {sym}, "date": {"2026-11-20"}}
	return api.Answer{Key: api.RequestKey(api.JSON, http.MethodGet, "option-and-underlying-quotes", q),
		Method: http.MethodGet, Path: "option-and-underlying-quotes", Query: q, Mode: api.Live,
		Endpoint: api.EndpointOptionQuotes, Status: http.StatusOK, Body: body, At: at, Cost: 4}
}

// tapePage is a page of sym's option trades.
func tapePage(sym string, seq int, body []byte, at time.Time) api.Answer {
	fam := url.Values{"symbol": {sym}, "date": {"2026-11-20"}}
	q := url.Values{"symbol": {sym}, "date": {"2026-11-20"}, "seq_no": {strconv.Itoa(seq)}}
	return api.Answer{Key: api.RequestKey(api.JSON, http.MethodGet, "option-trades", q),
		Family: api.RequestKey(api.JSON, http.MethodGet, "option-trades", fam),
		Method: http.MethodGet, Path: "option-trades", Query: q, Mode: api.Live,
		Endpoint: api.EndpointOptionTrades, Status: http.StatusOK, Body: body, At: at, Cost: 15}
}

// ctxFor is a context that ends after d.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, stop := context.WithTimeout(context.Background(), d)
	t.Cleanup(stop)
	return ctx
}

// replayEventually asks h for key until it answers, at most d.
func replayEventually(t *testing.T, h *bus.Host, key string, d time.Duration) (api.Answer, error) {
	t.Helper()
	end := time.Now().Add(d)
	var err error
	for time.Now().Before(end) {
		var a api.Answer
		if a, err = h.Replay(ctxFor(t, 5*time.Second), []string{key}); err == nil {
			return a, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return api.Answer{}, err
}

// noise is n bytes that do not compress: the body is then split in parts.
func noise(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// writeFile writes data at a fresh path with perm.
func writeFile(t *testing.T, name, data string, perm os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
	return p
}
