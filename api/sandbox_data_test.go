package api_test

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// These tests drive every data endpoint of the sandbox through the client,
// over loopback HTTP with real client-credentials tokens, in both formats.
// The sandbox and the client share one fixed clock, Friday 2026-11-20 at
// 11:30 Eastern, so that "live" is mid-session whenever the tests run.

var (
	sessionNow = time.Date(2026, 11, 20, 11, 30, 0, 0, api.Eastern)
	today      = "2026-11-20"
	yesterday  = "2026-11-19"
)

// dataSandbox is a running sandbox and a client-credentials token source
// for its demo client.
type dataSandbox struct {
	srv    *sandbox.Server
	tokens api.TokenSource
	now    time.Time
}

func startDataSandbox(t *testing.T, cfg sandbox.Config) *dataSandbox {
	t.Helper()
	now := sessionNow
	if cfg.PerSecond == 0 {
		cfg.PerSecond = -1 // a stopped clock never refills a rate limiter
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return now }
	} else {
		now = cfg.Now()
	}
	s, err := sandbox.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: s.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: s.DemoSecret})
	if err != nil {
		t.Fatal(err)
	}
	return &dataSandbox{srv: s, tokens: ts, now: now}
}

// client returns a client of the sandbox in format f and mode m.
func (d *dataSandbox) client(t *testing.T, f api.Format, m api.Mode) *api.Client {
	t.Helper()
	c, err := api.NewClient(
		api.WithBaseURL(d.srv.BaseURL),
		api.WithTokenSource(d.tokens),
		api.WithFormat(f),
		api.WithMode(m),
		api.WithClock(func() time.Time { return d.now }),
		api.WithRetryPolicy(api.RetryPolicy{MaxAttempts: 1}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// raw GETs path (under {base_url}/v1/) with a bearer token and returns the
// status and body, for the byte-level checks the client hides.
func (d *dataSandbox) raw(t *testing.T, path, accept string) (int, []byte) {
	t.Helper()
	tok, err := d.tokens.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, d.srv.BaseURL+"/v1/"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// sameInBothFormats calls fetch with a JSON and an XML client and requires
// the decoded answers to be equal: the two encoders say the same thing.
func sameInBothFormats[T any](t *testing.T, d *dataSandbox, m api.Mode, name string, fetch func(*api.Client) (T, *api.Response, error)) T {
	t.Helper()
	j, jr, err := fetch(d.client(t, api.JSON, m))
	if err != nil {
		t.Fatalf("%s %s JSON: %v", name, m, err)
	}
	x, xr, err := fetch(d.client(t, api.XML, m))
	if err != nil {
		t.Fatalf("%s %s XML: %v", name, m, err)
	}
	if !reflect.DeepEqual(j, x) {
		t.Errorf("%s %s: JSON and XML answers differ", name, m)
	}
	for _, r := range []*api.Response{jr, xr} {
		if !r.PointsUsed.Valid || !r.PointsLeft.Valid {
			t.Errorf("%s %s: no points headers", name, m)
		}
	}
	return j
}
