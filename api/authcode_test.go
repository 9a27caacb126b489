package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// login runs StartAuthCode and a real GET of the authorize URL with a client
// that does not follow redirects, and returns the request and the Location
// the server redirected to.
func login(t *testing.T, f *fakeAuth, cfg AuthConfig) (AuthRequest, string) {
	t.Helper()
	req, err := cfg.StartAuthCode()
	if err != nil {
		t.Fatal(err)
	}
	hc := f.srv.Client()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Get(req.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d", resp.StatusCode)
	}
	return req, resp.Header.Get("Location")
}

func TestAuthCodeFlow(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	req, loc := login(t, f, cfg)
	q, _ := url.Parse(req.URL)
	if q.Query().Get("code_challenge_method") != "S256" || strings.Contains(req.URL, req.Verifier) ||
		q.Query().Get("state") != req.State || q.Query().Get("scope") != "api.allaccess offline_access" {
		t.Fatalf("authorize URL %s", req.URL)
	}
	tok, err := cfg.ExchangeRedirect(context.Background(), req, loc)
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Valid() || tok.RefreshToken == "" {
		t.Fatalf("token %+v", tok)
	}
	hdr, form := f.last()
	if !strings.HasPrefix(hdr, "Basic ") || form.Get("code_verifier") != req.Verifier || form.Get("redirect_uri") != testRedirect {
		t.Errorf("token request: header %q form %v", hdr, form)
	}
	// Codes are single use.
	_, err = cfg.ExchangeRedirect(context.Background(), req, loc)
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Code != "invalid_grant" || ae.Op != "authorization code" {
		t.Fatalf("reused code: %v", err)
	}
	f.assertNoSecrets(t, err, req.Verifier, req.State)
}

func TestAuthCodePublicClientAndBareQuery(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	cfg.ClientID, cfg.ClientSecret = testPublicID, ""
	req, loc := login(t, f, cfg)
	u, _ := url.Parse(loc)
	tok, err := cfg.ExchangeRedirect(context.Background(), req, u.RawQuery)
	if err != nil || tok.RefreshToken == "" {
		t.Fatalf("exchange: %v", err)
	}
	hdr, form := f.last()
	if hdr != "" || form.Get("client_id") != testPublicID || form.Has("client_secret") {
		t.Errorf("public client sent header %q form %v", hdr, form)
	}
}

func TestAuthCodeRedirectRefused(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	req, loc := login(t, f, cfg)
	u, _ := url.Parse(loc)
	code := u.Query().Get("code")
	with := func(v url.Values) string { return testRedirect + "?" + v.Encode() }
	cases := map[string]struct{ redirected, want string }{
		"state mismatch": {with(url.Values{"code": {code}, "state": {"forged-state"}}), "does not match"},
		"state missing":  {with(url.Values{"code": {code}}), "no state"},
		"code missing":   {with(url.Values{"state": {req.State}}), "no code"},
		"denied":         {with(url.Values{"error": {"access_denied"}, "state": {req.State}}), "access was denied at the login page"},
		"other error":    {with(url.Values{"error": {"server_error"}, "error_description": {"oops " + req.State}}), "server_error (oops [redacted])"},
		"garbage":        {"", "could not read"},
	}
	for name, c := range cases {
		_, err := cfg.ExchangeRedirect(context.Background(), req, c.redirected)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
		f.assertNoSecrets(t, err, req.Verifier, req.State)
	}
	if n := f.count("authorization_code"); n != 0 {
		t.Errorf("%d token requests for refused redirects", n)
	}
	// The untouched redirect still works: nothing above consumed the code.
	if _, err := cfg.ExchangeRedirect(context.Background(), req, loc); err != nil {
		t.Fatal(err)
	}

	f.mu.Lock()
	f.deny = true
	f.mu.Unlock()
	req, loc = login(t, f, cfg)
	if _, err := cfg.ExchangeRedirect(context.Background(), req, loc); err == nil || !strings.Contains(err.Error(), "access was denied") {
		t.Errorf("denied login: %v", err)
	}
}

func TestAuthCodePKCEVerifiedByServer(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	req, loc := login(t, f, cfg)
	req.Verifier = oauth2.GenerateVerifier() // not the one whose challenge was sent
	_, err := cfg.ExchangeRedirect(context.Background(), req, loc)
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Code != "invalid_grant" || !strings.Contains(ae.Description, "PKCE") {
		t.Fatalf("wrong verifier: %v", err)
	}
	f.assertNoSecrets(t, err, req.Verifier)
}

// loggedIn returns a fresh user token from the auth code flow and an
// expired copy of it.
func loggedIn(t *testing.T, f *fakeAuth) (fresh, expired *oauth2.Token) {
	t.Helper()
	req, loc := login(t, f, f.config())
	tok, err := f.config().ExchangeRedirect(context.Background(), req, loc)
	if err != nil {
		t.Fatal(err)
	}
	e := *tok
	e.Expiry = time.Now().Add(-time.Minute)
	return tok, &e
}

