package sandbox

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// grant is one user login that holds a refresh token. Rotation replaces
// the refresh token's hash; revoking the grant ends every access token it
// issued (RFC 7009 section 2.1), which is what `chainwatch logout` relies on.
type grant struct {
	id            string
	clientID      string
	subject       string
	scopes        []string
	authTime      time.Time
	origin        string // authorize request the grant came from
	refreshHash   string
	refreshExpiry time.Time
}

// accessToken is the server-side record of an issued JWT. Deleting it
// revokes the token at once: the data endpoints look it up on every request.
type accessToken struct {
	id       string
	clientID string
	subject  string
	scopes   []string
	issued   time.Time // on the sandbox clock, as expiry
	expiry   time.Time
	grantID  string // empty when no refresh token stands behind it
	origin   string // authorize request, for code-reuse revocation
}

// ccRequest is a client-credentials token request: the client acts for
// itself, so it is also the subject.
type ccRequest struct {
	clientID string
	scopes   []string
}

func (r *ccRequest) GetSubject() string    { return r.clientID }
func (r *ccRequest) GetAudience() []string { return []string{r.clientID} }
func (r *ccRequest) GetScopes() []string   { return r.scopes }

// refreshRequest is a refresh-token request, resolved to its grant.
type refreshRequest struct {
	g      grant
	scopes []string
}

func (r *refreshRequest) GetAMR() []string                 { return []string{"pwd"} }
func (r *refreshRequest) GetAudience() []string            { return []string{r.g.clientID} }
func (r *refreshRequest) GetAuthTime() time.Time           { return r.g.authTime }
func (r *refreshRequest) GetClientID() string              { return r.g.clientID }
func (r *refreshRequest) GetScopes() []string              { return r.scopes }
func (r *refreshRequest) GetSubject() string               { return r.g.subject }
func (r *refreshRequest) SetCurrentScopes(scopes []string) { r.scopes = scopes }

var (
	errRefreshInvalid = errors.New("refresh token is unknown, used, expired or revoked")
	errNotSupported   = errors.New("not supported by the sandbox")
)

// requestInfo reads who asked and from which login.
func requestInfo(req op.TokenRequest) (clientID, origin, grantID string) {
	switch r := req.(type) {
	case *authRequest:
		return r.clientID, r.id, ""
	case *ccRequest:
		return r.clientID, "", ""
	case *refreshRequest:
		return r.g.clientID, r.g.origin, r.g.id
	}
	return "", "", ""
}

func (s *store) newAccessLocked(req op.TokenRequest, grantID string) *accessToken {
	clientID, origin, _ := requestInfo(req)
	now := s.now()
	t := &accessToken{
		id:       newID(),
		clientID: clientID,
		subject:  req.GetSubject(),
		scopes:   slices.Clone(req.GetScopes()),
		issued:   now,
		expiry:   now.Add(s.accessTTL),
		grantID:  grantID,
		origin:   origin,
	}
	s.access[t.id] = t
	return t
}

func (s *store) CreateAccessToken(_ context.Context, req op.TokenRequest) (string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	t := s.newAccessLocked(req, "")
	return t.id, t.expiry, nil
}

// CreateAccessAndRefreshTokens starts a grant (code exchange) or rotates
// one (refresh). The rotation checks and consumes the presented refresh
// token under the lock, so of two racing uses of one token exactly one
// wins, and the others are reuse (reuse.go).
func (s *store) CreateAccessAndRefreshTokens(_ context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	var g *grant
	if current == "" {
		clientID, origin, _ := requestInfo(req)
		g = &grant{id: newID(), clientID: clientID, subject: req.GetSubject(), scopes: slices.Clone(req.GetScopes()), origin: origin}
		if a, ok := req.(*authRequest); ok {
			g.authTime = a.authTime
		}
		s.grants[g.id] = g
	} else {
		var err error
		if g, err = s.presentedGrantLocked(current); err != nil {
			return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("%s", err)
		}
	}
	token := s.rotateLocked(g)
	t := s.newAccessLocked(req, g.id)
	return t.id, token, t.expiry, nil
}

func (s *store) TokenRequestByRefreshToken(_ context.Context, token string) (op.RefreshTokenRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	found, err := s.presentedGrantLocked(token)
	if err != nil {
		return nil, err
	}
	g := *found
	g.scopes = slices.Clone(g.scopes)
	return &refreshRequest{g: g, scopes: g.scopes}, nil
}

func (s *store) TerminateSession(_ context.Context, userID, clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, g := range s.grants {
		if g.subject == userID && g.clientID == clientID {
			s.deleteGrantLocked(id, g)
		}
	}
	return nil
}

// grantRef marks a token ID handed out by GetRefreshTokenInfo, so that
// RevokeToken can tell it from an access token's ID.
const grantRef = "grant:"

func (s *store) GetRefreshTokenInfo(_ context.Context, _ string, token string) (string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.grantOfRefreshLocked(token)
	if !ok {
		return "", "", op.ErrInvalidRefreshToken
	}
	return g.subject, grantRef + g.id, nil
}

// RevokeToken revokes an access token (by ID) or a whole grant. Unknown
// tokens are not an error (RFC 7009 section 2.2): the goal is reached.
func (s *store) RevokeToken(_ context.Context, tokenOrID, _ string, clientID string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := strings.CutPrefix(tokenOrID, grantRef); ok {
		g, ok := s.grants[id]
		if !ok {
			return nil
		}
		if g.clientID != clientID {
			return oidc.ErrInvalidClient().WithDescription("token was not issued to this client")
		}
		s.deleteGrantLocked(id, g)
		return nil
	}
	t, ok := s.access[tokenOrID]
	if !ok {
		return nil
	}
	if t.clientID != clientID {
		return oidc.ErrInvalidClient().WithDescription("token was not issued to this client")
	}
	delete(s.access, t.id)
	return nil
}

func (s *store) deleteGrantLocked(id string, g *grant) {
	delete(s.refresh, g.refreshHash)
	delete(s.grants, id)
	s.forgetRotatedLocked(id, time.Time{})
	for tid, t := range s.access {
		if t.grantID == id {
			delete(s.access, tid)
		}
	}
}

// revokeOriginLocked ends everything issued from one authorize request.
func (s *store) revokeOriginLocked(origin string) {
	for id, g := range s.grants {
		if g.origin == origin {
			s.deleteGrantLocked(id, g)
		}
	}
	for id, t := range s.access {
		if t.origin == origin {
			delete(s.access, id)
		}
	}
}

// liveAccess returns a copy of the record of an unexpired, unrevoked token.
func (s *store) liveAccess(id string) (accessToken, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.access[id]
	if !ok || !s.now().Before(t.expiry) {
		return accessToken{}, false
	}
	c := *t
	c.scopes = slices.Clone(t.scopes)
	return c, true
}
