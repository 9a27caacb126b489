package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// ---- helpers shared by transport_test.go, errors_test.go, points_test.go ----

// maxServedRequests bounds every test server: a client stuck in a retry loop
// gets a 418 (never retried) instead of spinning forever.
const maxServedRequests = 20

// seenRequest is what a test server recorded of one request.
type seenRequest struct {
	Method string
	Path   string // r.URL.EscapedPath()
	Query  string
	Header http.Header
	Body   string
}

// countingServer is an httptest server on 127.0.0.1 that numbers requests
// (1-based) and records them.
type countingServer struct {
	*httptest.Server
	n     atomic.Int32
	limit atomic.Int32 // requests served before the 418s; maxServedRequests unless set
	mu    sync.Mutex
	seen  []seenRequest
}

// startCountingServer serves handler, which gets the request number.
func startCountingServer(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, n int)) *countingServer {
	t.Helper()
	s := &countingServer{}
	s.limit.Store(maxServedRequests)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n := int(s.n.Add(1))
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: string(body)})
		s.mu.Unlock()
		if n > int(s.limit.Load()) {
			http.Error(w, "test server: too many requests", http.StatusTeapot)
			return
		}
		handler(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

// count returns how many requests arrived.
func (s *countingServer) count() int { return int(s.n.Load()) }

// requests returns a copy of the recorded requests.
func (s *countingServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

// hangUp closes the connection without an answer: a network error.
func hangUp(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	conn.Close()
}

// sleepLog replaces Client.sleep: it records each wait and returns at once.
type sleepLog struct {
	mu    sync.Mutex
	waits []time.Duration
	hook  func(ctx context.Context) error // optional; its result is returned
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	if s.hook != nil {
		return s.hook(ctx)
	}
	return ctx.Err()
}

func (s *sleepLog) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// fixedJitter is the jitter the retry test clients use.
const fixedJitter = 0.5

// newRetryTestClient returns a client of base that never sleeps (waits go to
// the returned log), uses fixedJitter and never reuses connections, so the
// server's request count is exactly the client's attempts (net/http retries
// a GET transparently on a reused connection that breaks).
func newRetryTestClient(t *testing.T, base string, opts ...Option) (*Client, *sleepLog) {
	t.Helper()
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	all := append([]Option{WithBaseURL(base), WithHTTPClient(&http.Client{Transport: tr, Timeout: 20 * time.Second})}, opts...)
	c, err := NewClient(all...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	log := &sleepLog{}
	c.sleep = log.sleep
	c.jitter = func() float64 { return fixedJitter }
	return c, log
}

// seqTokenSource hands out toks[0] until Invalidate, then toks[1], and so on
// (the last one repeats). After an Invalidate it fails with errAfter when set.
type seqTokenSource struct {
	mu            sync.Mutex
	toks          []string
	i             int
	calls         int
	invalidations int
	errAfter      error
}

func (s *seqTokenSource) Token(ctx context.Context) (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.errAfter != nil && s.invalidations > 0 {
		return nil, s.errAfter
	}
	tok := s.toks[min(s.i, len(s.toks)-1)]
	return &oauth2.Token{AccessToken: tok, TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}, nil
}

func (s *seqTokenSource) Invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.invalidations++
	s.i++
}

func (s *seqTokenSource) counts() (calls, invalidations int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.invalidations
}

// exchangesJSON is a small valid answer of the exchanges endpoint.
const exchangesJSON = `[{"id":1,"code":"A","name":"NYSE American"},{"id":2,"code":"B","name":"Nasdaq BX"}]`

// ---- NewClient and request shape ----

func TestNewClientRequiresBaseURL(t *testing.T) {
	if _, err := NewClient(); err == nil {
		t.Fatal("NewClient() without WithBaseURL: no error")
	}
	if _, err := NewClient(WithMode(Delayed)); err == nil {
		t.Fatal("NewClient(WithMode) without WithBaseURL: no error")
	}
	if _, err := NewClient(WithBaseURL("")); err == nil {
		t.Fatal(`WithBaseURL(""): no error`)
	}
}

func TestNewClientBaseURLSchemes(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{"http://example.com", false},
		{"http://example.com:8080/prefix", false},
		{"ftp://example.com", false},
		{"example.com", false},
		{"https://example.com?x=1", false},
		{"https://user:pw@example.com", false},
		{"http://127.0.0.1:1234", true},
		{"http://localhost:1234", true},
		{"http://[::1]:1234", true},
		{"https://example.com", true},
		{"https://example.com/prefix/", true},
	} {
		c, err := NewClient(WithBaseURL(tc.raw))
		if tc.ok && err != nil {
			t.Errorf("WithBaseURL(%q): %v, want accepted", tc.raw, err)
		}
		if !tc.ok && err == nil {
			t.Errorf("WithBaseURL(%q) accepted (base %s), want refused", tc.raw, c.BaseURL())
		}
		if !tc.ok && err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("WithBaseURL(%q) error repeats the password: %v", tc.raw, err)
		}
	}
}

