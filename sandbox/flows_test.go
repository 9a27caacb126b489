package sandbox_test

// The client side of the flows: oauth2 configurations, the authorize →
// login → redirect walk, and checks on tokens and token-endpoint errors.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

// ctx carries the test's HTTP client for the oauth2 library.
func (e *env) ctx() context.Context {
	return context.WithValue(e.t.Context(), oauth2.HTTPClient, &http.Client{Transport: e.tr, Timeout: 10 * time.Second})
}

func (e *env) endpoint(style oauth2.AuthStyle) oauth2.Endpoint {
	return oauth2.Endpoint{
		AuthURL:   e.s.AuthURL + "/connect/authorize",
		TokenURL:  e.s.AuthURL + "/connect/token",
		AuthStyle: style,
	}
}

// demoConfig is the confidential client, authenticating with Basic.
func (e *env) demoConfig(redirect string, scopes ...string) *oauth2.Config {
	return &oauth2.Config{
		ClientID: sandbox.DemoClientID, ClientSecret: e.s.DemoSecret,
		Endpoint: e.endpoint(oauth2.AuthStyleInHeader), RedirectURL: redirect, Scopes: scopes,
	}
}

// nativeConfig is the public client: client_id in the body, no secret.
func (e *env) nativeConfig(redirect string, scopes ...string) *oauth2.Config {
	return &oauth2.Config{
		ClientID: sandbox.NativeClientID,
		Endpoint: e.endpoint(oauth2.AuthStyleInParams), RedirectURL: redirect, Scopes: scopes,
	}
}

// newState is a fresh random state, recorded as a secret.
func (e *env) newState() string {
	s := rand.Text()
	e.secret(s)
	return s
}

// newVerifier is a fresh PKCE verifier, recorded as a secret.
func (e *env) newVerifier() string {
	v := oauth2.GenerateVerifier()
	e.secret(v)
	return v
}

// location resolves a response's Location against its request.
func location(t *testing.T, resp *http.Response) *url.URL {
	t.Helper()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("status %d, want 302", resp.StatusCode)
	}
	loc, err := resp.Location()
	if err != nil {
		t.Fatalf("Location: %v", err)
	}
	return loc
}

var hiddenID = regexp.MustCompile(`<input type="hidden" name="id" value="([^"]+)">`)

// openLogin GETs the authorize URL, checks the redirect to the login page
// and returns the login request ID from its form.
func (e *env) openLogin(authorizeURL string) string {
	e.t.Helper()
	resp, body := e.get(authorizeURL, nil)
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("authorize: status %d, want 302; body %q", resp.StatusCode, body)
	}
	loc := location(e.t, resp)
	if got, want := loc.Scheme+"://"+loc.Host+loc.Path, e.s.AuthURL+"/login"; got != want {
		e.t.Fatalf("authorize redirects to %s, want %s", got, want)
	}
	resp, body = e.get(loc.String(), nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		e.t.Fatalf("login page: status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	m := hiddenID.FindStringSubmatch(body)
	if m == nil {
		e.t.Fatalf("login page has no hidden id field:\n%s", body)
	}
	if m[1] != loc.Query().Get("id") {
		e.t.Fatalf("form id %q differs from the redirect's id %q", m[1], loc.Query().Get("id"))
	}
	e.secret(m[1])
	return m[1]
}

// submitLogin POSTs the login form.
func (e *env) submitLogin(id, user, pass, action string) (*http.Response, string) {
	e.t.Helper()
	form := url.Values{"id": {id}, "username": {user}, "password": {pass}, "action": {action}}
	return e.postForm(e.s.AuthURL+"/login", form, nil)
}

// authorize walks authorize → login → accept and returns the redirect to
// the client, checking its target and its state.
func (e *env) authorize(cfg *oauth2.Config, state string, opts ...oauth2.AuthCodeOption) *url.URL {
	e.t.Helper()
	id := e.openLogin(cfg.AuthCodeURL(state, opts...))
	resp, body := e.submitLogin(id, sandbox.DemoUser, sandbox.DemoPassword, "accept")
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("login accept: status %d, want 302; body %q", resp.StatusCode, body)
	}
	cb := location(e.t, resp)
	if got := cb.Scheme + "://" + cb.Host + cb.Path; got != cfg.RedirectURL {
		e.t.Fatalf("redirected to %s, want %s", got, cfg.RedirectURL)
	}
	if got := cb.Query().Get("state"); got != state {
		e.t.Fatalf("state %q, want %q", got, state)
	}
	e.secret(cb.Query().Get("code"))
	return cb
}

