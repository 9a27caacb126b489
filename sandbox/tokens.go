package sandbox

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// tokenService is the OpenID provider: zitadel/oidc's op.Provider over our
// store, with IdentityServer-style paths (/connect/...) as the spec uses.
type tokenService struct {
	issuer   string
	store    *store
	provider *op.Provider
	router   http.Handler
}

func newTokenService(issuer string, st *store) (*tokenService, error) {
	var cryptoKey [32]byte // encrypts authorization codes; new per start
	if _, err := rand.Read(cryptoKey[:]); err != nil {
		return nil, err
	}
	cfg := &op.Config{
		CryptoKey:             cryptoKey,
		CodeMethodS256:        true,
		GrantTypeRefreshToken: true,
		SupportedScopes:       append([]string{oidc.ScopeOpenID, oidc.ScopeProfile, oidc.ScopeOfflineAccess}, apiScopes...),
	}
	p, err := op.NewProvider(cfg, st, op.StaticIssuer(issuer),
		op.WithAllowInsecure(), // plain http, but only ever advertised on the address it listens on
		op.WithCustomAuthEndpoint(op.NewEndpoint("connect/authorize")),
		op.WithCustomTokenEndpoint(op.NewEndpoint("connect/token")),
		op.WithCustomUserinfoEndpoint(op.NewEndpoint("connect/userinfo")),
		op.WithCustomRevocationEndpoint(op.NewEndpoint("connect/revocation")),
		op.WithCustomIntrospectionEndpoint(op.NewEndpoint("connect/introspect")),
		op.WithCustomEndSessionEndpoint(op.NewEndpoint("connect/endsession")),
		op.WithCustomKeysEndpoint(op.NewEndpoint(".well-known/openid-configuration/jwks")),
		op.WithAccessTokenVerifierOpts(op.WithSupportedAccessTokenSigningAlgorithms(string(jose256))),
	)
	if err != nil {
		return nil, err
	}
	ts := &tokenService{issuer: issuer, store: st, provider: p}
	// The router is built over validator, not p, so that the authorize
	// endpoint uses our redirect and PKCE rules (op.AuthorizeValidator).
	ts.router = op.CreateRouter(validator{p, st})
	return ts, nil
}

const jose256 = "ES256"

// validator replaces the library's authorize-request checks with the
// sandbox's rules; everything else is the library's.
type validator struct {
	*op.Provider
	store *store
}

// ValidateAuthRequest implements op.AuthorizeValidator. The library's own
// checks accept any loopback host for a native client and refuse an empty
// scope, which the spec allows; these follow the rules instead:
// exact redirect match except the port of a loopback one, PKCE (S256 only)
// required of public clients, no scope meaning api.allaccess.
func (v validator) ValidateAuthRequest(ctx context.Context, req *oidc.AuthRequest, _ op.Storage, verifier *op.IDTokenHintVerifier) (string, error) {
	c, ok := v.store.clients[req.ClientID]
	if !ok {
		return "", oidc.ErrInvalidRequestRedirectURI().WithDescription("unknown client_id")
	}
	if !c.redirectAllowed(req.RedirectURI) {
		// Never redirect to an unregistered URI: the error is shown here.
		return "", oidc.ErrInvalidRequestRedirectURI().WithDescription("redirect_uri is not registered for this client")
	}
	if req.ResponseType != oidc.ResponseTypeCode {
		return "", oidc.ErrUnauthorizedClient().WithDescription("response_type must be code")
	}
	if req.State == "" {
		return "", oidc.ErrInvalidRequest().WithDescription("state is required")
	}
	switch {
	case req.CodeChallenge == "" && c.public():
		return "", oidc.ErrInvalidRequest().WithDescription("PKCE is required of this public client: send code_challenge with code_challenge_method=S256")
	case req.CodeChallenge != "" && req.CodeChallengeMethod != oidc.CodeChallengeMethodS256:
		return "", oidc.ErrInvalidRequest().WithDescription("code_challenge_method must be S256")
	}
	var scopes []string
	for _, sc := range req.Scopes {
		switch {
		case slices.Contains(scopes, sc):
		case sc == oidc.ScopeOpenID || sc == oidc.ScopeProfile || sc == oidc.ScopeOfflineAccess || c.IsScopeAllowed(sc):
			scopes = append(scopes, sc)
		default:
			return "", oidc.ErrInvalidScope().WithDescription("unknown scope %.40q", sc)
		}
	}
	if !slices.ContainsFunc(scopes, c.IsScopeAllowed) {
		scopes = append(scopes, defaultScope)
	}
	req.Scopes = scopes
	if _, err := op.ValidateAuthReqPrompt(req.Prompt, req.MaxAge); err != nil {
		return "", err
	}
	return op.ValidateAuthReqIDTokenHint(ctx, req.IDTokenHint, verifier)
}