func TestNewClientDefaultsAndOptions(t *testing.T) {
	c, err := NewClient(WithBaseURL("https://example.com/"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode() != Live || c.Format() != JSON || c.BaseURL() != "https://example.com" {
		t.Errorf("defaults: mode %q format %v base %q", c.Mode(), c.Format(), c.BaseURL())
	}
	if c.retry != (RetryPolicy{}).withDefaults() {
		t.Errorf("default retry policy %+v", c.retry)
	}
	for _, m := range []Mode{"", "historical", "LIVE"} {
		if _, err := NewClient(WithBaseURL("https://example.com"), WithMode(m)); err == nil {
			t.Errorf("WithMode(%q) accepted", m)
		}
	}
	if _, err := NewClient(WithBaseURL("https://example.com"), WithFormat(Format(7))); err == nil {
		t.Error("WithFormat(7) accepted")
	}
	if _, err := NewClient(WithBaseURL("https://example.com"), WithHTTPClient(nil)); err == nil {
		t.Error("WithHTTPClient(nil) accepted")
	}
	c, err = NewClient(WithBaseURL("https://example.com"), WithMode(Delayed), WithFormat(XML),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode() != Delayed || c.Format() != XML {
		t.Errorf("options: mode %q format %v", c.Mode(), c.Format())
	}
	if want := (RetryPolicy{MaxAttempts: 2, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, MaxRetryAfter: 30 * time.Second}); c.retry != want {
		t.Errorf("WithRetryPolicy: %+v, want %+v", c.retry, want)
	}
}

func TestClientBasePathPrefixAndMode(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		io.WriteString(w, exchangesJSON)
	})
	c, _ := newRetryTestClient(t, srv.URL+"/prefix/sub/")
	if _, _, err := c.Exchanges(context.Background(), ReferenceParams{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Exchanges(context.Background(), ReferenceParams{Mode: Delayed}); err != nil {
		t.Fatal(err)
	}
	cd, _ := newRetryTestClient(t, srv.URL+"/prefix/sub", WithMode(Delayed))
	if _, _, err := cd.MessageConditions(context.Background(), ReferenceParams{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := cd.Calendar(context.Background(), CalendarParams{Symbols: []string{"AAPL", "MSFT"}, StartDate: "2024-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/prefix/sub/v1/live/reference/exchanges",
		"/prefix/sub/v1/delayed/reference/exchanges",
		"/prefix/sub/v1/delayed/reference/message-conditions",
		"/prefix/sub/v1/delayed/market/symbols/AAPL,MSFT/calendar",
	}
	got := srv.requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Path != want[i] || got[i].Method != http.MethodGet {
			t.Errorf("request %d: %s %s, want GET %s", i, got[i].Method, got[i].Path, want[i])
		}
	}
	if got[3].Query != "start_date=2024-01-02" {
		t.Errorf("calendar query %q", got[3].Query)
	}
}

func TestClientHeaders(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Header.Get("Accept") == "application/xml" {
			io.WriteString(w, `<?xml version="1.0"?><exchanges><exchange><id>1</id><code>A</code><name>NYSE American</name></exchange></exchanges>`)
			return
		}
		io.WriteString(w, exchangesJSON)
	})
	ts := &seqTokenSource{toks: []string{"header-test-token-1"}}
	c, _ := newRetryTestClient(t, srv.URL, WithTokenSource(ts))
	ex, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || len(ex) != 2 {
		t.Fatalf("JSON exchanges: %v %v", ex, err)
	}
	cx, _ := newRetryTestClient(t, srv.URL, WithFormat(XML), WithUserAgent("my-agent/1.2"))
	ex, _, err = cx.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || len(ex) != 1 || ex[0].Name != "NYSE American" {
		t.Fatalf("XML exchanges: %v %v", ex, err)
	}
	got := srv.requests()
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	h := got[0].Header
	if h.Get("Accept") != "application/json" {
		t.Errorf("JSON client Accept %q", h.Get("Accept"))
	}
	if h.Get("User-Agent") != "chainwatch/"+Version {
		t.Errorf("default User-Agent %q", h.Get("User-Agent"))
	}
	if h.Get("Authorization") != "Bearer header-test-token-1" {
		t.Errorf("Authorization %q", h.Get("Authorization"))
	}
	if h.Get("Content-Type") != "" {
		t.Errorf("GET sent Content-Type %q", h.Get("Content-Type"))
	}
	h = got[1].Header
	if h.Get("Accept") != "application/xml" {
		t.Errorf("XML client Accept %q", h.Get("Accept"))
	}
	if h.Get("User-Agent") != "my-agent/1.2" {
		t.Errorf("WithUserAgent: User-Agent %q", h.Get("User-Agent"))
	}
	if h.Get("Authorization") != "" {
		t.Errorf("client without token source sent Authorization %q", h.Get("Authorization"))
	}
}

func TestClientScanRequest(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		io.WriteString(w, `{"last_updated":"2025-03-10T10:00:00","inputs":[],"output":[{"symbol":"SPY","company_name":"SPDR","IV":22.5}]}`)
	})
	c, _ := newRetryTestClient(t, srv.URL)
	res, resp, err := c.CustomScan(context.Background(), ScanParams{Fields: []ScanFieldParam{{Formula: "iv30", DisplayName: "IV"}}, AllResults: true, Mode: Delayed})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Output) != 1 || res.Output[0].Symbol != "SPY" {
		t.Errorf("scan result %+v", res)
	}
	if resp.Cost != 250 || resp.Endpoint != EndpointScanAllResults {
		t.Errorf("scan cost %d endpoint %v, want 250 all results", resp.Cost, resp.Endpoint)
	}
	got := srv.requests()[0]
	if got.Method != http.MethodPost || got.Path != "/v1/delayed/allaccess/scans-and-alerts/custom-scanner" || got.Query != "all_results=true" {
		t.Errorf("scan request %s %s?%s", got.Method, got.Path, got.Query)
	}
	if got.Header.Get("Content-Type") != "application/json" || !strings.Contains(got.Body, `"formula":"iv30"`) {
		t.Errorf("scan body %q content type %q", got.Body, got.Header.Get("Content-Type"))
	}
}

