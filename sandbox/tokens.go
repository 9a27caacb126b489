package sandbox

import (
	"context"
	"crypto/rand"
	"net/http"
	"slices"
	"sync"

	"github.com/go-jose/go-jose/v4"
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
	// op.NewProvider starts every provider on the one package-level
	// op.DefaultEndpoints, and the WithCustom*Endpoint options below write
	// through that pointer (zitadel/oidc pull request 927, open): two
	// sandboxes starting at once race, and so does one starting while
	// another serves. So each provider is built on a copy of its own, one
	// provider at a time.
	newProviderMu.Lock()
	defer newProviderMu.Unlock()
	endpoints := *op.DefaultEndpoints
	op.DefaultEndpoints = &endpoints
	p, err := op.NewProvider(cfg, st, op.StaticIssuer(issuer),
		op.WithAllowInsecure(), // plain http, but only ever advertised on the address it listens on
		op.WithCustomAuthEndpoint(op.NewEndpoint("connect/authorize")),
		op.WithCustomTokenEndpoint(op.NewEndpoint("connect/token")),
		op.WithCustomUserinfoEndpoint(op.NewEndpoint("connect/userinfo")),
		op.WithCustomRevocationEndpoint(op.NewEndpoint("connect/revocation")),
		op.WithCustomIntrospectionEndpoint(op.NewEndpoint("connect/introspect")),
		op.WithCustomEndSessionEndpoint(op.NewEndpoint("connect/endsession")),
		op.WithCustomKeysEndpoint(op.NewEndpoint(".well-known/openid-configuration/jwks")),
		op.WithAccessTokenVerifierOpts(
			op.WithSupportedAccessTokenSigningAlgorithms(string(jose.RS256)), // no algorithm confusion
			func(v *op.AccessTokenVerifier) { v.Offset = st.clockOffset() },
		),
		op.WithIDTokenHintVerifierOpts(func(v *op.IDTokenHintVerifier) { v.Offset = st.clockOffset() }),
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

// newProviderMu serialises op.NewProvider; see newTokenService.
var newProviderMu sync.Mutex

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
		return "", &oidc.Error{ErrorType: "unsupported_response_type", Description: "response_type must be code"}
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
	var err error
	if req.MaxAge, err = op.ValidateAuthReqPrompt(req.Prompt, req.MaxAge); err != nil {
		return "", err
	}
	return op.ValidateAuthReqIDTokenHint(ctx, req.IDTokenHint, verifier)
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
