package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
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
		op.WithAccessTokenVerifierOpts(op.WithSupportedAccessTokenSigningAlgorithms(string(jose.RS256))), // no algorithm confusion
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

// TokenInfo is what a verified access token says about its bearer.
type TokenInfo struct {
	ClientID string
	Subject  string // the user, or the client itself for client credentials
	Scopes   []string
	Expiry   time.Time
	// id is the token's record (its jti), for revoking it in place.
	id string
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
	// The JWT's exp was set on the sandbox clock, which tests move; the
	// library checks it against the real one, so the verifier is told the
	// difference. A copy per request: the provider's is shared.
	v := *s.tokens.provider.AccessTokenVerifier(ctx)
	v.Offset = s.store.now().Sub(time.Now())
	claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, &v)
	if err != nil {
		return TokenInfo{}, errBadToken
	}
	t, ok := s.store.liveAccess(claims.JWTID)
	if !ok {
		return TokenInfo{}, errBadToken
	}
	return TokenInfo{ClientID: t.clientID, Subject: t.subject, Scopes: t.scopes, Expiry: t.expiry, id: claims.JWTID}, nil
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
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, ""))
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

// userinfoAuth checks a userinfo request's bearer token as RequireToken
// does, and refuses one that stands for no user (a client-credentials
// token, whose subject is the client itself): userinfo describes a person.
// The library answers an expired or revoked token 403 access_denied and a
// missing one without a challenge, but RFC 6750 section 3.1, which OpenID
// Connect Core 5.3.3 follows, wants 401 with WWW-Authenticate. A CORS
// preflight and a token in a form body stay the library's.
func (s *Server) userinfoAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, sent := r.Header["Authorization"]; !sent && (r.Method == http.MethodOptions || r.Method == http.MethodPost) {
			next.ServeHTTP(w, r)
			return
		}
		info, err := s.Authenticate(r)
		if err == nil && info.Subject == info.ClientID {
			err = errNoUser
		}
		if err != nil {
			desc := ""
			if err == errNoUser {
				desc = errNoUser.Error()
			}
			w.Header().Set("WWW-Authenticate", bearerChallenge(r, desc))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

var errNoUser = errors.New("the token stands for a client, not a user")

// exactExpiresIn sets expires_in of a token response to the access-token
// lifetime. The library computes it as the token's expiry, which is on the
// sandbox clock, minus the real time, truncated to whole seconds: 3599
// instead of the service's 3600, and off by however far a test has moved
// the sandbox clock. Every access token lives exactly AccessTokenTTL from
// its issue on the sandbox clock, so that is the value.
func (s *Server) exactExpiresIn(next http.Handler) http.Handler {
	ttl, _ := json.Marshal(int64(s.store.accessTTL / time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := &bufferedResponse{header: w.Header()}
		next.ServeHTTP(buf, r)
		if buf.status == 0 {
			buf.status = http.StatusOK
		}
		body := buf.body.Bytes()
		var fields map[string]json.RawMessage
		if buf.status == http.StatusOK && json.Unmarshal(body, &fields) == nil && fields["expires_in"] != nil {
			fields["expires_in"] = ttl
			s.profileTokens(fields)
			if fixed, err := json.Marshal(fields); err == nil {
				body = fixed
				w.Header().Del("Content-Length")
			}
		}
		w.WriteHeader(buf.status)
		_, _ = w.Write(body)
	})
}

// profileTokens signs the access token of a token answer again as RFC
// 9068 (the JWT profile of access tokens) asks: header typ "at+jwt", and
// the token's scope as a claim. zitadel/oidc fixes the type to "JWT"
// (op.CreateJWT) and puts no scope in the token; a resource server that
// follows RFC 9068 checks both. The ID token's at_hash names the access
// token, so it is signed again with the new hash. A token that does not
// check out is left as the library made it.
func (s *Server) profileTokens(fields map[string]json.RawMessage) {
	var at, idt string
	if json.Unmarshal(fields["access_token"], &at) != nil {
		return
	}
	profiled, err := s.resign(at, "at+jwt", func(c map[string]any) {
		jti, _ := c["jti"].(string)
		if t, ok := s.store.liveAccess(jti); ok {
			c["scope"] = strings.Join(t.scopes, " ")
		}
	})
	if err != nil {
		return
	}
	fields["access_token"], _ = json.Marshal(profiled)
	if json.Unmarshal(fields["id_token"], &idt) != nil {
		return
	}
	hash, err := oidc.ClaimHash(profiled, s.store.keys.rsa.alg)
	if err != nil {
		return
	}
	if re, err := s.resign(idt, "JWT", func(c map[string]any) {
		if _, ok := c["at_hash"]; ok {
			c["at_hash"] = hash
		}
	}); err == nil {
		fields["id_token"], _ = json.Marshal(re)
	}
}

// resign checks a token the library signed with the RSA key, lets edit
// change its claims, and signs it again with header type typ.
func (s *Server) resign(raw, typ string, edit func(map[string]any)) (string, error) {
	k := s.store.keys.rsa
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{k.alg})
	if err != nil {
		return "", err
	}
	var claims map[string]any
	if err := tok.Claims(k.key.Public(), &claims); err != nil {
		return "", err
	}
	edit(claims)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: k.alg, Key: jose.JSONWebKey{Key: k.key, KeyID: k.id}},
		(&jose.SignerOptions{}).WithType(jose.ContentType(typ)))
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// bufferedResponse holds a response until it has been looked at. The
// header map is the real one.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