func TestTokenRefreshRotation(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	_, expired := loggedIn(t, f)
	store := &MemoryTokenStore{}
	store.Save(expired)
	src := cfg.NewRefreshingSource(expired, store)
	tok, err := src.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Valid() || tok.AccessToken == expired.AccessToken || tok.RefreshToken == "" || tok.RefreshToken == expired.RefreshToken {
		t.Fatalf("refreshed token %+v", tok)
	}
	saved, _ := store.Load()
	if saved.RefreshToken != tok.RefreshToken || saved.AccessToken != tok.AccessToken {
		t.Errorf("store holds refresh %q, want the new %q", saved.RefreshToken, tok.RefreshToken)
	}
	// The old refresh token is dead; a source still holding it is told to log in.
	_, err = cfg.NewRefreshingSource(expired, nil).Token(context.Background())
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Code != "invalid_grant" || !strings.Contains(err.Error(), "chainwatch login") {
		t.Fatalf("old refresh token: %v", err)
	}
	f.assertNoSecrets(t, err)
	// Invalidate forces a refresh even though the access token has not expired.
	src.Invalidate()
	tok2, err := src.Token(context.Background())
	if err != nil || tok2.RefreshToken == tok.RefreshToken || f.count("refresh_token") != 3 {
		t.Fatalf("after Invalidate: %v (%d refreshes)", err, f.count("refresh_token"))
	}
	if saved, _ := store.Load(); saved.RefreshToken != tok2.RefreshToken {
		t.Error("store not updated after the second refresh")
	}
}

func TestTokenRefreshConcurrentOnce(t *testing.T) {
	f := newFakeAuth(t)
	_, expired := loggedIn(t, f)
	src := f.config().NewRefreshingSource(expired, &MemoryTokenStore{})
	start := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() {
			<-start
			tok, err := src.Token(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = tok.AccessToken
		})
	}
	close(start)
	wg.Wait()
	if n := f.count("refresh_token"); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
	for _, a := range got[1:] {
		if a != got[0] {
			t.Errorf("callers got different tokens: %v", got)
			break
		}
	}
}

func TestTokenRefreshAdoptsStoredToken(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	_, expired := loggedIn(t, f)
	store := &MemoryTokenStore{}
	store.Save(expired)
	a := cfg.NewRefreshingSource(expired, store) // two processes sharing one token file
	b := cfg.NewRefreshingSource(expired, store)
	ta, err := a.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb, err := b.Token(context.Background()) // its refresh token is dead now; it must use a's
	if err != nil || tb.AccessToken != ta.AccessToken || f.count("refresh_token") != 1 {
		t.Fatalf("second process: %v (%d refreshes)", err, f.count("refresh_token"))
	}
	// Starting from the store alone.
	c := cfg.NewRefreshingSource(nil, store)
	if tc, err := c.Token(context.Background()); err != nil || tc.AccessToken != ta.AccessToken {
		t.Fatalf("from store: %v", err)
	}
	if _, err := cfg.NewRefreshingSource(nil, &MemoryTokenStore{}).Token(context.Background()); err == nil || !strings.Contains(err.Error(), "chainwatch login") {
		t.Errorf("empty store: %v", err)
	}
}

func TestTokenRefreshNoRefreshToken(t *testing.T) {
	f := newFakeAuth(t)
	_, expired := loggedIn(t, f)
	expired.RefreshToken = ""
	_, err := f.config().NewRefreshingSource(expired, nil).Token(context.Background())
	if err == nil || !strings.Contains(err.Error(), "run `chainwatch login` again") {
		t.Fatalf("err = %v", err)
	}
	f.assertNoSecrets(t, err)
}

func TestTokenRefreshWithoutRotationKeepsRefreshToken(t *testing.T) {
	f := newFakeAuth(t)
	_, expired := loggedIn(t, f)
	f.mu.Lock()
	f.noRotate = true
	f.mu.Unlock()
	store := &MemoryTokenStore{}
	tok, err := f.config().NewRefreshingSource(expired, store).Token(context.Background())
	if err != nil || tok.RefreshToken != expired.RefreshToken || tok.AccessToken == expired.AccessToken {
		t.Fatalf("refresh without rotation: %v, %+v", err, tok)
	}
	if saved, _ := store.Load(); saved == nil || saved.RefreshToken != expired.RefreshToken {
		t.Errorf("store lost the refresh token: %+v", saved)
	}
}

type failingStore struct{ MemoryTokenStore }

func (*failingStore) Save(*oauth2.Token) error { return errors.New("disk full") }

func TestTokenRefreshSaveFailure(t *testing.T) {
	f := newFakeAuth(t)
	_, expired := loggedIn(t, f)
	src := f.config().NewRefreshingSource(expired, &failingStore{})
	_, err := src.Token(context.Background())
	if err == nil || !strings.Contains(err.Error(), "could not be saved") || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	f.assertNoSecrets(t, err)
	// The renewed token was kept in memory: the old refresh token is dead.
	if tok, err := src.Token(context.Background()); err != nil || !tok.Valid() || f.count("refresh_token") != 1 {
		t.Fatalf("after failed save: %v (%d refreshes)", err, f.count("refresh_token"))
	}
}
