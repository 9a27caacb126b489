package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// TokenSource supplies bearer tokens to the data client. Invalidate drops the
// cached access token after the service answered 401, so the next Token
// fetches a new one (by the grant, or by refresh).
//
// Token takes a context (unlike oauth2.TokenSource) so that a fetch or
// refresh is cancelled together with the request that needed it.
// Implementations in this package are safe for concurrent use.
type TokenSource interface {
	Token(ctx context.Context) (*oauth2.Token, error)
	Invalidate()
}

// AuthConfig describes this client to the OAuth 2.0 / OpenID Connect server.
type AuthConfig struct {
	AuthURL      string       // {auth_url}; checked with checkServiceURL
	ClientID     string       //
	ClientSecret string       // empty for a public (native) client, which must use PKCE
	Scopes       []string     // default DefaultScopes
	RedirectURL  string       // authorization code flow only
	HTTPClient   *http.Client // optional; a client with a 30 s timeout when nil
}

// Scope values understood by the service.
const (
	ScopeAllAccess     = "api.allaccess"
	ScopeMarket        = "api.market"
	ScopeTAQ           = "api.taq"
	ScopeCustomScans   = "api.scans.custom"
	ScopeEvents        = "api.events"
	ScopeOfflineAccess = "offline_access" // the server only issues a refresh token with this
)

// DefaultScopes is what a user login asks for when AuthConfig.Scopes is
// empty: full API access, plus offline_access so that a refresh token is
// issued and the user does not have to log in again every hour.
// The client credentials grant drops offline_access (see NewClientCredentials).
var DefaultScopes = []string{ScopeAllAccess, ScopeOfflineAccess}

// Endpoint returns the server's OAuth endpoints. Client authentication goes
// in the Basic header when there is a secret (what the server expects of a
// confidential client) and client_id goes in the body for a public client,
// which has no secret to send. Setting the style explicitly also stops the
// oauth2 library from probing, which would send the secret twice on errors.
func (c AuthConfig) Endpoint() oauth2.Endpoint {
	base := strings.TrimRight(strings.TrimSpace(c.AuthURL), "/")
	if u, err := checkServiceURL(c.AuthURL, "auth URL"); err == nil {
		base = u.String()
	}
	style := oauth2.AuthStyleInParams
	if c.ClientSecret != "" {
		style = oauth2.AuthStyleInHeader
	}
	return oauth2.Endpoint{
		AuthURL:   base + "/connect/authorize",
		TokenURL:  base + "/connect/token",
		AuthStyle: style,
	}
}

// revocationURL is the RFC 7009 endpoint, which oauth2.Endpoint has no field for.
func (c AuthConfig) revocationURL() string {
	return strings.TrimSuffix(c.Endpoint().TokenURL, "/token") + "/revocation"
}

// validate reports configuration mistakes before anything is sent, so that
// a secret is never posted to a mistyped or plain-http address.
func (c AuthConfig) validate() error {
	if _, err := checkServiceURL(c.AuthURL, "auth URL"); err != nil {
		return fmt.Errorf("auth: %w", err)
	}
	if strings.TrimSpace(c.ClientID) == "" {
		return errors.New("auth: client ID is empty")
	}
	return nil
}

// scopes returns the configured scopes or a copy of DefaultScopes.
func (c AuthConfig) scopes() []string {
	if len(c.Scopes) == 0 {
		return slices.Clone(DefaultScopes)
	}
	return slices.Clone(c.Scopes)
}

// oauth2Config adapts c to the oauth2 library for the redirect-based flows.
func (c AuthConfig) oauth2Config(redirectURL string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     c.ClientID,
		ClientSecret: c.ClientSecret,
		Endpoint:     c.Endpoint(),
		RedirectURL:  redirectURL,
		Scopes:       c.scopes(),
	}
}

// defaultAuthHTTP is used when AuthConfig.HTTPClient is nil: unlike
// http.DefaultClient it has a timeout, so a token server that hangs cannot
// hang a login or a data request whose ctx has no deadline.
var defaultAuthHTTP = &http.Client{Timeout: 30 * time.Second}

// withClient makes the oauth2 library use c.HTTPClient (its timeouts, proxy
// and test transport), or defaultAuthHTTP.
func (c AuthConfig) withClient(ctx context.Context) context.Context {
	h := c.HTTPClient
	if h == nil {
		h = defaultAuthHTTP
	}
	return context.WithValue(ctx, oauth2.HTTPClient, h)
}

// AuthError is an OAuth error answer (RFC 6749 section 5.2) from the server.
// It holds only the error code, description and HTTP status, never the raw
// response body, and its fields are redacted, so it is safe to print.
type AuthError struct {
	Op          string // what we were doing: "client credentials", "authorization code", "refresh", "revoke"
	Code        string // RFC 6749 "error", e.g. invalid_client, invalid_grant
	Description string // RFC 6749 "error_description", may be empty
	Status      int    // HTTP status, 0 when the error did not come from an HTTP answer
}

