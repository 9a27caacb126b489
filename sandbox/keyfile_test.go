package sandbox_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// publishedKeys is what a sandbox's JWKS says of its two keys.
type publishedKeys struct{ rsaKid, rsaN, ecKid, ecX string }

// jwks reads s's keys as a relying party does: discovery, then jwks_uri.
func jwks(t *testing.T, s *sandbox.Server) publishedKeys {
	t.Helper()
	getJSON := func(url string, v any) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(v) != nil {
			t.Fatalf("GET %s: status %d or not JSON", url, resp.StatusCode)
		}
	}
	var d struct {
		JWKSURI string `json:"jwks_uri"`
	}
	getJSON(s.AuthURL+"/.well-known/openid-configuration", &d)
	var set struct {
		Keys []struct{ Kty, Kid, N, X string }
	}
	getJSON(d.JWKSURI, &set)
	if len(set.Keys) != 2 || set.Keys[0].Kty != "RSA" || set.Keys[1].Kty != "EC" {
		t.Fatalf("JWKS %+v, want the RSA key and the EC key", set.Keys)
	}
	return publishedKeys{set.Keys[0].Kid, set.Keys[0].N, set.Keys[1].Kid, set.Keys[1].X}
}

func startWithKeys(t *testing.T, path string) (*sandbox.Server, error) {
	t.Helper()
	s, err := sandbox.Start(sandbox.Config{KeyFile: path, PerSecond: -1})
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// TestKeyFileMadeOnceAndReused: the first start makes the key file, 0600
// in a 0700 directory; the next start signs with the same keys (the EC
// key, new on every start without a file, shows it) under new key ids,
// and leaves the file as it was; a client signs in and is served.
func TestKeyFileMadeOnceAndReused(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	path := filepath.Join(dir, "keys.pem")
	a, err := startWithKeys(t, path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file after the first start: %v, %v; want a regular file, mode 0600", fi, err)
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("its directory: %v, %v; want mode 0700", di, err)
	}
	made, _ := os.ReadFile(path)
	if bytes.Count(made, []byte("-----BEGIN PRIVATE KEY-----")) != 2 {
		t.Fatalf("key file holds %d bytes, not two PKCS #8 keys", len(made))
	}
	ka := jwks(t, a)
	a.Close()

	b, err := startWithKeys(t, path)
	if err != nil {
		t.Fatal(err)
	}
	kb := jwks(t, b)
	if kb.rsaN != ka.rsaN || kb.ecX != ka.ecX {
		t.Error("the second start did not sign with the keys of the file")
	}
	if kb.rsaKid == ka.rsaKid || kb.ecKid == ka.ecKid {
		t.Error("the second start kept the first one's key ids; each start has its own")
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, made) {
		t.Error("the second start wrote the key file again")
	}
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: b.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: b.DemoSecret})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(api.WithBaseURL(b.BaseURL), api.WithTokenSource(ts))
	if err != nil {
		t.Fatal(err)
	}
	if err := exchanges(t, c); err != nil {
		t.Fatalf("a client of the second start: %v", err)
	}

	other, err := startWithKeys(t, filepath.Join(t.TempDir(), "keys.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if jwks(t, other).ecX == ka.ecX {
		t.Error("a sandbox with another key file has the same EC key")
	}
}

// TestKeyFileRefused: a key file others may read or write, one that is
// not a regular file and one the sandbox did not write are refused with
// what to do, naming the file and never its contents, and left as they
// were.
func TestKeyFileRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pem")
	if _, err := startWithKeys(t, good); err != nil {
		t.Fatal(err)
	}
	keys, _ := os.ReadFile(good)
	cases := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"readable by others", func(p string) error { return writeMode(p, keys, 0o644) }, "chmod 600"},
		{"readable by the group", func(p string) error { return writeMode(p, keys, 0o640) }, "chmod 600"},
		{"writable by the group", func(p string) error { return writeMode(p, keys, 0o620) }, "chmod 600"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }, "not a regular file"},
		{"not PEM", func(p string) error { return writeMode(p, []byte("not a key\n"), 0o600) }, "move it away"},
		{"one key of two", func(p string) error { return writeMode(p, keys[:bytes.LastIndex(keys, []byte("-----BEGIN"))], 0o600) }, "move it away"},
		{"the keys swapped", func(p string) error {
			i := bytes.LastIndex(keys, []byte("-----BEGIN"))
			return writeMode(p, append(append([]byte(nil), keys[i:]...), keys[:i]...), 0o600)
		}, "move it away"},
		{"too large", func(p string) error { return writeMode(p, bytes.Repeat(keys, 40), 0o600) }, "move it away"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
		if err := c.make(path); err != nil {
			t.Fatal(err)
		}
		before := mustStat(t, path)
		_, err := startWithKeys(t, path)
		if err == nil {
			t.Errorf("%s: started", c.name)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, sandbox.ErrKeyFile) || !strings.Contains(msg, path) || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %v; want ErrKeyFile naming the file and saying %q", c.name, err, c.want)
		}
		if strings.Contains(msg, "PRIVATE KEY") || strings.Contains(msg, "MII") {
			t.Errorf("%s: the message quotes the file", c.name)
		}
		if after := mustStat(t, path); after.ModTime() != before.ModTime() || after.Mode() != before.Mode() || after.Size() != before.Size() {
			t.Errorf("%s: the refused file was changed", c.name)
		}
	}
}

// writeMode writes a file with mode perm, whatever the umask.
func writeMode(path string, data []byte, perm os.FileMode) error {
	if err := os.WriteFile(path, data, perm); err != nil {
		return err
	}
	return os.Chmod(path, perm)
}

// TestKeyFileUnusable: a key file whose directory is a file can be
// neither read nor made; the sandbox starts with keys of its own.
func TestKeyFileUnusable(t *testing.T) {
	t.Parallel()
	notDir := filepath.Join(t.TempDir(), "a-file")
	if err := writeMode(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := startWithKeys(t, filepath.Join(notDir, "keys.pem"))
	if err != nil {
		t.Fatalf("a key file that cannot be made stopped the start: %v", err)
	}
	jwks(t, s)
	if fi := mustStat(t, notDir); fi.Size() != 0 || !fi.Mode().IsRegular() {
		t.Error("the file in the way was changed")
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
