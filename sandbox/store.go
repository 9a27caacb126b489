package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// store is the token service's state, in memory: the sandbox forgets every
// login when it stops, as a fresh deployment would. One mutex guards it all;
// token requests are rare next to data requests, and a single lock makes
// "check then consume" (codes, refresh tokens) atomic by construction.
//
// Codes and refresh tokens are kept only as SHA-256 hashes, so the table
// itself holds nothing a client could present.
type store struct {
	mu         sync.Mutex
	now        func() time.Time
	audience   string // every access token's aud: the data service, {base_url}
	accessTTL  time.Duration
	refreshTTL time.Duration
	keys       keyPair
	clients    map[string]*client
	authReqs   map[string]*authRequest   // by request ID
	codes      map[string]codeEntry      // by code hash
	spent      map[string]codeEntry      // used codes, by hash, to detect reuse
	grants     map[string]*grant         // by grant ID
	refresh    map[string]string         // refresh-token hash → grant ID
	rotated    map[string]rotatedRefresh // used refresh tokens, by hash, to detect reuse
	access     map[string]*accessToken   // by token ID (the JWT's jti)
	lastSweep  time.Time
}

type codeEntry struct {
	authReqID string
	issued    time.Time
}

func newStore(cfg Config, demoSecret, audience string) *store {
	s := &store{
		now:        cfg.Now,
		audience:   audience,
		accessTTL:  cfg.AccessTokenTTL,
		refreshTTL: cfg.RefreshTokenTTL,
		keys:       newKeyPair(),
		authReqs:   map[string]*authRequest{},
		codes:      map[string]codeEntry{},
		spent:      map[string]codeEntry{},
		grants:     map[string]*grant{},
		refresh:    map[string]string{},
		rotated:    map[string]rotatedRefresh{},
		access:     map[string]*accessToken{},
	}
	s.registerClients(demoSecret, func(id string) string { return authPrefix + "/login?id=" + id })
	return s
}

// clockOffset is how far the sandbox clock is from the real one. Every
// time in a token is on the sandbox clock (tokenanswer.go), and the
// library checks a token's exp and iat against the real clock plus a
// verifier's Offset: the verifiers the provider makes are given this one
// (newTokenService), so userinfo, revocation and an id_token_hint judge a
// token by the clock that issued it.
func (s *store) clockOffset() time.Duration { return s.now().Sub(time.Now()) }

func hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// newID is a random identifier: 128 bits, base32, URL-safe.
func newID() string { return rand.Text() }

// authRequest is one pending or finished authorize request.
type authRequest struct {
	id           string
	clientID     string
	redirectURI  string
	state        string
	nonce        string
	scopes       []string
	responseType oidc.ResponseType
	responseMode oidc.ResponseMode
	challenge    *oidc.CodeChallenge
	created      time.Time
	subject      string // set when the user accepts
	authTime     time.Time
	done         bool
}

