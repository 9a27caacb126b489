package sandbox

import (
	"context"
	"encoding/base64"
	"encoding/json"
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

// Authenticate checks the request's bearer token in process, as a
// resource server following RFC 9068 section 4 does (verifyAccess).
func (s *Server) Authenticate(r *http.Request) (TokenInfo, error) {
	raw, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return TokenInfo{}, errBadToken
	}
	t, err := s.verifyAccess(r.Context(), raw)
	if err != nil {
		return TokenInfo{}, err
	}
	return TokenInfo{ClientID: t.clientID, Subject: t.subject, Scopes: t.scopes, Expiry: t.expiry, id: t.id}, nil
}

// verifyAccess checks an access token: its RS256 signature and issuer, its
// type at+jwt (an ID token is signed by the same key, but is no access
// token), its audience (the data service; a token for another resource
// is not for it), its exp on the sandbox clock (clockOffset), then its
// server-side record, which a revocation deletes at once. It returns a
// copy of the record.
func (s *Server) verifyAccess(ctx context.Context, raw string) (accessToken, error) {
	ctx = op.ContextWithIssuer(ctx, s.tokens.issuer)
	claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, s.tokens.provider.AccessTokenVerifier(ctx))
	if err != nil || !accessTokenType(raw) || !slices.Contains(claims.Audience, s.store.audience) {
		return accessToken{}, errBadToken
	}
	t, ok := s.store.liveAccess(claims.JWTID)
	if !ok {
		return accessToken{}, errBadToken
	}
	return t, nil
}

// accessTokenType reports whether a JWS's header says typ at+jwt (RFC 9068
// section 2.1; a media type, so without regard to case, and with or
// without its application/ prefix). The signature has been checked.
func accessTokenType(raw string) bool {
	head, _, _ := strings.Cut(raw, ".")
	data, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return false
	}
	var h struct {
		Typ string `json:"typ"`
	}
	if json.Unmarshal(data, &h) != nil {
		return false
	}
	typ := strings.ToLower(h.Typ)
	return typ == "at+jwt" || typ == "application/at+jwt"
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
