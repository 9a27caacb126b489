package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The shared helpers of the endpoint and paging tests, after go-github: a
// test server whose mux is mounted under a path prefix, and a client aimed
// at it with a fixed clock, a static token and no real sleeping.

const (
	// apiPrefix is the path the mux is mounted under; the client's base URL
	// ends with it, so every request path proves the prefix is kept.
	apiPrefix = "/api-prefix"
	// testToken is the bearer token the static token source hands out.
	testToken = "test-access-token"
)

// testNow is the fixed clock: 2026-11-20 14:00 Eastern, a trading Friday,
// so 2026-11-20 is live and 2026-11-19 historical.
var testNow = time.Date(2026, 11, 20, 14, 0, 0, 0, Eastern)

// testEnv is everything setupEnv builds.
type testEnv struct {
	client    *Client
	mux       *http.ServeMux
	serverURL string
	tokens    *seqTokenSource // always testToken; counts Invalidate
	sleeps    *sleepLog
}

// setup returns a client, the mux its requests reach (paths relative to the
// prefix) and the server's URL. opts are applied after the defaults.
func setup(t *testing.T, opts ...Option) (client *Client, mux *http.ServeMux, serverURL string) {
	t.Helper()
	env := setupEnv(t, opts...)
	return env.client, env.mux, env.serverURL
}

// setupEnv is setup with access to the token source and sleep recorder.
func setupEnv(t *testing.T, opts ...Option) *testEnv {
	t.Helper()
	mux := http.NewServeMux()
	// Whatever no test registered fails the test: in particular a request
	// that should never have been sent.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.Error(w, "unexpected request", http.StatusNotFound)
	})
	outer := http.NewServeMux()
	outer.Handle(apiPrefix+"/", http.StripPrefix(apiPrefix, mux))
	server := httptest.NewServer(outer)
	t.Cleanup(server.Close)

	env := &testEnv{mux: mux, serverURL: server.URL, tokens: &seqTokenSource{toks: []string{testToken}}, sleeps: &sleepLog{}}
	all := append([]Option{
		WithBaseURL(server.URL + apiPrefix),
		WithHTTPClient(server.Client()),
		WithClock(func() time.Time { return testNow }),
		WithTokenSource(env.tokens),
	}, opts...)
	c, err := NewClient(all...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	c.sleep = env.sleeps.sleep
	c.jitter = func() float64 { return 0 }
	env.client = c
	return env
}

// fixture reads api/testdata/name.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}

// fixtureName is the fixture of an endpoint in format f.
func fixtureName(endpoint string, f Format) string { return endpoint + "." + f.String() }

// testRequest checks a request's method, path (relative to the prefix),
// exact query, bearer token and Accept header. It may run in the server's
// goroutine, so it reports with Errorf.
func testRequest(t *testing.T, r *http.Request, method, path string, query url.Values, f Format) {
	t.Helper()
	if r.Method != method {
		t.Errorf("method = %s, want %s", r.Method, method)
	}
	if r.URL.Path != path {
		t.Errorf("path = %s, want %s", r.URL.Path, path)
	}
	if query == nil {
		query = url.Values{}
	}
	if got := r.URL.Query(); !reflect.DeepEqual(got, query) {
		t.Errorf("query = %v, want %v", got, query)
	}
	if got, want := r.Header.Get("Authorization"), "Bearer "+testToken; got != want {
		t.Errorf("Authorization = %q, want %q", got, want)
	}
	if got, want := r.Header.Get("Accept"), f.contentType(); got != want {
		t.Errorf("Accept = %q, want %q", got, want)
	}
}

// serveBody answers with a fixture body in format f and the points headers.
func serveBody(w http.ResponseWriter, body []byte, f Format, used, left int) {
	w.Header().Set("Content-Type", f.contentType())
	w.Header().Set("X-Monthly-Points-Used", fmt.Sprint(used))
	w.Header().Set("X-Monthly-Points-Left", fmt.Sprint(left))
	_, _ = w.Write(body)
}

// fieldDiffs lists the differences between want and got field by field, with the
// path of each ("[2].Bid.Valid: want false, got true"); nil when equal.
func fieldDiffs(want, got any) []string {
	var out []string
	diffValue(&out, "", reflect.ValueOf(want), reflect.ValueOf(got))
	return out
}

