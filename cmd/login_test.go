package cmd

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/sandbox"
)

func startSandbox(t *testing.T) *sandbox.Server {
	t.Helper()
	s, err := sandbox.Start(sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// startSandboxAt starts a sandbox whose clock starts at now: a client
// takes "today" from the service's Date header, so a test with a fixed
// day needs a service on that day.
func startSandboxAt(t *testing.T, now time.Time) *sandbox.Server {
	t.Helper()
	s, err := sandbox.Start(sandbox.Config{Now: sandbox.Clock(now, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var authorizeURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/auth/connect/authorize\?\S+`)

// runLogin runs `chainwatch login` in the background and returns its output
// buffer and a channel with its result.
func runLogin(t *testing.T, c cli, args ...string) (*syncBuffer, <-chan error) {
	t.Helper()
	c.out = &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := c.run(t, append([]string{"login"}, args...)...)
		done <- err
	}()
	return c.out, done
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("login did not finish")
		return nil
	}
}

// TestLoginNoBrowserThenStatusThenLogout is the SSH story: the browser is
// on another machine, so it cannot reach our loopback listener; the user
// pastes the address it landed on. Then `status` uses the stored login
// (what the watch screen does), and `logout` revokes it at the server.
func TestLoginNoBrowserThenStatusThenLogout(t *testing.T) {
	s := startSandbox(t)
	tokenFile := filepath.Join(t.TempDir(), "token.json")
	env := map[string]string{envTokenFile: tokenFile}
	pr, pw := io.Pipe()
	defer pw.Close()
	browserOpened := false
	out, done := runLogin(t, cli{env: env, in: pr, browser: func(string) error { browserOpened = true; return nil }},
		"--no-browser", "--auth-url", s.AuthURL, "--base-url", s.BaseURL)

	waitFor(t, "the sign-in address", func() bool { return authorizeURL.MatchString(out.String()) })
	landed, err := sandbox.Browse(t.Context(), authorizeURL.FindString(out.String()), sandbox.DemoUser, sandbox.DemoPassword, true)
	if err != nil {
		t.Fatal(err)
	}
	if landed.Query().Get("code") == "" || landed.Hostname() != "127.0.0.1" {
		t.Fatalf("the browser landed on %v", landed.Redacted())
	}
	io.WriteString(pw, "not an address\n")
	waitFor(t, "the request to paste again", func() bool { return strings.Contains(out.String(), "paste the whole address") })
	io.WriteString(pw, "  "+landed.String()+"  \n")
	if err := wait(t, done); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	if browserOpened {
		t.Fatal("--no-browser opened a browser")
	}
	if !strings.Contains(out.String(), "Logged in to "+s.AuthURL+" as demo.") {
		t.Fatalf("login output:\n%s", out)
	}
	fi, err := os.Stat(tokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	tok, svc, err := api.FileTokenStore{Path: tokenFile}.LoadLogin()
	if err != nil || tok.RefreshToken == "" || svc.AuthURL != s.AuthURL || svc.BaseURL != s.BaseURL || svc.ClientID != sandbox.NativeClientID {
		t.Fatalf("stored login: %+v, %v", svc, err)
	}
	if strings.Contains(out.String(), tok.AccessToken) || strings.Contains(out.String(), tok.RefreshToken) {
		t.Fatal("login printed a token")
	}

	status, _, err := cli{env: env}.run(t, "status")
	if err != nil || !strings.Contains(status, "credentials: stored login") || !strings.Contains(status, "signed in as: demo") ||
		!strings.Contains(status, "base_url:    "+s.BaseURL) {
		t.Fatalf("status: %v\n%s", err, status)
	}

	bye, errOut, err := cli{env: env}.run(t, "logout")
	if err != nil || errOut != "" || !strings.Contains(bye, "Logged out") {
		t.Fatalf("logout: %v\n%s\n%s", err, bye, errOut)
	}
	if _, err := os.Stat(tokenFile); !os.IsNotExist(err) {
		t.Fatal("logout left the token file")
	}
	// Revoked at the server: neither the refresh token nor the access token works.
	cfg := api.AuthConfig{AuthURL: s.AuthURL, ClientID: sandbox.NativeClientID}
	if _, err := cfg.NewRefreshingSource(&oauth2.Token{RefreshToken: tok.RefreshToken}, nil).Token(t.Context()); err == nil {
		t.Fatal("the refresh token still works after logout")
	}
	req, _ := http.NewRequest(http.MethodGet, s.BaseURL+"/v1/live/reference/exchanges", nil)
	tok.SetAuthHeader(req)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the access token after logout: %v %v", resp.Status, err)
	}

	again, _, err := cli{env: env}.run(t, "logout")
	if err != nil || !strings.Contains(again, "Not logged in") {
		t.Fatalf("second logout: %v %q", err, again)
	}
}

// TestLoginWithBrowser is the desk story: the browser opens on this
// machine and comes back to the loopback listener by itself.
func TestLoginWithBrowser(t *testing.T) {
	s := startSandbox(t)
	env := map[string]string{envTokenFile: filepath.Join(t.TempDir(), "token.json"), envAuthURL: s.AuthURL, envBaseURL: s.BaseURL}
	browser := func(u string) error {
		go func() { // a browser opens asynchronously
			landed, err := sandbox.Browse(context.Background(), u, sandbox.DemoUser, sandbox.DemoPassword, true)
			if err != nil {
				t.Error(err)
				return
			}
			resp, err := http.Get(landed.String()) // back to chainwatch's listener
			if err != nil {
				t.Error(err)
				return
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(page), "Signed in") {
				t.Errorf("callback page: %d %s", resp.StatusCode, page)
			}
		}()
		return nil
	}
	out, done := runLogin(t, cli{env: env, browser: browser})
	if err := wait(t, done); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "Opened your browser") {
		t.Fatalf("login output:\n%s", out)
	}
	status, _, err := cli{env: map[string]string{envTokenFile: env[envTokenFile]}}.run(t, "status")
	if err != nil || !strings.Contains(status, "signed in as: demo") {
		t.Fatalf("status: %v\n%s", err, status)
	}
}

func TestLoginDenied(t *testing.T) {
	s := startSandbox(t)
	tokenFile := filepath.Join(t.TempDir(), "token.json")
	pr, pw := io.Pipe()
	defer pw.Close()
	out, done := runLogin(t, cli{env: map[string]string{envTokenFile: tokenFile}, in: pr}, "--no-browser", "--auth-url", s.AuthURL)
	waitFor(t, "the sign-in address", func() bool { return authorizeURL.MatchString(out.String()) })
	landed, err := sandbox.Browse(t.Context(), authorizeURL.FindString(out.String()), sandbox.DemoUser, "", false)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(pw, landed.String()+"\n")
	err = wait(t, done)
	if err == nil || !strings.Contains(err.Error(), "denied") {
		t.Fatalf("denied login gave %v", err)
	}
	if _, err := os.Stat(tokenFile); !os.IsNotExist(err) {
		t.Fatal("a denied login saved a token file")
	}
}

func TestLoginNeedsAuthURL(t *testing.T) {
	_, _, err := cli{}.run(t, "login", "--no-browser")
	if err == nil || !strings.Contains(err.Error(), "--auth-url") || !strings.Contains(err.Error(), "chainwatch sandbox") {
		t.Fatalf("login without a service: %v", err)
	}
}

func TestStatusWithoutCredentialsUsesEmbeddedSandbox(t *testing.T) {
	env := map[string]string{envTokenFile: filepath.Join(t.TempDir(), "none.json")}
	out, _, err := cli{env: env}.run(t, "status")
	if err != nil || !strings.Contains(out, "credentials: embedded sandbox") || !strings.Contains(out, "signed in as: "+sandbox.DemoClientID) {
		t.Fatalf("status: %v\n%s", err, out)
	}
}

func TestStatusClientCredentialsFromEnvironment(t *testing.T) {
	s := startSandbox(t)
	env := map[string]string{
		envAuthURL: s.AuthURL, envBaseURL: s.BaseURL, envClientID: sandbox.DemoClientID, envClientSecret: s.DemoSecret,
		envTokenFile: filepath.Join(t.TempDir(), "none.json"),
	}
	out, errOut, err := cli{env: env}.run(t, "status")
	if err != nil || !strings.Contains(out, "credentials: client credentials") {
		t.Fatalf("status: %v\n%s", err, out)
	}
	if strings.Contains(out+errOut, s.DemoSecret) {
		t.Fatal("status printed the client secret")
	}
	env[envClientSecret] = "wrong-" + s.DemoSecret
	_, errOut, err = cli{env: env}.run(t, "status")
	if err == nil || !strings.Contains(err.Error(), "invalid_client") || strings.Contains(err.Error()+errOut, s.DemoSecret) {
		t.Fatalf("wrong secret: %v", err)
	}
	delete(env, envBaseURL)
	if _, _, err := (cli{env: env}).run(t, "status"); err == nil || !strings.Contains(err.Error(), envBaseURL) {
		t.Fatalf("missing base URL: %v", err)
	}
}