func (e *AuthError) Error() string {
	var b strings.Builder
	b.WriteString("auth: " + e.Op + ": ")
	switch {
	case e.Code != "":
		b.WriteString(e.Code)
		if e.Description != "" {
			b.WriteString(" (" + e.Description + ")")
		}
	case e.Status != 0:
		b.WriteString("HTTP " + strconv.Itoa(e.Status))
		if t := http.StatusText(e.Status); t != "" {
			b.WriteString(" " + t)
		}
		if e.Description != "" {
			b.WriteString(" (" + e.Description + ")")
		}
	default:
		b.WriteString("failed")
	}
	return b.String()
}

// newAuthError builds an AuthError from server-supplied fields, cleaned for
// the terminal and with every secret removed.
func newAuthError(op, code, desc string, status int, secrets ...string) *AuthError {
	return &AuthError{
		Op:          op,
		Code:        redact(cleanServerText(code), secrets...),
		Description: redact(cleanServerText(desc), secrets...),
		Status:      status,
	}
}

// authErr converts an error from the oauth2 library into an *AuthError (for
// an OAuth error answer) or a redacted wrapper (network and parse errors).
// oauth2.RetrieveError's own message includes the raw response body, which
// may echo what we sent, so it is never used.
func authErr(op string, err error, secrets ...string) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		return newAuthError(op, re.ErrorCode, re.ErrorDescription, status, secrets...)
	}
	return redactError(op, err, secrets...)
}

// tokenCache holds one token and serializes fetching its replacement.
// Fetches are serialized because a refresh token rotates: two concurrent
// refreshes with the same refresh token would have the server reject one and,
// with reuse detection, possibly revoke the whole grant. The semaphore is a
// channel rather than a mutex so a waiting caller can give up when its
// context is cancelled; mu only guards tok and stale, so Invalidate and cache
// hits never wait for a slow fetch.
type tokenCache struct {
	sem   chan struct{}
	mu    sync.Mutex
	tok   *oauth2.Token
	stale bool // set by Invalidate: tok's access token was rejected
}

func newTokenCache(tok *oauth2.Token) *tokenCache {
	return &tokenCache{sem: make(chan struct{}, 1), tok: tok}
}

// current returns a copy of the cached token if it can still be used.
// A copy, so that a caller modifying it cannot corrupt the cache.
func (c *tokenCache) current() *oauth2.Token {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stale || !c.tok.Valid() {
		return nil
	}
	t := *c.tok
	return &t
}

// get returns the cached token or, if none is usable, the result of fetch,
// which receives the previous token (nil if none; it still carries the
// refresh token after Invalidate). A token fetch returns alongside an error
// is still cached: a refresh whose result could not be saved has already
// used up the old refresh token, so the new one must not be lost.
func (c *tokenCache) get(ctx context.Context, op string, fetch func(context.Context, *oauth2.Token) (*oauth2.Token, error)) (*oauth2.Token, error) {
	if t := c.current(); t != nil {
		return t, nil
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("auth: %s: %w", op, ctx.Err())
	}
	defer func() { <-c.sem }()
	if t := c.current(); t != nil { // fetched by another caller while we waited
		return t, nil
	}
	c.mu.Lock()
	prev := c.tok
	c.mu.Unlock()
	tok, err := fetch(ctx, prev)
	if tok != nil {
		c.mu.Lock()
		c.tok, c.stale = tok, false
		c.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	t := *tok
	return &t, nil
}

func (c *tokenCache) invalidate() {
	c.mu.Lock()
	c.stale = true
	c.mu.Unlock()
}

// ccSource is the client credentials TokenSource.
type ccSource struct {
	cfg   AuthConfig
	cc    *clientcredentials.Config
	cache *tokenCache
}

// NewClientCredentials returns a TokenSource for the client credentials
// grant, used by services and scripts that act as themselves rather than for
// a user. It needs a client secret. offline_access is removed from the scopes:
// the grant never yields a refresh token (RFC 6749 section 4.4.3), since the
// client can simply ask again with its secret.
func NewClientCredentials(cfg AuthConfig) (TokenSource, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.ClientSecret == "" {
		return nil, errors.New("auth: client credentials: a client secret is required (public clients must log in with `chainwatch login`)")
	}
	scopes := slices.DeleteFunc(cfg.scopes(), func(s string) bool { return s == ScopeOfflineAccess })
	return &ccSource{
		cfg: cfg,
		cc: &clientcredentials.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			TokenURL:     cfg.Endpoint().TokenURL,
			Scopes:       scopes,
			AuthStyle:    oauth2.AuthStyleInHeader,
		},
		cache: newTokenCache(nil),
	}, nil
}

func (s *ccSource) Token(ctx context.Context) (*oauth2.Token, error) {
	return s.cache.get(ctx, "client credentials", func(ctx context.Context, prev *oauth2.Token) (*oauth2.Token, error) {
		tok, err := s.cc.Token(s.cfg.withClient(ctx))
		if err != nil {
			secrets := []string{s.cfg.ClientSecret}
			if prev != nil {
				secrets = append(secrets, prev.AccessToken)
			}
			return nil, authErr("client credentials", err, secrets...)
		}
		return tok, nil
	})
}

func (s *ccSource) Invalidate() { s.cache.invalidate() }
