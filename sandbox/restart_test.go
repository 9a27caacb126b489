package sandbox_test

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// restartable starts a sandbox with cfg, and again on the same address.
type restartable struct {
	t   *testing.T
	cfg sandbox.Config
	s   *sandbox.Server
}

func (r *restartable) start() *sandbox.Server {
	r.t.Helper()
	s, err := sandbox.Start(r.cfg)
	if err != nil {
		r.t.Fatalf("start: %v", err)
	}
	r.cfg.Addr = net.JoinHostPort("127.0.0.1", s.BaseURL[len("http://127.0.0.1:"):])
	r.s = s
	r.t.Cleanup(func() { s.Close() })
	return s
}

func (r *restartable) restart() *sandbox.Server {
	r.t.Helper()
	if err := r.s.Close(); err != nil {
		r.t.Fatalf("close: %v", err)
	}
	return r.start()
}

// exchanges is a free request through c.
func exchanges(t *testing.T, c *api.Client) error {
	_, _, err := c.Exchanges(t.Context(), api.ReferenceParams{})
	return err
}

// TestRestartWithFixedSecret: with --client-secret a running client
// carries on through a restart on the same port: its old token is refused
// once, and a new one comes with the same secret.
func TestRestartWithFixedSecret(t *testing.T) {
	t.Parallel()
	const secret = "a-fixed-demo-secret-0123"
	r := &restartable{t: t, cfg: sandbox.Config{DemoSecret: secret, PerSecond: -1}}
	s := r.start()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: s.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: secret})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(api.WithBaseURL(s.BaseURL), api.WithTokenSource(ts))
	if err != nil {
		t.Fatal(err)
	}
	if err := exchanges(t, c); err != nil {
		t.Fatalf("before the restart: %v", err)
	}
	if s2 := r.restart(); s2.DemoSecret != secret || s2.BaseURL != s.BaseURL {
		t.Fatalf("restarted at %s with another secret", s2.BaseURL)
	}
	if err := exchanges(t, c); err != nil {
		t.Fatalf("after the restart the client did not recover: %v", err)
	}
	if _, err := sandbox.Start(sandbox.Config{DemoSecret: "short"}); err == nil {
		t.Error("a 5-character secret was accepted")
	}
}

// TestRestartWithState: --state keeps keys, secret, grants and tokens: an
// access token and a refresh token from before the restart still work,
// the state file is private, and a rotated refresh token is still known
// as one.
func TestRestartWithState(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	r := &restartable{t: t, cfg: sandbox.Config{StateDir: dir, PerSecond: -1}}
	s := r.start()
	e := newClientEnv(t)
	e.s = s
	tr := e.tr
	t.Cleanup(tr.CloseIdleConnections)
	user := e.login(e.nativeConfig(redirectV4, "offline_access"))
	cc := e.ccToken(t)
	fi, err := os.Stat(filepath.Join(dir, "sandbox-state.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", fi, err)
	}

	tr.CloseIdleConnections()
	s2 := r.restart()
	e.s = s2
	if s2.DemoSecret != s.DemoSecret {
		t.Error("the demo secret changed across the restart")
	}
	e.wantLive(cc.AccessToken)
	tok, err := e.refresh(e.nativeConfig(redirectV4, "offline_access"), user.RefreshToken)
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("refresh after the restart: %v", err)
	}
	e.wantLive(tok.AccessToken)

	// The rotation is kept too: the refresh token used above, presented
	// after another restart, is a reuse and ends the login.
	tr.CloseIdleConnections()
	e.s = r.restart()
	got, err := e.refresh(e.nativeConfig(redirectV4, "offline_access"), user.RefreshToken)
	if got != nil {
		t.Fatal("a rotated refresh token worked after a restart")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	e.wantDead(tok.AccessToken)
}
