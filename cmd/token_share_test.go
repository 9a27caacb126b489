package cmd

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// loginTo signs in to s with `chainwatch login` (the browser played by
// sandbox.Browse) and returns the environment that uses the login.
func loginTo(t *testing.T, s *sandbox.Server) map[string]string {
	t.Helper()
	return loginAt(t, s.AuthURL, s.BaseURL)
}

// loginAt is loginTo for a sandbox known by its addresses.
func loginAt(t *testing.T, authURL, baseURL string) map[string]string {
	t.Helper()
	env := homeEnv(t)
	env[envTokenFile] = filepath.Join(t.TempDir(), "token.json")
	browser := func(u string) error {
		go func() {
			landed, err := sandbox.Browse(context.Background(), u, sandbox.DemoUser, sandbox.DemoPassword, true)
			if err != nil {
				t.Error(err)
				return
			}
			if resp, err := http.Get(landed.String()); err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	out, done := runLogin(t, cli{env: env, browser: browser}, "--auth-url", authURL, "--base-url", baseURL)
	if err := wait(t, done); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	return env
}

// refreshWorks reports whether the service still takes refresh, without
// spending it for the others: a refresh rotates it, so the new token is
// saved back.
func refreshWorks(t *testing.T, s *sandbox.Server, path string) error {
	t.Helper()
	store := api.FileTokenStore{Path: path}
	tok, _, err := store.LoadLogin()
	if err != nil {
		return err
	}
	cfg := api.AuthConfig{AuthURL: s.AuthURL, ClientID: sandbox.NativeClientID}
	_, err = cfg.NewRefreshingSource(&oauth2.Token{RefreshToken: tok.RefreshToken}, store).Token(t.Context())
	return err
}

// TestLoginWithShortLivedTokensKeepsTheLiveRefreshToken: with
// `sandbox --token-ttl 5s` login's follow-up call (userinfo) refreshes at
// once and the refresh token rotates; the login kept the dead one, so
// every login was broken at once. It keeps the one it got last.
func TestLoginWithShortLivedTokensKeepsTheLiveRefreshToken(t *testing.T) {
	s, err := sandbox.Start(sandbox.Config{AccessTokenTTL: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	env := loginTo(t, s)
	if err := refreshWorks(t, s, env[envTokenFile]); err != nil {
		t.Fatalf("the stored login is dead after login: %v", err)
	}
	if out, errOut, err := (cli{env: env}).run(t, "quotes", "SPY", "--json=symbol"); err != nil || !strings.Contains(out, `"SPY"`) {
		t.Fatalf("quotes after login: %v\n%s%s", err, out, errOut)
	}
}

// TestProcessesShareOneTokenFile: five commands started together on a
// login whose access token has expired all refresh through one lock:
// one rotates the refresh token, the others wait and use what it saved.
// (Before, 4 of 5 `chain SPY` failed with invalid_grant.) Each command
// has its own store and lock descriptor, as separate processes do. The
// sandbox ends a login whose rotated refresh token is used again (RFC
// 9700), so the refresh that works at the end shows none was.
func TestProcessesShareOneTokenFile(t *testing.T) {
	s := startSandbox(t)
	env := loginTo(t, s)
	store := api.FileTokenStore{Path: env[envTokenFile]}
	tok, svc, err := store.LoadLogin()
	if err != nil {
		t.Fatal(err)
	}
	tok.Expiry = time.Now().Add(-time.Minute) // expired: every command must refresh first
	if err := store.SaveLogin(tok, svc); err != nil {
		t.Fatal(err)
	}
	const n = 5
	start := make(chan struct{})
	errs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out, errOut, err := (cli{env: env}).run(t, "quotes", "SPY", "--json=symbol")
			if err != nil || !strings.Contains(out, `"SPY"`) {
				errs[i] = fmt.Sprintf("%v: %s%s", err, out, errOut)
			}
		}()
	}
	close(start)
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("command %d of %d failed: %s", i+1, n, e)
		}
	}
	if err := refreshWorks(t, s, env[envTokenFile]); err != nil {
		t.Fatalf("the stored login is dead after the commands: %v", err)
	}
}

