package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// These tests run api's login against the real sandbox token service over
// loopback HTTP. They live in package api_test because the sandbox may use
// package api itself.

func startSandbox(t *testing.T) *sandbox.Server {
	t.Helper()
	s, err := sandbox.Start(sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// lockedBuffer collects Login's instructions while Login runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var authorizeRE = regexp.MustCompile(`http://\S+/connect/authorize\?\S+`)

// awaitURL polls out for the printed authorize URL, for up to 10 s.
func awaitURL(t *testing.T, out *lockedBuffer) string {
	t.Helper()
	for range 1000 {
		if u := authorizeRE.FindString(out.String()); u != "" {
			return u
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no authorize URL printed:\n%s", out)
	return ""
}

type loginResult struct {
	err error
	ok  bool
}

func runLogin(cfg api.AuthConfig, opts api.LoginOptions) <-chan loginResult {
	ch := make(chan loginResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		tok, err := cfg.Login(ctx, opts)
		ch <- loginResult{err: err, ok: err == nil && tok.AccessToken != "" && tok.RefreshToken != ""}
	}()
	return ch
}

// signIn plays the user at the sandbox's login page and returns the address
// the browser is sent back to.
func signIn(t *testing.T, authorizeURL string) *url.URL {
	t.Helper()
	landed, err := sandbox.Browse(t.Context(), authorizeURL, sandbox.DemoUser, sandbox.DemoPassword, true)
	if err != nil {
		t.Fatal(err)
	}
	return landed
}

// returnTo is the browser loading the address it was sent back to.
func returnTo(landed *url.URL) {
	if resp, err := http.Get(landed.String()); err == nil {
		resp.Body.Close()
	}
}

// pasteLogin starts a login that reads pasted addresses, signs in, and
// returns the address to paste, the pipe to paste it into, and the result.
func pasteLogin(t *testing.T, s *sandbox.Server) (*url.URL, *io.PipeWriter, <-chan loginResult) {
	t.Helper()
	out := &lockedBuffer{}
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	res := runLogin(nativeConfig(s), api.LoginOptions{Out: out, Paste: pr})
	return signIn(t, awaitURL(t, out)), pw, res
}

func nativeConfig(s *sandbox.Server) api.AuthConfig {
	return api.AuthConfig{AuthURL: s.AuthURL, ClientID: sandbox.NativeClientID}
}

// A forged or stray request to the listener (wrong state) gets an error
// page and does not end the login; the real answer then completes it.
func TestLoginListenerIgnoresWrongState(t *testing.T) {
	s := startSandbox(t)
	out := &lockedBuffer{}
	opened := make(chan string, 1)
	res := runLogin(nativeConfig(s), api.LoginOptions{Out: out, OpenBrowser: func(u string) error { opened <- u; return nil }})
	landed := signIn(t, <-opened)
	forged := *landed
	q := forged.Query()
	q.Set("state", "forged-state")
	q.Set("code", "attacker-code")
	forged.RawQuery = q.Encode()
	resp, err := http.Get(forged.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("wrong state answered %d", resp.StatusCode)
	}
	resp, err = http.Get(landed.String())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if r := <-res; !r.ok || resp.StatusCode != 200 || !strings.Contains(string(page), "Signed in") {
		t.Fatalf("login: %v; page %d %s", r.err, resp.StatusCode, page)
	}
	// The listener is gone once the login ends.
	if _, err := http.Get(landed.String()); err == nil {
		t.Fatal("the loopback listener still answers after the login")
	}
}

// A pasted address with another state is refused before any code is sent.
func TestLoginPasteStateMismatch(t *testing.T) {
	landed, pw, res := pasteLogin(t, startSandbox(t))
	q := landed.Query()
	code := q.Get("code")
	q.Set("state", "someone-elses-state")
	landed.RawQuery = q.Encode()
	io.WriteString(pw, landed.String()+"\n")
	r := <-res
	if r.err == nil || !strings.Contains(r.err.Error(), "state does not match") {
		t.Fatalf("state mismatch gave %v", r.err)
	}
	if strings.Contains(r.err.Error(), code) {
		t.Fatal("the error quotes the code")
	}
}

func TestLoginPasteQueryOnly(t *testing.T) {
	landed, pw, res := pasteLogin(t, startSandbox(t))
	io.WriteString(pw, "\n\n"+landed.RawQuery+"\n") // blank lines are skipped
	if r := <-res; !r.ok {
		t.Fatalf("login with a pasted query: %v", r.err)
	}
}

// With the input closed (no terminal) and a browser opened, Login keeps
// waiting for the browser, and gives up when ctx ends.
func TestLoginGivesUpWithContext(t *testing.T) {
	s := startSandbox(t)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	opened := func(string) error { return nil } // a browser that never comes back
	_, err := nativeConfig(s).Login(ctx, api.LoginOptions{Out: io.Discard, OpenBrowser: opened, Paste: strings.NewReader("")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Login after its deadline: %v", err)
	}
}

// With the input closed and no browser opened (--no-browser < /dev/null),
// nothing can end the login: Login says so at once instead of waiting
// out its ten minutes.
func TestLoginEndsWhenNothingCanBePasted(t *testing.T) {
	s := startSandbox(t)
	_, err := nativeConfig(s).Login(t.Context(), api.LoginOptions{Out: io.Discard, Paste: strings.NewReader("")})
	if !errors.Is(err, api.ErrPasteEnded) {
		t.Fatalf("Login with nothing to read: %v", err)
	}
}

// The public client must use PKCE; Login always does, so the public client
// signs in, and the authorize URL carries an S256 challenge, no secret.
func TestLoginURLCarriesPKCE(t *testing.T) {
	s := startSandbox(t)
	opened := make(chan string, 1)
	res := runLogin(nativeConfig(s), api.LoginOptions{Out: io.Discard, OpenBrowser: func(u string) error { opened <- u; return nil }})
	u, err := url.Parse(<-opened)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" ||
		!strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") || q.Get("client_secret") != "" {
		t.Fatalf("authorize URL query: %v", q)
	}
	returnTo(signIn(t, u.String()))
	if r := <-res; !r.ok {
		t.Fatalf("login: %v", r.err)
	}
}

// After a login, the refreshing source rotates the refresh token, saves
// it, and userinfo names the user.
func TestLoginThenRefreshAndUserInfo(t *testing.T) {
	s := startSandbox(t)
	cfg := nativeConfig(s)
	opened := make(chan string, 1)
	ctx := t.Context()
	done := make(chan error, 1)
	var store api.MemoryTokenStore
	go func() {
		tok, err := cfg.Login(ctx, api.LoginOptions{Out: io.Discard, OpenBrowser: func(u string) error { opened <- u; return nil }})
		if err == nil {
			err = store.Save(tok)
		}
		done <- err
	}()
	returnTo(signIn(t, <-opened))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	first, _ := store.Load()
	expired := *first
	expired.Expiry = time.Now().Add(-time.Minute) // force a refresh
	ts := cfg.NewRefreshingSource(&expired, &store)
	u, err := cfg.UserInfo(ctx, ts)
	if err != nil || u.Subject != sandbox.DemoUser {
		t.Fatalf("userinfo: %+v, %v", u, err)
	}
	second, _ := store.Load()
	if second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken {
		t.Fatal("the refresh did not rotate and save the tokens")
	}
	// The old refresh token is dead: a source holding only it fails, and
	// says to log in again.
	stale := cfg.NewRefreshingSource(&expired, nil)
	if _, err := stale.Token(ctx); err == nil || !strings.Contains(err.Error(), "chainwatch login") {
		t.Fatalf("reused refresh token: %v", err)
	}
}
