package sandbox

import (
	"errors"
	"time"
)

// Refresh tokens rotate: each use returns a new one and the used one is
// dead. A dead one presented again means two parties hold the grant's
// tokens (a copy was stolen, or a client lost track of the rotation), and
// the server cannot tell which is the rightful one, so RFC 9700 section
// 4.14.2 has it revoke the whole grant: its access tokens and its current
// refresh token stop working at once, and the user signs in again. The
// store remembers each rotated token (its hash) with its grant until the
// token would have expired anyway.
//
// A client that shares its refresh token between processes must therefore
// never use one another process has rotated: chainwatch's processes
// refresh under a lock on the token file and re-read it first
// (api/tokenlock.go).

// rotatedRefresh is a refresh token that was used and replaced.
type rotatedRefresh struct {
	grantID string
	expiry  time.Time // the token's own: a later use is refused as expired
}

var errRefreshReused = errors.New("refresh token already used: every token of its grant is revoked (RFC 9700 section 4.14.2)")

// presentedGrantLocked is the grant of a refresh token presented at the
// token endpoint. A rotated token ends its grant there and then.
func (s *store) presentedGrantLocked(token string) (*grant, error) {
	h := hash(token)
	now := s.now()
	if id, ok := s.refresh[h]; ok {
		if g := s.grants[id]; now.Before(g.refreshExpiry) {
			return g, nil
		}
		return nil, errRefreshInvalid
	}
	r, ok := s.rotated[h]
	if !ok || !now.Before(r.expiry) {
		return nil, errRefreshInvalid
	}
	if g, ok := s.grants[r.grantID]; ok {
		s.deleteGrantLocked(r.grantID, g)
	}
	return nil, errRefreshReused
}

// grantOfRefreshLocked is the grant a refresh token belongs to, current or
// rotated, for revocation: revoking a rotated token ends its grant too.
func (s *store) grantOfRefreshLocked(token string) (*grant, bool) {
	h := hash(token)
	id, ok := s.refresh[h]
	if r, rotated := s.rotated[h]; !ok && rotated && s.now().Before(r.expiry) {
		id, ok = r.grantID, true
	}
	g, live := s.grants[id]
	return g, ok && live
}

// rotateLocked gives g a new refresh token and returns it; the one it
// replaces is remembered as rotated.
func (s *store) rotateLocked(g *grant) string {
	if g.refreshHash != "" {
		s.rotated[g.refreshHash] = rotatedRefresh{grantID: g.id, expiry: g.refreshExpiry}
		delete(s.refresh, g.refreshHash)
	}
	token := newID()
	g.refreshHash = hash(token)
	g.refreshExpiry = s.now().Add(s.refreshTTL)
	s.refresh[g.refreshHash] = g.id
	return token
}

// liveRefresh returns a copy of the grant of a current, unexpired refresh
// token issued to clientID, for introspection.
func (s *store) liveRefresh(token, clientID string) (grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.refresh[hash(token)]
	if !ok {
		return grant{}, false
	}
	g := *s.grants[id]
	if g.clientID != clientID || !s.now().Before(g.refreshExpiry) {
		return grant{}, false
	}
	g.scopes = append([]string(nil), g.scopes...)
	return g, true
}

// forgetRotatedLocked drops the rotated tokens of a grant that ends, or,
// with id "", those that have expired.
func (s *store) forgetRotatedLocked(id string, now time.Time) {
	for h, r := range s.rotated {
		if r.grantID == id || (id == "" && !now.Before(r.expiry)) {
			delete(s.rotated, h)
		}
	}
}