// TokenInfo is what a verified access token says about its bearer.
type TokenInfo struct {
	ClientID string
	Subject  string // the user, or the client itself for client credentials
	Scopes   []string
	Expiry   time.Time
}

// HasScope reports whether the token carries scope or api.allaccess.
func (t TokenInfo) HasScope(scope string) bool {
	return slices.Contains(t.Scopes, scope) || slices.Contains(t.Scopes, defaultScope)
}

var errBadToken = errors.New("missing, malformed, expired or revoked bearer token")

// Authenticate checks the request's bearer token in process: its ES256
// signature and issuer, then its server-side record, which a revocation
// deletes at once and whose expiry follows the sandbox clock.
func (s *Server) Authenticate(r *http.Request) (TokenInfo, error) {
	raw, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return TokenInfo{}, errBadToken
	}
	ctx := op.ContextWithIssuer(r.Context(), s.tokens.issuer)
	claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, s.tokens.provider.AccessTokenVerifier(ctx))
	if err != nil {
		return TokenInfo{}, errBadToken
	}
	t, ok := s.store.liveAccess(claims.JWTID)
	if !ok {
		return TokenInfo{}, errBadToken
	}
	return TokenInfo{ClientID: t.clientID, Subject: t.subject, Scopes: t.scopes, Expiry: t.expiry}, nil
}

func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	return tok, ok && strings.EqualFold(scheme, "Bearer") && tok != ""
}

type tokenInfoKey struct{}

// RequireToken answers 401 with an empty body and
// WWW-Authenticate: Bearer error="invalid_token" unless the request carries
// a live access token, as the conventions say; otherwise next sees the
// token's TokenInfo in the context (TokenFrom).
func (s *Server) RequireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, err := s.Authenticate(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, info)))
	})
}

// TokenFrom returns the TokenInfo that RequireToken put in ctx.
func TokenFrom(ctx context.Context) (TokenInfo, bool) {
	t, ok := ctx.Value(tokenInfoKey{}).(TokenInfo)
	return t, ok
}

// discoveryHandler serves the library's discovery document, corrected to
// what this deployment does: the library lists the implicit and JWT-bearer
// grants and the device endpoint whatever the storage supports, and its
// scope list only when the router is built over the bare provider.
func (ts *tokenService) discoveryHandler() http.Handler {
	withIssuer := op.NewIssuerInterceptor(ts.provider.IssuerFromRequest)
	return withIssuer.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := op.CreateDiscoveryConfig(r.Context(), ts.provider, ts.store)
		d.ScopesSupported = append([]string{oidc.ScopeOpenID, oidc.ScopeProfile, oidc.ScopeOfflineAccess}, apiScopes...)
		d.ResponseTypesSupported = []string{string(oidc.ResponseTypeCode)}
		d.GrantTypesSupported = []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken, oidc.GrantTypeClientCredentials}
		d.DeviceAuthorizationEndpoint = ""
		d.RevocationEndpointAuthSigningAlgValuesSupported = nil
		d.IntrospectionEndpointAuthSigningAlgValuesSupported = nil
		op.Discover(w, d)
	})
}
