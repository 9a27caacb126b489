package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

func sampleToken() *oauth2.Token {
	return &oauth2.Token{
		AccessToken:  "access-file-0001",
		TokenType:    "Bearer",
		RefreshToken: "refresh-file-0001",
		Expiry:       time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		ExpiresIn:    3600,
	}
}

func TestFileTokenStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "token.json")
	s := FileTokenStore{Path: path}
	if tok, err := s.Load(); tok != nil || err != nil {
		t.Fatalf("missing file: %v, %v", tok, err)
	}
	want := sampleToken()
	if err := s.Save(want); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(path)
		di, _ := os.Stat(filepath.Dir(path))
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Errorf("file mode %o, dir mode %o; want 600, 700", fi.Mode().Perm(), di.Mode().Perm())
		}
	}
	var raw map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"access_token", "token_type", "refresh_token", "expiry"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("file lacks %q: %s", k, data)
		}
	}
	if _, ok := raw["expires_in"]; ok {
		t.Error("file stores the relative expires_in")
	}
	got, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got.AccessToken != want.AccessToken || got.RefreshToken != want.RefreshToken || got.TokenType != want.TokenType || !got.Expiry.Equal(want.Expiry) {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
	if err := s.Delete(); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if tok, err := s.Load(); tok != nil || err != nil {
		t.Errorf("after Delete: %v, %v", tok, err)
	}
}

func TestFileTokenStoreAtomicReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "token.json")
	s := FileTokenStore{Path: path}
	for i := range 3 {
		tok := sampleToken()
		tok.RefreshToken = strings.Repeat("r", i+5)
		if err := s.Save(tok); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load()
		if err != nil || got.RefreshToken != tok.RefreshToken {
			t.Fatalf("save %d: %v %v", i, got, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// A failed save (the target is a directory) leaves no temp file and
	// does not disturb what is there.
	if err := os.Mkdir(filepath.Join(dir, "blocked"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := (FileTokenStore{Path: filepath.Join(dir, "blocked")}).Save(sampleToken()); err == nil {
		t.Error("save over a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("after failed save: %v", entries)
	}
}

func TestFileTokenStoreRefusesLoosePermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "token.json")
	s := FileTokenStore{Path: path}
	if err := s.Save(sampleToken()); err != nil {
		t.Fatal(err)
	}
	for mode, word := range map[os.FileMode]string{0o644: "readable", 0o640: "readable", 0o620: "writable"} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		tok, err := s.Load()
		if tok != nil || err == nil || !strings.Contains(err.Error(), "run: chmod 600 "+path) || !strings.Contains(err.Error(), word+" by others") {
			t.Errorf("mode %o: %v", mode, err)
		}
	}
	os.Chmod(path, 0o644)
	_, err := s.Load()
	if want := "token file " + path + " is readable by others (mode 0644); run: chmod 600 " + path; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestFileTokenStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token.json")
	for _, content := range []string{`{"access_token": "secret-partial-abc`, `{}`, `not json at all secret-xyz`} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		tok, err := FileTokenStore{Path: path}.Load()
		if tok != nil || err == nil || !strings.Contains(err.Error(), "corrupt") || strings.Contains(err.Error(), "secret") {
			t.Errorf("content %q: %v, %v", content, tok, err)
		}
	}
}

func TestTokenDefaultPath(t *testing.T) {
	p, err := DefaultTokenPath()
	if err != nil {
		t.Skip("no user config dir:", err)
	}
	if filepath.Base(p) != "token.json" || filepath.Base(filepath.Dir(p)) != "chainwatch" {
		t.Errorf("DefaultTokenPath = %q", p)
	}
}

func TestMemoryTokenStore(t *testing.T) {
	var m MemoryTokenStore
	if tok, err := m.Load(); tok != nil || err != nil {
		t.Fatal(tok, err)
	}
	tok := sampleToken()
	m.Save(tok)
	tok.AccessToken = "changed-after-save"
	got, _ := m.Load()
	if got.AccessToken != "access-file-0001" {
		t.Error("store shares the caller's token")
	}
	m.Delete()
	if got, _ := m.Load(); got != nil {
		t.Error("Delete kept the token")
	}
}

// A refresh saves only the token; the service the login belongs to must
// survive it, or the next run would not know where to refresh.
func TestFileTokenStoreKeepsLoginServiceAcrossSave(t *testing.T) {
	s := FileTokenStore{Path: filepath.Join(t.TempDir(), "token.json")}
	svc := &LoginService{AuthURL: "https://auth.example/", BaseURL: "https://api.example/", ClientID: "app", Scopes: []string{"api.market"}}
	if err := s.SaveLogin(sampleToken(), svc); err != nil {
		t.Fatal(err)
	}
	renewed := sampleToken()
	renewed.AccessToken, renewed.RefreshToken = "access-file-0002", "refresh-file-0002"
	if err := s.Save(renewed); err != nil {
		t.Fatal(err)
	}
	tok, got, err := s.LoadLogin()
	if err != nil || tok.RefreshToken != "refresh-file-0002" {
		t.Fatalf("token after Save: %v, %v", tok, err)
	}
	if got == nil || got.AuthURL != svc.AuthURL || got.BaseURL != svc.BaseURL || got.ClientID != "app" || len(got.Scopes) != 1 {
		t.Fatalf("service after Save: %+v", got)
	}
	// A file from before logins recorded their service still loads.
	plain := FileTokenStore{Path: filepath.Join(t.TempDir(), "old.json")}
	if err := plain.Save(sampleToken()); err != nil {
		t.Fatal(err)
	}
	if tok, svc, err := plain.LoadLogin(); err != nil || tok == nil || svc != nil {
		t.Fatalf("old file: %v %v %v", tok, svc, err)
	}
}