func diffValue(out *[]string, path string, w, g reflect.Value) {
	if len(*out) >= 20 {
		return
	}
	if !w.IsValid() || !g.IsValid() || w.Type() != g.Type() {
		if w.IsValid() || g.IsValid() {
			*out = append(*out, fmt.Sprintf("%s: want %v, got %v", path, w, g))
		}
		return
	}
	if !w.CanInterface() { // unexported: none in the response types
		return
	}
	switch w.Kind() {
	case reflect.Struct:
		for i := range w.NumField() {
			diffValue(out, path+"."+w.Type().Field(i).Name, w.Field(i), g.Field(i))
		}
		return
	case reflect.Slice:
		if w.Len() != g.Len() {
			*out = append(*out, fmt.Sprintf("%s: want %d elements, got %d", path, w.Len(), g.Len()))
			return
		}
		for i := range w.Len() {
			diffValue(out, fmt.Sprintf("%s[%d]", path, i), w.Index(i), g.Index(i))
		}
		return
	case reflect.Pointer, reflect.Interface:
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				*out = append(*out, fmt.Sprintf("%s: want %v, got %v", path, w, g))
			}
			return
		}
		diffValue(out, path, w.Elem(), g.Elem())
		return
	}
	if !reflect.DeepEqual(w.Interface(), g.Interface()) {
		*out = append(*out, fmt.Sprintf("%s: want %#v, got %#v", path, w.Interface(), g.Interface()))
	}
}

// checkDiff fails the test with every difference between want and got.
func checkDiff(t *testing.T, what string, want, got any) {
	t.Helper()
	for _, d := range fieldDiffs(want, got) {
		t.Errorf("%s%s", what, d)
	}
}

// wireFormats are the two wire formats every endpoint is tested in.
var wireFormats = []Format{JSON, XML}

// roundTrip sends one request with a client of format f against a handler
// that checks it and answers with the endpoint's fixture in that format.
func roundTrip[T any](t *testing.T, f Format, base, method, path string, query url.Values,
	call func(*Client) (T, *Response, error), opts ...Option) (T, *Response) {
	t.Helper()
	c, mux, _ := setup(t, append([]Option{WithFormat(f)}, opts...)...)
	var calls atomic.Int32
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		testRequest(t, r, method, path, query, f)
		serveBody(w, fixture(t, fixtureName(base, f)), f, 1004, 1248996)
	})
	got, resp, err := call(c)
	if err != nil {
		t.Fatalf("%s: %v", base, err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if resp.StatusCode != http.StatusOK || resp.Attempts != 1 {
		t.Errorf("status %d after %d attempts, want 200 after 1", resp.StatusCode, resp.Attempts)
	}
	if resp.PointsUsed != Some[int64](1004) || resp.PointsLeft != Some[int64](1248996) {
		t.Errorf("points used/left = %v/%v, want 1004/1248996", resp.PointsUsed, resp.PointsLeft)
	}
	return got, resp
}

// bothFormats runs roundTrip in JSON and XML, checks that the two fixtures
// decode to equal values and returns them indexed by format.
func bothFormats[T any](t *testing.T, base, method, path string, query url.Values,
	call func(*Client) (T, *Response, error)) [2]T {
	t.Helper()
	var out [2]T
	for _, f := range wireFormats {
		t.Run(f.String(), func(t *testing.T) {
			out[f], _ = roundTrip(t, f, base, method, path, query, call)
		})
	}
	checkDiff(t, "XML differs from JSON at ", out[JSON], out[XML])
	return out
}

// TestEndpointSetupHelpers checks the fakes themselves: a 401 invalidates
// the static token once, and a 503's Retry-After is recorded, not slept.
func TestEndpointSetupHelpers(t *testing.T) {
	env := setupEnv(t)
	var calls atomic.Int32
	env.mux.HandleFunc("/v1/live/reference/exchanges", func(w http.ResponseWriter, r *http.Request) {
		testRequest(t, r, "GET", "/v1/live/reference/exchanges", nil, JSON)
		switch calls.Add(1) {
		case 1:
			w.WriteHeader(http.StatusUnauthorized)
		case 2:
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			serveBody(w, fixture(t, "exchanges.json"), JSON, 0, 0)
		}
	})
	ex, resp, err := env.client.Exchanges(t.Context(), ReferenceParams{})
	if err != nil || len(ex) != 3 || resp.Attempts != 3 {
		t.Fatalf("exchanges %v after %d attempts, error %v", ex, resp.Attempts, err)
	}
	if _, n := env.tokens.counts(); n != 1 {
		t.Errorf("%d invalidations, want 1", n)
	}
	if got, want := env.sleeps.recorded(), []time.Duration{2 * time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("sleeps %v, want %v", got, want)
	}
	if !strings.HasPrefix(env.serverURL, "http://127.0.0.1:") || env.client.BaseURL() != env.serverURL+apiPrefix {
		t.Errorf("server %s, base URL %s", env.serverURL, env.client.BaseURL())
	}
}
