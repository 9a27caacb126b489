package model

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/sandbox"
	"chainwatch/theme"
)

// startTestSandbox starts the sandbox in process on 127.0.0.1 and returns
// the panes' common.Common with a client of it (real OAuth2 client credentials
// over loopback HTTP). The sandbox, the client and common.Common.Now share one
// stopped clock, Friday 2026-11-20 at 11:30 Eastern, so "live" is always
// mid-session and every answer is the same from run to run.
func startTestSandbox(t *testing.T) *common.Common {
	t.Helper()
	return startSandboxWith(t, sandbox.Config{})
}

// startSandboxWith is an in-process sandbox with cfg on 127.0.0.1, on the
// tests' stopped clock, and a client of it signed in with real OAuth2
// client credentials over loopback HTTP (opts added to the client's).
func startSandboxWith(t *testing.T, cfg sandbox.Config, opts ...api.Option) *common.Common {
	t.Helper()
	now := func() time.Time { return testNow }
	cfg.Now = now
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
	opts = append([]api.Option{api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now)}, opts...)
	client, err := api.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Client: client, Now: now}
}
