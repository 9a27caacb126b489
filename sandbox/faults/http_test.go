package faults

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// bigBody is large enough that half of it is clearly not all of it.
var bigBody = strings.Repeat("0123456789", 1000)

// serve starts a loopback server that injects kind on every request, and
// returns its URL and a client that opens a fresh connection per request
// (a reused connection would let the transport retry a reset GET).
func serve(t *testing.T, kind Kind, next http.Handler, expireToken func(*http.Request)) (string, *http.Client) {
	t.Helper()
	cfg := Config{Rate: 1, Kinds: []Kind{kind}, Slow: 20 * time.Millisecond}
	srv := httptest.NewServer(Middleware(cfg, expireToken)(next))
	t.Cleanup(srv.Close)
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	return srv.URL, &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return resp, string(b)
}

func TestPlainTextFaults(t *testing.T) {
	for _, tc := range []struct {
		kind       Kind
		status     int
		body       string
		retryAfter string
	}{
		{Kind500, 500, "injected fault: internal server error\n", ""},
		{Kind503, 503, "injected fault: service unavailable\n", "1"},
		{Kind429, 429, "injected fault: rate limit\n", "1"},
	} {
		url, c := serve(t, tc.kind, &handler{body: bigBody}, nil)
		resp, body := get(t, c, url)
		if resp.StatusCode != tc.status || body != tc.body {
			t.Errorf("%s: %d %q; want %d %q", tc.kind, resp.StatusCode, body, tc.status, tc.body)
		}
		if got := resp.Header.Get("Retry-After"); got != tc.retryAfter {
			t.Errorf("%s: Retry-After %q; want %q", tc.kind, got, tc.retryAfter)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s: Content-Type %q; want text/plain", tc.kind, ct)
		}
	}
}

func TestTokenFault(t *testing.T) {
	var expired atomic.Value
	url, c := serve(t, KindToken, &handler{body: bigBody}, func(r *http.Request) {
		expired.Store(r.Header.Get("Authorization"))
	})
	req, _ := http.NewRequest(http.MethodGet, url+"/v1/live/x", nil)
	req.Header.Set("Authorization", "Bearer abc")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 401 || len(body) != 0 {
		t.Errorf("token fault: %d %q; want 401 and no body", resp.StatusCode, body)
	}
	if got, want := resp.Header.Get("WWW-Authenticate"), `Bearer error="invalid_token"`; got != want {
		t.Errorf("WWW-Authenticate %q; want %q", got, want)
	}
	if got, _ := expired.Load().(string); got != "Bearer abc" {
		t.Errorf("expireToken saw Authorization %q; want the request's", got)
	}
}

func TestSlowFault(t *testing.T) {
	url, c := serve(t, KindSlow, &handler{body: bigBody}, nil)
	start := time.Now()
	resp, body := get(t, c, url)
	if resp.StatusCode != 200 || body != bigBody {
		t.Fatalf("slow fault: %d, %d bytes; want the normal answer", resp.StatusCode, len(body))
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("answered after %v; want at least the 20ms delay", d)
	}
}

func TestSlowFaultStopsWhenClientGivesUp(t *testing.T) {
	var served atomic.Bool
	next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served.Store(true) })
	mw := Middleware(Config{Rate: 1, Kinds: []Kind{KindSlow}, Slow: time.Hour}, nil)(next)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	mw.ServeHTTP(httptest.NewRecorder(), req) // returns at once, not in an hour
	if served.Load() {
		t.Error("handler ran for a request whose client had gone")
	}
}

func TestTruncateFault(t *testing.T) {
	url, c := serve(t, KindTruncate, &handler{body: bigBody}, nil)
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != int64(len(bigBody)) {
		t.Errorf("headers: %d, Content-Length %d; want 200, %d", resp.StatusCode, resp.ContentLength, len(bigBody))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q; want the handler's", ct)
	}
	b, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("reading body: %v; want io.ErrUnexpectedEOF", err)
	}
	if len(b) != len(bigBody)/2 || string(b) != bigBody[:len(b)] {
		t.Errorf("read %d bytes; want the first %d of the body", len(b), len(bigBody)/2)
	}
}

func TestTruncateEmptyAnswer(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	url, c := serve(t, KindTruncate, next, nil)
	if resp, err := c.Get(url); err == nil {
		resp.Body.Close()
		t.Fatalf("truncated 204 answered %d; want a transport error", resp.StatusCode)
	}
}

func TestResetFault(t *testing.T) {
	var served atomic.Bool
	next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served.Store(true) })
	url, c := serve(t, KindReset, next, nil)
	resp, err := c.Get(url)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("reset answered %d; want a transport error", resp.StatusCode)
	}
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("error %v; want connection reset by peer", err)
	}
	if served.Load() {
		t.Error("reset fault ran the handler")
	}
}

func TestPostBodyThroughTruncate(t *testing.T) {
	// The handler reads a request body; the partial answer must still
	// arrive intact up to the cut, not be lost to a reset.
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write(append(b, b...))
	})
	url, c := serve(t, KindTruncate, next, nil)
	resp, err := c.Post(url, "application/json", strings.NewReader(bigBody))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) || string(b) != bigBody {
		t.Errorf("read %d bytes, %v; want the first %d and io.ErrUnexpectedEOF", len(b), err, len(bigBody))
	}
}

// Over HTTP/2 nothing can be hijacked: truncate and reset abort the stream
// instead, and the client must still see a failure, not a clean answer.
func TestFaultsOverHTTP2(t *testing.T) {
	for _, kind := range []Kind{KindTruncate, KindReset} {
		cfg := Config{Rate: 1, Kinds: []Kind{kind}}
		srv := httptest.NewUnstartedServer(Middleware(cfg, nil)(&handler{body: bigBody}))
		srv.EnableHTTP2 = true
		srv.StartTLS()
		resp, err := srv.Client().Get(srv.URL)
		if err == nil {
			if resp.ProtoMajor != 2 {
				t.Fatalf("%s: answered over %s; want HTTP/2", kind, resp.Proto)
			}
			var b []byte
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				t.Errorf("%s over HTTP/2: read %d bytes without error", kind, len(b))
			}
			if kind == KindReset {
				t.Errorf("%s over HTTP/2: got response headers (%d)", kind, resp.StatusCode)
			}
		}
		srv.Close()
	}
}