// TestCopiedTokenFileReuseEndsTheLogin: a copy of the token file (another
// machine, a backup) shares no lock with the original. Once one of them
// has refreshed, the other's refresh presents the rotated token: the
// service ends the whole login (RFC 9700), and both say to log in again.
func TestCopiedTokenFileReuseEndsTheLogin(t *testing.T) {
	s := startSandbox(t)
	env := loginTo(t, s)
	store := api.FileTokenStore{Path: env[envTokenFile]}
	tok, svc, err := store.LoadLogin()
	if err != nil {
		t.Fatal(err)
	}
	tok.Expiry = time.Now().Add(-time.Minute) // each must refresh first
	copied := maps.Clone(env)
	copied[envTokenFile] = filepath.Join(t.TempDir(), "copy.json")
	for _, path := range []string{env[envTokenFile], copied[envTokenFile]} {
		if err := (api.FileTokenStore{Path: path}).SaveLogin(tok, svc); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, err := (cli{env: env}).run(t, "quotes", "SPY", "--json=symbol"); err != nil || !strings.Contains(out, `"SPY"`) {
		t.Fatalf("the original's first refresh: %v\n%s%s", err, out, errOut)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
	}{{"the copy", copied}, {"the original, after the copy's reuse", env}} {
		_, errOut, err := (cli{env: c.env}).run(t, "status")
		if err == nil || !strings.Contains(err.Error()+errOut, "run `chainwatch login`") || strings.Contains(err.Error()+errOut, tok.RefreshToken) {
			t.Errorf("%s: %v\n%s", c.name, err, errOut)
		}
	}
}

// TestLoginNoBrowserAtEOFExits: `login --no-browser` with stdin at its
// end waited ten minutes for a paste that could not come; it exits 2 at
// once with what to do.
func TestLoginNoBrowserAtEOFExits(t *testing.T) {
	s := startSandbox(t)
	env := homeEnv(t)
	env[envTokenFile] = filepath.Join(t.TempDir(), "token.json")
	var out, errOut syncBuffer
	code := Execute(cli{env: env, in: strings.NewReader("")}.deps(&out, &errOut),
		[]string{"login", "--no-browser", "--auth-url", s.AuthURL, "--base-url", s.BaseURL})
	if code != ExitInput || !strings.Contains(errOut.String(), "the input ended before the address was pasted") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestStatusRenewsARefusedAccessToken: an access token the server no
// longer takes (expired by its clock, say) while the file says it is
// valid: status renewed nothing and said "run chainwatch login"; it
// renews it once with the refresh token and signs in.
func TestStatusRenewsARefusedAccessToken(t *testing.T) {
	s := startSandbox(t)
	env := loginTo(t, s)
	store := api.FileTokenStore{Path: env[envTokenFile]}
	tok, svc, err := store.LoadLogin()
	if err != nil {
		t.Fatal(err)
	}
	tok.AccessToken = "an-access-token-the-server-does-not-know"
	tok.Expiry = time.Now().Add(time.Hour) // valid by the file
	if err := store.SaveLogin(tok, svc); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := (cli{env: env}).run(t, "status")
	if err != nil || !strings.Contains(out, "signed in as: demo") {
		t.Fatalf("status: %v\n%s%s", err, out, errOut)
	}
	if err := refreshWorks(t, s, env[envTokenFile]); err != nil {
		t.Fatalf("the renewed login was not kept: %v", err)
	}
	// A refresh token the server refused says what to do, from a command
	// as on the screen (api.Describe).
	tok.RefreshToken, tok.Expiry = "a-dead-refresh-token", time.Now().Add(-time.Minute)
	if err := store.SaveLogin(tok, svc); err != nil {
		t.Fatal(err)
	}
	_, errOut, err = (cli{env: env}).run(t, "quotes", "SPY")
	if err == nil || !strings.Contains(errOut, "run `chainwatch login`") || strings.Contains(errOut, "a-dead-refresh-token") {
		t.Fatalf("quotes with a dead login: %v\n%s", err, errOut)
	}
}
