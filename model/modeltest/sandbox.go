// Package modeltest holds what the tests of the TUI and of the headless
// packages share: an in-process sandbox on 127.0.0.1 on a stopped clock,
// signed in with real OAuth2 client credentials over loopback HTTP, and
// one simulated market for the scanner's tests. It is imported by tests
// only.
package modeltest

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// Now is the tests' clock: Friday 2026-11-20, 11:30 Eastern, so "live" is
// always mid-session and every answer is the same from run to run.
var Now = time.Date(2026, 11, 20, 11, 30, 0, 0, api.Eastern)

// Clock is Now as the clients and models take it.
func Clock() time.Time { return Now }

// StartSandbox starts the sandbox in process on 127.0.0.1 with cfg and
// returns a client of it (opts added to the client's). Both run on
// cfg.Now, by default the stopped clock.
func StartSandbox(t testing.TB, cfg sandbox.Config, opts ...api.Option) *api.Client {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = Clock
	}
	if cfg.PerSecond == 0 {
		cfg.PerSecond = -1 // a stopped clock never refills a rate limiter
	}
	sb, err := sandbox.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret})
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]api.Option{api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(cfg.Now)}, opts...)
	client, err := api.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return client
}