// code runs the browser part of the code flow with PKCE and returns the code
// and verifier.
func (e *env) code(cfg *oauth2.Config) (code, verifier string) {
	e.t.Helper()
	verifier = e.newVerifier()
	cb := e.authorize(cfg, e.newState(), oauth2.S256ChallengeOption(verifier))
	code = cb.Query().Get("code")
	if code == "" {
		e.t.Fatalf("callback without code: %s", cb.Query().Encode())
	}
	return code, verifier
}

// exchange trades a code for tokens with the verifier (if any).
func (e *env) exchange(cfg *oauth2.Config, code, verifier string) (*oauth2.Token, error) {
	var opts []oauth2.AuthCodeOption
	if verifier != "" {
		opts = append(opts, oauth2.VerifierOption(verifier))
	}
	tok, err := cfg.Exchange(e.ctx(), code, opts...)
	e.secretToken(tok)
	return tok, err
}

// login runs the whole code flow and returns the tokens.
func (e *env) login(cfg *oauth2.Config) *oauth2.Token {
	e.t.Helper()
	code, verifier := e.code(cfg)
	tok, err := e.exchange(cfg, code, verifier)
	if err != nil {
		e.t.Fatalf("exchange: %v", err)
	}
	if tok.AccessToken == "" || tok.TokenType != "Bearer" {
		e.t.Fatalf("exchange: token %q of type %q", tok.AccessToken, tok.TokenType)
	}
	return tok
}

// refresh uses a refresh token once.
func (e *env) refresh(cfg *oauth2.Config, refreshToken string) (*oauth2.Token, error) {
	tok, err := cfg.TokenSource(e.ctx(), &oauth2.Token{RefreshToken: refreshToken}).Token()
	e.secretToken(tok)
	return tok, err
}

// wantOAuthError checks that err is the token endpoint's RFC 6749 error
// with the given code and status, and that its text holds no secret.
func (e *env) wantOAuthError(err error, code string, status int) {
	e.t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		e.t.Fatalf("error %v (%T), want *oauth2.RetrieveError %s", err, err, code)
	}
	if re.ErrorCode != code || re.Response.StatusCode != status {
		e.t.Errorf("error %q status %d, want %q status %d (%s)", re.ErrorCode, re.Response.StatusCode, code, status, re.Body)
	}
	e.noSecrets("oauth2 error text", err.Error())
	e.noSecrets("token error body", string(re.Body))
}

// dataStatus calls a data path with the header and checks the 401 form
// of the conventions when the token is refused.
func (e *env) dataStatus(header http.Header) int {
	e.t.Helper()
	resp, body := e.get(e.s.BaseURL+"/v1/market/quotes", header)
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		if got := resp.Header.Get("WWW-Authenticate"); got != `Bearer error="invalid_token"` {
			e.t.Errorf("401 with WWW-Authenticate %q", got)
		}
		if body != "" {
			e.t.Errorf("401 with body %q, want empty", body)
		}
	case http.StatusNotFound:
		if !strings.Contains(body, "unknown path") {
			e.t.Errorf("404 body %q", body)
		}
	}
	return resp.StatusCode
}

// wantLive asserts a token is accepted by RequireToken (404: authenticated,
// no such data path yet), wantDead that it is refused with 401.
func (e *env) wantLive(token string) {
	e.t.Helper()
	if got := e.dataStatus(bearerHeader(token)); got != http.StatusNotFound {
		e.t.Errorf("/v1/ with the token: status %d, want 404 (token accepted)", got)
	}
}

func (e *env) wantDead(token string) {
	e.t.Helper()
	if got := e.dataStatus(bearerHeader(token)); got != http.StatusUnauthorized {
		e.t.Errorf("/v1/ with the token: status %d, want 401", got)
	}
}

// userinfo calls the userinfo endpoint with a bearer token.
func (e *env) userinfo(token string) (int, map[string]any) {
	e.t.Helper()
	resp, body := e.get(e.s.AuthURL+"/connect/userinfo", bearerHeader(token))
	var m map[string]any
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			e.t.Fatalf("userinfo body %q: %v", body, err)
		}
	}
	return resp.StatusCode, m
}

// revoke posts an RFC 7009 revocation. With a secret the client
// authenticates with Basic, without it sends client_id in the body.
func (e *env) revoke(clientID, secret, token, hint string) (int, string) {
	e.t.Helper()
	form := url.Values{"token": {token}}
	if hint != "" {
		form.Set("token_type_hint", hint)
	}
	h := http.Header{}
	if secret != "" {
		req := &http.Request{Header: http.Header{}}
		req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
		h.Set("Authorization", req.Header.Get("Authorization"))
	} else {
		form.Set("client_id", clientID)
	}
	resp, body := e.postForm(e.s.AuthURL+"/connect/revocation", form, h)
	e.noSecrets("revocation response", body)
	return resp.StatusCode, body
}
