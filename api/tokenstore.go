package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// maxTokenFile bounds what Load reads: a token file is a few kilobytes, and
// anything much larger is not ours.
const maxTokenFile = 1 << 20

// storedToken is the on-disk form. It is our own type rather than
// oauth2.Token's JSON so that the file format does not change when the
// library adds fields, and so that expires_in (relative to a moment that has
// passed) is not written.
type storedToken struct {
	AccessToken  string        `json:"access_token"`
	TokenType    string        `json:"token_type,omitempty"`
	RefreshToken string        `json:"refresh_token,omitempty"`
	Expiry       time.Time     `json:"expiry,omitzero"`
	Service      *LoginService `json:"service,omitempty"`
}

// LoginService records which service and client a stored login belongs to,
// so that later runs (the TUI, a refresh, logout) go back to the same token
// service with the same client ID. None of it is secret.
type LoginService struct {
	AuthURL  string   `json:"auth_url"`
	BaseURL  string   `json:"base_url,omitempty"`
	ClientID string   `json:"client_id"`
	Scopes   []string `json:"scopes,omitempty"`
}

// FileTokenStore keeps the token in a JSON file readable by the owner only.
// The file holds a refresh token, which is as good as the user's login for
// as long as it lives, so it gets the same care as an SSH private key.
type FileTokenStore struct {
	Path string
}

// DefaultTokenPath is where the token is kept unless configured otherwise:
// chainwatch/token.json in the user's configuration directory.
func DefaultTokenPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the user configuration directory for the token file: %w", err)
	}
	return filepath.Join(dir, "chainwatch", "token.json"), nil
}

// Load reads the stored token; (nil, nil) when there is none. It refuses a
// file that group or others may read or write: if they can read it, the
// login may already be stolen, and if they can write it, they can substitute
// their own token. Refusing makes the user fix it instead of silently
// continuing. The check uses the opened file, so it applies to exactly what
// is read. (Windows has no such permission bits; the check is skipped there.)
func (s FileTokenStore) Load() (*oauth2.Token, error) {
	tok, _, err := s.LoadLogin()
	return tok, err
}

// LoadLogin is Load plus the service the login belongs to; svc is nil for a
// file written before logins recorded it, or by Save alone.
func (s FileTokenStore) LoadLogin() (tok *oauth2.Token, svc *LoginService, err error) {
	st, err := s.load()
	if st == nil || err != nil {
		return nil, nil, err
	}
	return &oauth2.Token{
		AccessToken:  st.AccessToken,
		TokenType:    st.TokenType,
		RefreshToken: st.RefreshToken,
		Expiry:       st.Expiry,
	}, st.Service, nil
}

// load reads and checks the file; (nil, nil) when there is none.
func (s FileTokenStore) load() (*storedToken, error) {
	if s.Path == "" {
		return nil, errors.New("token file path is empty")
	}
	// Regular and small, or refused before a byte is read: a FIFO would
	// block forever, /dev/zero would be read until memory runs out.
	data, fi, err := ReadRegularFile(s.Path, maxTokenFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, ErrNotRegular):
		return nil, fmt.Errorf("token file %w", err)
	case errors.Is(err, ErrTooLarge):
		// The contents are secrets: the errors describe, never quote, them.
		return nil, fmt.Errorf("token file %s is corrupt (too large); run `chainwatch login` again", s.Path)
	case err != nil:
		return nil, fmt.Errorf("cannot read token file: %w", err)
	}
	if err := checkPrivate("token file", s.Path, fi); err != nil {
		return nil, err
	}
	var st storedToken
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("token file %s is corrupt (not valid token JSON); run `chainwatch login` again", s.Path)
	}
	if st.AccessToken == "" && st.RefreshToken == "" {
		return nil, fmt.Errorf("token file %s is corrupt (it holds no token); run `chainwatch login` again", s.Path)
	}
	return &st, nil
}

// Save replaces the stored token atomically: it writes a new file (mode 0600
// from the start, so the token is never readable by others even briefly) in
// the same directory, flushes it to disk and renames it over the old one. A
// crash or full disk therefore leaves either the old file or the new one,
// never a truncated one; with rotating refresh tokens a lost write means a
// lost login. The directory is created 0700 if missing.
//
// Save keeps the LoginService already in the file: a refresh changes the
// token, not the service it came from.
func (s FileTokenStore) Save(tok *oauth2.Token) error {
	var svc *LoginService
	if old, err := s.load(); err == nil && old != nil {
		svc = old.Service
	}
	return s.SaveLogin(tok, svc)
}

// SaveLogin saves tok together with the service it belongs to, as Save does.
func (s FileTokenStore) SaveLogin(tok *oauth2.Token, svc *LoginService) (err error) {
	if s.Path == "" {
		return errors.New("token file path is empty")
	}
	if tok == nil {
		return errors.New("cannot save an empty token")
	}
	data, err := json.MarshalIndent(storedToken{
		AccessToken:  tok.AccessToken,
		TokenType:    tok.TokenType,
		RefreshToken: tok.RefreshToken,
		Expiry:       tok.Expiry,
		Service:      svc,
	}, "", "  ")
	if err != nil {
		return fmt.Errorf("cannot encode token: %w", err)
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create token directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(s.Path)+".*.tmp") // created 0600
	if err != nil {
		return fmt.Errorf("cannot save token: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		return fmt.Errorf("cannot save token: %w", err)
	}
	if _, err = f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("cannot save token: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("cannot save token: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("cannot save token: %w", err)
	}
	if err = os.Rename(tmp, s.Path); err != nil {
		return fmt.Errorf("cannot save token: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir flushes the directory entry of a rename so that it survives a
// power loss. It is best effort: the rename itself already happened, and
// some systems cannot open or sync a directory.
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Delete removes the stored token, for logout. A missing file is not an error.
func (s FileTokenStore) Delete() error {
	if s.Path == "" {
		return errors.New("token file path is empty")
	}
	if err := os.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot delete token file: %w", err)
	}
	_ = os.Remove(s.LockPath()) // best effort: it holds nothing
	return nil
}

// MemoryTokenStore keeps the token in memory only: for tests, and for
// sessions (such as a sandbox) that must not leave a login on disk. It is
// safe for concurrent use and stores copies, so callers cannot change the
// stored token behind its back.
type MemoryTokenStore struct {
	mu  sync.Mutex
	tok *oauth2.Token
}

// Load returns a copy of the stored token, or (nil, nil).
func (m *MemoryTokenStore) Load() (*oauth2.Token, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tok == nil {
		return nil, nil
	}
	t := *m.tok
	return &t, nil
}

// Save stores a copy of tok.
func (m *MemoryTokenStore) Save(tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("cannot save an empty token")
	}
	t := *tok
	m.mu.Lock()
	m.tok = &t
	m.mu.Unlock()
	return nil
}

// Delete forgets the stored token.
func (m *MemoryTokenStore) Delete() error {
	m.mu.Lock()
	m.tok = nil
	m.mu.Unlock()
	return nil
}
