package sandbox

import (
	"crypto/subtle"
	"net/url"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"chainwatch/api"
)

// API scopes of the conventions; offline_access is handled by the library.
var apiScopes = []string{"api.allaccess", "api.market", "api.taq", "api.scans.custom", "api.events"}

// defaultScope is granted when a request names no scope: the spec's
// authorize and client-credentials requests do not require one.
const defaultScope = "api.allaccess"

// client is one registered application.
type client struct {
	id         string
	name       string // shown on the consent page
	secret     string // empty for a public client
	redirects  []string
	grants     []oidc.GrantType
	loginURL   func(authRequestID string) string
	accessTTL  time.Duration
	appType    op.ApplicationType
	authMethod oidc.AuthMethod
}

func (s *store) registerClients(demoSecret string, loginURL func(string) string) {
	loopback := []string{"http://127.0.0.1/callback", "http://[::1]/callback", "http://localhost/callback"}
	s.clients = map[string]*client{
		DemoClientID: {
			id: DemoClientID, name: "chainwatch demo (confidential)", secret: demoSecret,
			redirects:  loopback,
			grants:     []oidc.GrantType{oidc.GrantTypeClientCredentials, oidc.GrantTypeCode, oidc.GrantTypeRefreshToken},
			appType:    op.ApplicationTypeWeb,
			authMethod: oidc.AuthMethodBasic,
		},
		NativeClientID: {
			id: NativeClientID, name: "chainwatch", redirects: loopback,
			grants:     []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken},
			appType:    op.ApplicationTypeNative,
			authMethod: oidc.AuthMethodNone,
		},
	}
	for _, c := range s.clients {
		c.loginURL = loginURL
		c.accessTTL = s.accessTTL
	}
}

func (c *client) public() bool { return c.authMethod == oidc.AuthMethodNone }

// checkSecret compares in constant time; a public client has no secret to
// check and never passes.
func (c *client) checkSecret(secret string) bool {
	return !c.public() && subtle.ConstantTimeCompare([]byte(c.secret), []byte(secret)) == 1
}

// redirectAllowed matches a redirect URI exactly against the registered
// list, except that for a loopback http registration the port may differ
// (RFC 8252 section 7.3: a native app listens on whatever port is free).
// Host, scheme, path and query must still match, so a URI that only starts
// like a loopback one (http://127.0.0.1:1@evil.example/) is refused.
func (c *client) redirectAllowed(uri string) bool {
	if slices.Contains(c.redirects, uri) {
		return true
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" || u.User != nil || u.Fragment != "" || !api.IsLoopbackHost(u.Hostname()) {
		return false
	}
	for _, r := range c.redirects {
		reg, err := url.Parse(r)
		if err != nil {
			continue
		}
		if reg.Scheme == u.Scheme && reg.Hostname() == u.Hostname() && reg.Path == u.Path && reg.RawQuery == u.RawQuery {
			return true
		}
	}
	return false
}

// op.Client.

func (c *client) GetID() string                       { return c.id }
func (c *client) RedirectURIs() []string              { return c.redirects }
func (c *client) PostLogoutRedirectURIs() []string    { return nil }
func (c *client) ApplicationType() op.ApplicationType { return c.appType }
func (c *client) AuthMethod() oidc.AuthMethod         { return c.authMethod }
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType        { return c.grants }
func (c *client) LoginURL(id string) string           { return c.loginURL(id) }
func (c *client) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeJWT }
func (c *client) IDTokenLifetime() time.Duration      { return c.accessTTL }
func (c *client) DevMode() bool                       { return false }
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) IsScopeAllowed(scope string) bool     { return slices.Contains(apiScopes, scope) }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return false }
func (c *client) ClockSkew() time.Duration             { return 0 }
