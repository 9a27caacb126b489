package sandbox_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

// Redirect URIs registered for both clients.
const (
	redirectV4    = "http://127.0.0.1/callback"
	redirectV6    = "http://[::1]/callback"
	redirectLocal = "http://localhost/callback"
)

// fakeClock is the sandbox clock of a test: it only moves on Advance. It
// starts at the real time; every time in a token follows it, however far
// it is moved (TestTokenTimesOnSandboxClock).
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// env is one test's sandbox with its clock, its log and the secrets the
// test has seen. On cleanup it closes the sandbox and then checks that no
// secret reached the log.
type env struct {
	t      *testing.T
	s      *sandbox.Server
	clock  *fakeClock
	logs   *syncBuffer
	client *http.Client // never follows redirects
	tr     *http.Transport

	mu      sync.Mutex
	secrets []string
}

// newClientEnv is an env's client side: its own transport, a client that
// never follows redirects, a fake clock and a log buffer; the sandbox is
// the caller's to set.
func newClientEnv(t *testing.T) *env {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &env{
		t:     t,
		clock: &fakeClock{now: time.Now()},
		logs:  &syncBuffer{},
		tr:    tr,
		client: &http.Client{
			Transport:     tr,
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// newEnv starts a sandbox for t, with opts applied to its Config. Every
// test uses it, so every test gets the secrecy check.
func newEnv(t *testing.T, opts ...func(*sandbox.Config)) *env {
	t.Helper()
	e := newClientEnv(t)
	tr := e.tr
	cfg := sandbox.Config{
		Logger: slog.New(slog.NewTextHandler(e.logs, nil)),
		Now:    e.clock.Now,
	}
	for _, o := range opts {
		o(&cfg)
	}
	s, err := sandbox.Start(cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	e.s = s
	e.secret(s.DemoSecret)
	// Cleanups run last-in first-out: Close first, so every request has
	// been logged, then the check.
	t.Cleanup(e.checkLogs)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	// Before Close: the transport may hold a connection it dialed for a
	// request that another connection served. The server counts such a
	// connection, which never sent a request, as busy for five seconds.
	t.Cleanup(tr.CloseIdleConnections)
	return e
}

// secret records values that must never be logged or shown in an error.
func (e *env) secret(vals ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, v := range vals {
		if v != "" {
			e.secrets = append(e.secrets, v)
		}
	}
}

// secretToken records every secret of a token response.
func (e *env) secretToken(tok *oauth2.Token) {
	if tok == nil {
		return
	}
	e.secret(tok.AccessToken, tok.RefreshToken)
	if id, ok := tok.Extra("id_token").(string); ok {
		e.secret(id)
	}
}

// noSecrets fails the test if text holds a recorded secret.
func (e *env) noSecrets(what, text string) {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.secrets {
		if strings.Contains(text, s) {
			e.t.Errorf("%s holds a secret (%.8s...)", what, s)
		}
	}
}

func (e *env) checkLogs() {
	e.t.Helper()
	logs := e.logs.String()
	if !strings.Contains(logs, "sandbox listening") {
		e.t.Errorf("the sandbox log is empty or not ours: %q", logs)
	}
	e.noSecrets("sandbox log", logs)
}

// do sends a request without following redirects and reads the body.
func (e *env) do(req *http.Request) (*http.Response, string) {
	e.t.Helper()
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		e.t.Fatalf("%s %s: read body: %v", req.Method, req.URL.Path, err)
	}
	return resp, string(body)
}

func (e *env) get(rawURL string, header http.Header) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequestWithContext(e.t.Context(), http.MethodGet, rawURL, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	return e.do(req)
}

func (e *env) postForm(rawURL string, form url.Values, header http.Header) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequestWithContext(e.t.Context(), http.MethodPost, rawURL, strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	return e.do(req)
}

func bearerHeader(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}

// jwtPart decodes one JSON part of a compact JWT without checking it.
func jwtPart(t *testing.T, token string, i int) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token is not a compact JWS: %d parts", len(parts))
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[i])
	if err != nil {
		t.Fatalf("token part %d: %v", i, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("token part %d: %v", i, err)
	}
	return m
}

func jwtHeader(t *testing.T, token string) map[string]any { t.Helper(); return jwtPart(t, token, 0) }
func jwtClaims(t *testing.T, token string) map[string]any { t.Helper(); return jwtPart(t, token, 1) }