func TestClientInvalidParamsSendNothing(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, "[]") })
	c, _ := newRetryTestClient(t, srv.URL)
	ctx := context.Background()
	if _, _, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{}); err == nil {
		t.Error("UnderlyingQuotes without symbols: no error")
	}
	if _, _, err := c.CustomScan(ctx, ScanParams{}); err == nil {
		t.Error("CustomScan without fields: no error")
	}
	if _, _, err := c.Exchanges(ctx, ReferenceParams{Mode: "weekly"}); err == nil {
		t.Error("Exchanges with mode weekly: no error")
	}
	if n := srv.count(); n != 0 {
		t.Errorf("%d requests sent for invalid params", n)
	}
}

func TestClientMaxResponseBytes(t *testing.T) {
	const limit = 64
	exact := "[" + strings.Repeat(" ", limit-2) + "]"
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Query().Get("case") {
		case "exact":
			io.WriteString(w, exact)
		case "chunked": // no Content-Length
			w.(http.Flusher).Flush()
			io.WriteString(w, "["+strings.Repeat(" ", 10*limit)+"]")
		default:
			io.WriteString(w, "["+strings.Repeat(" ", limit)+"]")
		}
	})
	c, _ := newRetryTestClient(t, srv.URL, WithMaxResponseBytes(limit))
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"exact", true}, {"over", false}, {"chunked", false}} {
		body, resp, err := c.do(context.Background(), call{method: http.MethodGet, path: "reference/exchanges",
			query: map[string][]string{"case": {tc.name}}, mode: Live, endpoint: EndpointExchanges})
		if tc.ok {
			if err != nil || string(body) != exact {
				t.Errorf("%s: body %q err %v", tc.name, body, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: body of %d bytes over the %d limit: no error", tc.name, len(body), limit)
		} else if !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: error %q does not say the body is too large", tc.name, err)
		}
		if resp == nil || resp.Attempts != 1 {
			t.Errorf("%s: response %+v, want one attempt", tc.name, resp)
		}
	}
}

func TestClientShortBody(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		hj, ok := w.(http.Hijacker)
		if !ok {
			t.Error("cannot hijack")
			return
		}
		conn, buf, err := hj.Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n%s", exchangesJSON[:40])
		buf.Flush()
	})
	c, log := newRetryTestClient(t, srv.URL)
	ex, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err == nil {
		t.Fatalf("body shorter than Content-Length: no error (%v)", ex)
	}
	var cut *CutOffError
	if !errors.As(err, &cut) || cut.Read != 40 || cut.Want != 100 || cut.Endpoint == "" {
		t.Errorf("error %v: want a CutOffError of 40 of 100 bytes", err)
	}
	if resp.Attempts != 1 || srv.count() != 1 || len(log.recorded()) != 0 {
		t.Errorf("attempts %d, requests %d, waits %v", resp.Attempts, srv.count(), log.recorded())
	}
}

func TestClientToday(t *testing.T) {
	// 2025-03-11 02:00 UTC is still 2025-03-10 in New York.
	now := time.Date(2025, 3, 11, 2, 0, 0, 0, time.UTC)
	c, err := NewClient(WithBaseURL("https://example.com"), WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Today(); got != NewDate(2025, 3, 10) {
		t.Errorf("Today() = %v, want 2025-03-10", got)
	}
}
