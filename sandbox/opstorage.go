package sandbox

import (
	"context"
	"errors"
	"slices"

	"github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// The rest of op.Storage: clients, users, keys, userinfo.

var errUnknownClient = errors.New("unknown client")

func (s *store) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	c, ok := s.clients[id] // registered at start, never changed
	if !ok {
		return nil, oidc.ErrInvalidClient().WithParent(errUnknownClient)
	}
	return c, nil
}

func (s *store) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	c, ok := s.clients[id]
	if !ok || !c.checkSecret(secret) {
		return oidc.ErrInvalidClient().WithDescription("client authentication failed")
	}
	return nil
}

// ClientCredentials authenticates a client-credentials request.
func (s *store) ClientCredentials(_ context.Context, id, secret string) (op.Client, error) {
	c, ok := s.clients[id]
	if !ok || !c.checkSecret(secret) {
		return nil, oidc.ErrInvalidClient().WithDescription("client authentication failed")
	}
	return c, nil
}

// ClientCredentialsTokenRequest checks the requested scopes. No scope means
// api.allaccess; offline_access is dropped, since this grant never gets a
// refresh token (RFC 6749 section 4.4.3); an unknown scope is refused.
func (s *store) ClientCredentialsTokenRequest(_ context.Context, id string, scopes []string) (op.TokenRequest, error) {
	var granted []string
	for _, sc := range scopes {
		switch {
		case sc == oidc.ScopeOfflineAccess:
		case slices.Contains(apiScopes, sc):
			if !slices.Contains(granted, sc) {
				granted = append(granted, sc)
			}
		default:
			return nil, oidc.ErrInvalidScope().WithDescription("unknown scope %.40q", sc)
		}
	}
	if len(granted) == 0 {
		granted = []string{defaultScope}
	}
	return &ccRequest{clientID: id, scopes: granted}, nil
}

func (s *store) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil // deprecated by the library in favour of SetUserinfoFromRequest
}

// SetUserinfoFromRequest fills the ID token's user claims.
func (s *store) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	setUser(info, req.GetSubject(), slices.Contains(scopes, oidc.ScopeProfile))
	return nil
}

// SetUserinfoFromToken answers /connect/userinfo. It checks the token's
// record, not just its signature, so a revoked or expired token is refused.
func (s *store) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, tokenID, _, _ string) error {
	t, ok := s.liveAccess(tokenID)
	if !ok {
		return oidc.ErrAccessDenied().WithDescription("token expired or revoked")
	}
	setUser(info, t.subject, slices.Contains(t.scopes, oidc.ScopeProfile))
	return nil
}

func setUser(info *oidc.UserInfo, subject string, profile bool) {
	info.Subject = subject
	if profile && subject == DemoUser {
		info.PreferredUsername = DemoUser
		info.Name = "Demo Trader"
	}
}

// SetIntrospectionFromToken is the library's introspection, whose route
// the sandbox's own endpoint (introspect.go) takes; it says the same.
func (s *store) SetIntrospectionFromToken(_ context.Context, resp *oidc.IntrospectionResponse, tokenID, _, _ string) error {
	t, ok := s.liveAccess(tokenID)
	if !ok {
		// An error, not nil: the library marks the answer active unless
		// the storage refuses, and a revoked or expired token is inactive
		// (RFC 7662 section 2.2).
		return errInactive
	}
	resp.Active = true
	resp.Scope = t.scopes
	resp.ClientID = t.clientID
	resp.Subject = t.subject
	resp.Expiration = oidc.FromTime(t.expiry)
	resp.Audience = []string{s.audience}
	return nil
}

var errInactive = errors.New("token expired or revoked")

func (s *store) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

func (s *store) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errNotSupported // no JWT-profile clients are registered
}

func (s *store) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errNotSupported
}

func (s *store) Health(context.Context) error { return nil }
