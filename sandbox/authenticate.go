package sandbox

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

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
	// The provider's verifier judges exp by the sandbox clock (clockOffset).
	claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, s.tokens.provider.AccessTokenVerifier(ctx))
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