func (a *authRequest) GetID() string                         { return a.id }
func (a *authRequest) GetACR() string                        { return "" }
func (a *authRequest) GetAMR() []string                      { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string                 { return []string{a.clientID} }
func (a *authRequest) GetAuthTime() time.Time                { return a.authTime }
func (a *authRequest) GetClientID() string                   { return a.clientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.challenge }
func (a *authRequest) GetNonce() string                      { return a.nonce }
func (a *authRequest) GetRedirectURI() string                { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.responseType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.responseMode }
func (a *authRequest) GetScopes() []string                   { return a.scopes }
func (a *authRequest) GetState() string                      { return a.state }
func (a *authRequest) GetSubject() string                    { return a.subject }
func (a *authRequest) Done() bool                            { return a.done }

// snapshot copies a so the library can read it while the table changes.
func (a *authRequest) snapshot() *authRequest {
	c := *a
	c.scopes = slices.Clone(a.scopes)
	return &c
}

var (
	errUnknownRequest = errors.New("unknown or expired login request")
	errCodeReused     = errors.New("authorization code already used; tokens issued with it are revoked")
	errCodeExpired    = errors.New("authorization code expired")
	errUnknownCode    = errors.New("unknown authorization code")
)

func (s *store) CreateAuthRequest(_ context.Context, req *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	a := &authRequest{
		id:           newID(),
		clientID:     req.ClientID,
		redirectURI:  req.RedirectURI,
		state:        req.State,
		nonce:        req.Nonce,
		scopes:       slices.Clone([]string(req.Scopes)),
		responseType: req.ResponseType,
		responseMode: req.ResponseMode,
		created:      s.now(),
	}
	if req.CodeChallenge != "" {
		a.challenge = &oidc.CodeChallenge{Challenge: req.CodeChallenge, Method: req.CodeChallengeMethod}
	}
	s.authReqs[a.id] = a
	return a.snapshot(), nil
}

// liveAuthRequestLocked finds a login that has not timed out.
func (s *store) liveAuthRequestLocked(id string) (*authRequest, bool) {
	a, ok := s.authReqs[id]
	if !ok || s.now().Sub(a.created) > LoginTTL {
		return nil, false
	}
	return a, true
}

func (s *store) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.liveAuthRequestLocked(id)
	if !ok {
		return nil, errUnknownRequest
	}
	return a.snapshot(), nil
}

// authRequestForLogin is AuthRequestByID for the login page, with the
// concrete type.
func (s *store) authRequestForLogin(id string) (*authRequest, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.liveAuthRequestLocked(id)
	if !ok || a.done {
		return nil, false
	}
	return a.snapshot(), true
}

// finishLogin records the user's consent.
func (s *store) finishLogin(id, subject string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.liveAuthRequestLocked(id)
	if !ok || a.done {
		return false
	}
	a.subject, a.authTime, a.done = subject, s.now(), true
	return true
}

func (s *store) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.authReqs[id]; !ok {
		return errUnknownRequest
	}
	s.codes[hash(code)] = codeEntry{authReqID: id, issued: s.now()}
	return nil
}

// AuthRequestByCode consumes the code: it is looked up once, whatever
// happens to the exchange afterwards. A second use is an attack or a bug,
// and as RFC 6749 section 4.1.2 advises, every token issued with the code
// is revoked.
func (s *store) AuthRequestByCode(_ context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := hash(code)
	e, ok := s.codes[h]
	if !ok {
		if used, ok := s.spent[h]; ok {
			s.revokeOriginLocked(used.authReqID)
			return nil, errCodeReused
		}
		return nil, errUnknownCode
	}
	delete(s.codes, h)
	s.spent[h] = e
	if s.now().Sub(e.issued) > CodeTTL {
		delete(s.authReqs, e.authReqID)
		return nil, errCodeExpired
	}
	a, ok := s.authReqs[e.authReqID]
	if !ok {
		return nil, errUnknownRequest
	}
	return a.snapshot(), nil
}

func (s *store) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.authReqs, id)
	return nil
}

// sweepLocked drops what has expired, at most once a minute, so that memory
// stays bounded however many clients come and go.
func (s *store) sweepLocked() {
	now := s.now()
	if now.Sub(s.lastSweep) < time.Minute {
		return
	}
	s.lastSweep = now
	for id, a := range s.authReqs {
		if now.Sub(a.created) > LoginTTL {
			delete(s.authReqs, id)
		}
	}
	for h, e := range s.codes {
		if now.Sub(e.issued) > CodeTTL {
			delete(s.codes, h)
		}
	}
	for h, e := range s.spent { // reuse is detectable for as long as a login lives
		if now.Sub(e.issued) > LoginTTL {
			delete(s.spent, h)
		}
	}
	for id, t := range s.access {
		if !now.Before(t.expiry) {
			delete(s.access, id)
		}
	}
	for id, g := range s.grants {
		if !now.Before(g.refreshExpiry) {
			s.deleteGrantLocked(id, g)
		}
	}
	s.forgetRotatedLocked("", now)
}
