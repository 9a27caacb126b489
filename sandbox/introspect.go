package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/zitadel/oidc/v3/pkg/oidc"
)

// introspection is the RFC 7662 endpoint. The library's answers every
// refusal in text/plain with 401, a missing client or a body it cannot
// read alike, and a request without a token with {"active": false}; RFC
// 7662 section 2.3 wants the errors of RFC 6749 section 5.2, as JSON:
// invalid_client (401, with a Basic challenge) when the caller is not an
// authenticated client, invalid_request (400) when the token is missing.
// An access token is looked up as the data endpoints check it
// (verifyAccess): an answer says active only for a token they would take.
// A refresh token is active while it is its grant's current one, and
// only to the client it was issued to.
func (s *Server) introspection() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			oauthError(w, http.StatusMethodNotAllowed, string(oidc.InvalidRequest), "introspection takes a POST (RFC 7662 section 2.1)")
			return
		}
		clientID, err := s.store.basicClient(r)
		if err == nil && r.PostForm.Get("token") == "" {
			err = oidc.ErrInvalidRequest().WithDescription("token is required in the body (RFC 7662 section 2.1)")
		}
		if err != nil {
			requestError(w, err)
			return
		}
		token := r.PostForm.Get("token")
		resp := &oidc.IntrospectionResponse{} // inactive: RFC 7662 section 2.2 says nothing more
		if t, err := s.verifyAccess(r.Context(), token); err == nil {
			resp = s.accessIntrospection(t)
		} else if g, ok := s.store.liveRefresh(token, clientID); ok {
			resp = s.refreshIntrospection(g)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	})
}

// basicClient reads the request's form and authenticates its client by
// HTTP Basic, the one method discovery lists for introspection. The
// library's op.ClientIDFromRequest answers a wrong secret with
// unauthorized_client, which RFC 6749 keeps for a grant the client may not
// use; a client that fails to authenticate is invalid_client.
func (s *store) basicClient(r *http.Request) (string, error) {
	if err := r.ParseForm(); err != nil {
		return "", oidc.ErrInvalidRequest().WithDescription("the body is not a form")
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		return "", oidc.ErrInvalidClient().WithDescription("introspection is for authenticated clients: send HTTP Basic credentials (RFC 7662 section 2.1)")
	}
	id, err1 := url.QueryUnescape(id)
	secret, err2 := url.QueryUnescape(secret)
	if err1 != nil || err2 != nil {
		return "", oidc.ErrInvalidClient().WithDescription("the Basic credentials are not form-encoded (RFC 6749 section 2.3.1)")
	}
	return id, s.AuthorizeClientIDSecret(r.Context(), id, secret)
}

// accessIntrospection describes a live access token, with the claims the
// token itself carries (RFC 7662 section 2.2).
func (s *Server) accessIntrospection(t accessToken) *oidc.IntrospectionResponse {
	return &oidc.IntrospectionResponse{
		Active:     true,
		Scope:      t.scopes,
		ClientID:   t.clientID,
		TokenType:  oidc.BearerToken,
		Expiration: oidc.FromTime(t.expiry),
		IssuedAt:   oidc.FromTime(t.issued),
		NotBefore:  oidc.FromTime(t.issued),
		Subject:    t.subject,
		Audience:   []string{s.store.audience},
		Issuer:     s.tokens.issuer,
		JWTID:      t.id,
	}
}

// refreshIntrospection describes a current refresh token to the client
// it was issued to (liveRefresh: another client learns nothing of it).
func (s *Server) refreshIntrospection(g grant) *oidc.IntrospectionResponse {
	return &oidc.IntrospectionResponse{
		Active:     true,
		Scope:      g.scopes,
		ClientID:   g.clientID,
		Expiration: oidc.FromTime(g.refreshExpiry),
		AuthTime:   oidc.FromTime(g.authTime),
		Subject:    g.subject,
		Issuer:     s.tokens.issuer,
	}
}

// revocationNeedsToken refuses a revocation request without a token in
// its body: RFC 7009 section 2.1 makes token required, so the request is
// malformed (400 invalid_request, RFC 6749 section 5.2). The library
// revoked nothing and answered 200, as it does for an unknown token.
func revocationNeedsToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if err := r.ParseForm(); err != nil {
				requestError(w, oidc.ErrInvalidRequest().WithDescription("the body is not a form"))
				return
			}
			if r.PostForm.Get("token") == "" {
				requestError(w, oidc.ErrInvalidRequest().WithDescription("token is required in the body (RFC 7009 section 2.1)"))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requestError answers an error of the token service's endpoints as RFC
// 6749 section 5.2 says: invalid_client 401 with a Basic challenge (RFC
// 7235 wants one on every 401), a server fault 500, anything else 400.
// Only the error's code and description are sent, never a parent error.
func requestError(w http.ResponseWriter, err error) {
	var e *oidc.Error
	if !errors.As(err, &e) {
		e = oidc.ErrInvalidRequest().WithDescription("the request is malformed")
	}
	status := http.StatusBadRequest
	switch e.ErrorType {
	case oidc.InvalidClient:
		status = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", basicRealm)
	case oidc.ServerError:
		status = http.StatusInternalServerError
	}
	desc := e.Description
	if desc == "" && status == http.StatusUnauthorized {
		desc = "client authentication failed"
	}
	oauthError(w, status, string(e.ErrorType), desc)
}
