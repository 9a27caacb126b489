package api

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

// AuthRequest is one pending user login: the URL to open in a browser and
// what must be remembered until the browser comes back. State and Verifier
// are secrets of this login; keep them in memory only.
type AuthRequest struct {
	URL         string // authorize URL to open in the browser
	State       string // sent in URL; the redirect must bring back the same value
	Verifier    string // PKCE code verifier; only its S256 hash is in URL
	RedirectURL string // redirect_uri sent in URL; the token request must repeat it
}

// StartAuthCode begins an authorization code login. The random state ties
// the browser's answer to this request (so a redirect planted by someone
// else is refused), and PKCE ties the code to this process: a code
// intercepted on the way back (another app claiming the loopback port or URL
// scheme) is useless without the verifier, which never leaves this process.
// PKCE is always used, confidential client or not.
func (c AuthConfig) StartAuthCode() (AuthRequest, error) {
	if err := c.validate(); err != nil {
		return AuthRequest{}, err
	}
	if err := checkRedirectURL(c.RedirectURL); err != nil {
		return AuthRequest{}, err
	}
	state := rand.Text() // 26 base32 characters, 130 random bits
	verifier := oauth2.GenerateVerifier()
	authURL := c.oauth2Config(c.RedirectURL).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier))
	return AuthRequest{URL: authURL, State: state, Verifier: verifier, RedirectURL: c.RedirectURL}, nil
}

// checkRedirectURL accepts an https redirect URL or an http one on a
// loopback host (RFC 8252 section 7.3, the usual choice for a terminal
// client, which listens on 127.0.0.1). Unlike checkServiceURL it allows a
// query, which some registered redirect URIs have.
func checkRedirectURL(raw string) error {
	if raw == "" {
		return errors.New("auth: redirect URL is empty; it is needed for the authorization code flow")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		return errors.New("auth: redirect URL must be an absolute URL with a host and no user name or fragment")
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && IsLoopbackHost(u.Hostname())) {
		return fmt.Errorf("auth: redirect URL %s must use https unless the host is loopback", safeURLText(u))
	}
	return nil
}

// ExchangeRedirect finishes a login: redirected is where the browser was sent
// back to, either the full URL or only its query ("code=...&state=..."),
// as pasted by the user or captured by a local listener. It refuses an error
// answer, a missing or different state (CSRF: the redirect was not caused by
// req), and a missing code, then trades the code and the PKCE verifier for
// tokens.
func (c AuthConfig) ExchangeRedirect(ctx context.Context, req AuthRequest, redirected string) (*oauth2.Token, error) {
	const op = "authorization code"
	if err := c.validate(); err != nil {
		return nil, err
	}
	if req.State == "" || req.Verifier == "" || req.RedirectURL == "" {
		return nil, errors.New("auth: authorization code: the login request is incomplete; start it with StartAuthCode")
	}
	q, err := redirectQuery(redirected)
	if err != nil {
		return nil, err
	}
	code := q.Get("code")
	secrets := []string{c.ClientSecret, code, req.Verifier, req.State}
	if e := q.Get("error"); e != "" {
		if e == "access_denied" {
			return nil, errors.New("auth: authorization code: access was denied at the login page")
		}
		return nil, newAuthError(op, e, q.Get("error_description"), 0, secrets...)
	}
	got := q.Get("state")
	if got == "" {
		return nil, errors.New("auth: authorization code: the redirect has no state parameter; refusing it (possible forged login); start the login again")
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(req.State)) != 1 {
		return nil, errors.New("auth: authorization code: the redirect's state does not match this login; refusing it (possible forged login, or an old browser tab); start the login again")
	}
	if code == "" {
		return nil, errors.New("auth: authorization code: the redirect has no code parameter")
	}
	tok, err := c.oauth2Config(req.RedirectURL).Exchange(c.withClient(ctx), code, oauth2.VerifierOption(req.Verifier))
	if err != nil {
		return nil, authErr(op, err, secrets...)
	}
	return tok, nil
}

// redirectQuery extracts the query parameters from a redirect URL or from a
// bare query string. The input holds a code, so it is never echoed.
func redirectQuery(s string) (url.Values, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	q, err := url.ParseQuery(s)
	if err != nil || len(q) == 0 {
		return nil, errors.New("auth: authorization code: could not read the redirect URL; paste the whole address the browser was sent to")
	}
	return q, nil
}

// TokenStore persists the user's token between runs. Because refresh tokens
// rotate, the store must always hold the latest one: the previous one stops
// working the moment it is used.
type TokenStore interface {
	Load() (*oauth2.Token, error) // (nil, nil) when nothing is stored
	Save(*oauth2.Token) error
	Delete() error
}

// loginAgain is the advice for every state a refresh cannot recover from.
const loginAgain = "run `chainwatch login` again"

type refreshingSource struct {
	cfg   AuthConfig
	store TokenStore
	cache *tokenCache
	// saved is the refresh token we believe store holds. Only read and
	// written inside a fetch, which tokenCache serializes.
	saved string
}

