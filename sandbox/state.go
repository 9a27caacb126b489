package sandbox

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// A sandbox with a state directory (`chainwatch sandbox --state DIR`)
// keeps its identity across restarts: the signing keys (so tokens it
// issued still verify), the demo client's secret, and the grants with
// their refresh tokens (so a stored login survives) and the access tokens
// (so a running chainwatch carries on without even a new token), and the
// rotated refresh tokens (so a reuse is caught after a restart). Codes and
// pending logins are not kept: they live for a minute.
//
// The file holds private keys and the demo secret, so it is written 0600
// in a 0700 directory, atomically, and refused when others can read it.

const stateFile = "sandbox-state.json"

type savedState struct {
	Version    int           `json:"version"`
	DemoSecret string        `json:"demo_secret"`
	RSA        savedKey      `json:"rsa_key"`
	EC         savedKey      `json:"ec_key"`
	Grants     []savedGrant  `json:"grants"`
	Access     []savedAccess `json:"access_tokens"`
	// Rotated are the used refresh tokens (hashes), so that reuse is
	// caught after a restart too (reuse.go). A file without them is read.
	Rotated []savedRotated `json:"rotated_refresh,omitempty"`
}

type savedRotated struct {
	Hash, GrantID string
	Expiry        time.Time
}

type savedKey struct {
	ID    string `json:"kid"`
	PKCS8 []byte `json:"pkcs8"`
}

type savedGrant struct {
	ID, ClientID, Subject, Origin, RefreshHash string
	Scopes                                     []string
	AuthTime, RefreshExpiry                    time.Time
}

type savedAccess struct {
	ID, ClientID, Subject, GrantID, Origin string
	Scopes                                 []string
	Expiry                                 time.Time
}

// loadState reads dir's state; nil (and no error) when there is none yet.
func loadState(dir string) (*savedState, error) {
	path := filepath.Join(dir, stateFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox state: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("sandbox state %s is open to others (mode %04o): it holds private keys; run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sandbox state: %w", err)
	}
	var st savedState
	if err := json.Unmarshal(data, &st); err != nil || st.Version != 1 {
		return nil, fmt.Errorf("sandbox state %s is not a state file this sandbox wrote; move it away to start afresh", path)
	}
	return &st, nil
}

// keys rebuilds the saved key pair.
func (st *savedState) keys() (keyPair, error) {
	r, err1 := x509.ParsePKCS8PrivateKey(st.RSA.PKCS8)
	e, err2 := x509.ParsePKCS8PrivateKey(st.EC.PKCS8)
	rk, ok1 := r.(*rsa.PrivateKey)
	ek, ok2 := e.(*ecdsa.PrivateKey)
	if err := errors.Join(err1, err2); err != nil || !ok1 || !ok2 {
		return keyPair{}, errors.New("sandbox state: the saved keys are damaged; move the file away to start afresh")
	}
	return keyPair{
		rsa: &signingKey{id: st.RSA.ID, alg: jose.RS256, key: rk},
		ec:  &signingKey{id: st.EC.ID, alg: jose.ES256, key: ek},
	}, nil
}

// restoreLocked puts the saved grants and access tokens in the store.
func (s *store) restoreLocked(st *savedState) {
	for _, g := range st.Grants {
		s.grants[g.ID] = &grant{id: g.ID, clientID: g.ClientID, subject: g.Subject, scopes: g.Scopes, authTime: g.AuthTime,
			origin: g.Origin, refreshHash: g.RefreshHash, refreshExpiry: g.RefreshExpiry}
		s.refresh[g.RefreshHash] = g.ID
	}
	for _, r := range st.Rotated {
		s.rotated[r.Hash] = rotatedRefresh{grantID: r.GrantID, expiry: r.Expiry}
	}
	for _, a := range st.Access {
		s.access[a.ID] = &accessToken{id: a.ID, clientID: a.ClientID, subject: a.Subject, scopes: a.Scopes,
			issued: a.Expiry.Add(-s.accessTTL), expiry: a.Expiry, grantID: a.GrantID, origin: a.Origin}
	}
}

// save writes the store's lasting state to dir (see the top of this file).
func (s *store) save(dir, demoSecret string) error {
	s.mu.Lock()
	st := savedState{Version: 1, DemoSecret: demoSecret}
	for _, g := range s.grants {
		st.Grants = append(st.Grants, savedGrant{ID: g.id, ClientID: g.clientID, Subject: g.subject, Origin: g.origin,
			RefreshHash: g.refreshHash, Scopes: g.scopes, AuthTime: g.authTime, RefreshExpiry: g.refreshExpiry})
	}
	for _, a := range s.access {
		st.Access = append(st.Access, savedAccess{ID: a.id, ClientID: a.clientID, Subject: a.subject, GrantID: a.grantID,
			Origin: a.origin, Scopes: a.scopes, Expiry: a.expiry})
	}
	for h, r := range s.rotated {
		st.Rotated = append(st.Rotated, savedRotated{Hash: h, GrantID: r.grantID, Expiry: r.expiry})
	}
	keys := s.keys
	s.mu.Unlock()
	var err1, err2 error
	st.RSA.ID, st.EC.ID = keys.rsa.id, keys.ec.id
	st.RSA.PKCS8, err1 = x509.MarshalPKCS8PrivateKey(keys.rsa.key)
	st.EC.PKCS8, err2 = x509.MarshalPKCS8PrivateKey(keys.ec.key)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	data, err := json.Marshal(&st)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("sandbox state: %w", err)
	}
	tmp, err := os.CreateTemp(dir, stateFile+".*")
	if err != nil {
		return fmt.Errorf("sandbox state: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("sandbox state: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, stateFile)); err != nil {
		return fmt.Errorf("sandbox state: %w", err)
	}
	return nil
}