// NewRefreshingSource serves tok while it is valid and then renews it with
// its refresh token. tok may be nil to start from what store holds. store may
// be nil for a token that lives only in memory.
//
// Refresh tokens rotate, so each refresh saves the new token (with the new
// refresh token) to store before returning it; otherwise a crash right after
// the refresh would leave only a dead refresh token on disk. A store that
// can be locked across processes (FileTokenStore) is locked from before
// the reload to after the save, and the reload comes first, in case
// another chainwatch process already rotated the token: using our
// now-dead copy would fail.
func (c AuthConfig) NewRefreshingSource(tok *oauth2.Token, store TokenStore) TokenSource {
	s := &refreshingSource{cfg: c, store: store, cache: newTokenCache(tok)}
	if tok != nil {
		s.saved = tok.RefreshToken
	}
	return s
}

func (s *refreshingSource) Token(ctx context.Context) (*oauth2.Token, error) {
	return s.cache.get(ctx, "refresh", s.refresh)
}

func (s *refreshingSource) Invalidate() { s.cache.invalidate() }

func (s *refreshingSource) refresh(ctx context.Context, cur *oauth2.Token) (*oauth2.Token, error) {
	const op = "refresh"
	// Another process sharing the store may be refreshing right now: wait
	// for it, then read what it saved (tokenlock.go).
	if l, ok := s.store.(tokenLocker); ok {
		unlock, err := l.Lock(ctx)
		if err != nil {
			return nil, fmt.Errorf("auth: %s: %w", op, err)
		}
		defer unlock()
	}
	cur, fresh, err := s.newerStored(cur)
	switch {
	case err != nil:
		return nil, fmt.Errorf("auth: %s: %w", op, err)
	case fresh:
		return cur, nil
	}
	if cur == nil {
		return nil, errors.New("auth: not logged in; run `chainwatch login`")
	}
	if cur.RefreshToken == "" {
		return nil, errors.New("auth: the access token has expired and there is no refresh token; " + loginAgain)
	}
	if err := s.cfg.validate(); err != nil {
		return nil, err
	}
	secrets := []string{s.cfg.ClientSecret, cur.AccessToken, cur.RefreshToken}
	old := &oauth2.Token{RefreshToken: cur.RefreshToken} // no access token: forces a refresh
	tok, err := s.cfg.oauth2Config("").TokenSource(s.cfg.withClient(ctx), old).Token()
	if err != nil {
		err = authErr(op, err, secrets...)
		var ae *AuthError
		if errors.As(err, &ae) && ae.Code == "invalid_grant" {
			return nil, fmt.Errorf("%w; the saved login has expired or was revoked; %s", err, loginAgain)
		}
		return nil, err
	}
	if tok.RefreshToken == "" { // server did not rotate: the old one stays valid
		tok.RefreshToken = cur.RefreshToken
	}
	if s.store != nil {
		if err := s.store.Save(tok); err != nil {
			secrets = append(secrets, tok.AccessToken, tok.RefreshToken)
			return tok, redactError(op, fmt.Errorf("the renewed token could not be saved, so the next run will need `chainwatch login`: %w", err), secrets...)
		}
		s.saved = tok.RefreshToken
	}
	return tok, nil
}

// newerStored is the token another process (or a new login) stored since
// this one last saved, in place of cur: theirs is the live one. fresh
// says it is still valid, so nothing needs refreshing; an error is the
// store's, when there is no cur to go on with.
func (s *refreshingSource) newerStored(cur *oauth2.Token) (tok *oauth2.Token, fresh bool, err error) {
	if s.store == nil {
		return cur, false, nil
	}
	stored, err := s.store.Load()
	switch {
	case err != nil && cur == nil:
		return nil, false, err
	case err == nil && stored != nil && stored.RefreshToken != "" &&
		stored.RefreshToken != s.saved && (cur == nil || stored.RefreshToken != cur.RefreshToken):
		s.saved = stored.RefreshToken
		return stored, stored.Valid(), nil
	}
	return cur, false, nil
}

// Revoke asks the server to revoke token (RFC 7009), for `chainwatch
// logout`: revoking the refresh token ends the whole login, so a copy of the
// token file left behind is worthless. hint is "access_token",
// "refresh_token" or "" and only helps the server look the token up.
func (c AuthConfig) Revoke(ctx context.Context, token string, hint string) error {
	const op = "revoke"
	if err := c.validate(); err != nil {
		return err
	}
	if token == "" {
		return errors.New("auth: revoke: no token given")
	}
	if hint != "" && hint != "access_token" && hint != "refresh_token" {
		return fmt.Errorf("auth: revoke: token type hint %q is not access_token or refresh_token", hint)
	}
	secrets := []string{c.ClientSecret, token}
	form := url.Values{"token": {token}}
	if hint != "" {
		form.Set("token_type_hint", hint)
	}
	if c.ClientSecret == "" {
		form.Set("client_id", c.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.revocationURL(), strings.NewReader(form.Encode()))
	if err != nil {
		return redactError(op, err, secrets...)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.ClientSecret != "" {
		// Form-encoded first, as RFC 6749 section 2.3.1 requires and as the
		// oauth2 library does for the token endpoint.
		req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = defaultAuthHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return redactError(op, err, secrets...)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusOK { // RFC 7009: also the answer for an unknown or already revoked token
		return nil
	}
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(body, &e) // a non-JSON body leaves only the status to report
	return newAuthError(op, e.Error, e.Description, resp.StatusCode, secrets...)
}
