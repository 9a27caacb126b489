package config

import (
	"chainwatch/config/configtest"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

const fullConfig = `
symbol = "qqq"
mode = "delayed"
theme = "light"
colorblind = true
flash = false
block_size = 250
tape_size = 20000
[budget]
points_per_day = 1200
share = 0.5
[service]
base_url = " https://api.example.com "
auth_url = "https://auth.example.com"
client_id = "my-client"
client_secret = "s3cr3t-value"
token_file = "/tmp/tok.json"
`

func TestConfigFullExample(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), fullConfig, 0o600)
	fc, exists, err := Load(path, true, nil)
	if err != nil || !exists {
		t.Fatalf("load: %v, exists %v", err, exists)
	}
	if fc.Symbol != "QQQ" || fc.Mode != "delayed" || fc.Theme != "light" || fc.ColorBlind == nil || !*fc.ColorBlind || fc.Flash == nil || *fc.Flash ||
		fc.BlockSize == nil || *fc.BlockSize != 250 || fc.TapeSize == nil || *fc.TapeSize != 20000 ||
		fc.Budget.PointsPerDay == nil || *fc.Budget.PointsPerDay != 1200 || fc.Budget.Share == nil || *fc.Budget.Share != 0.5 {
		t.Fatalf("decoded %+v", fc)
	}
	svc := fc.Service
	if svc.BaseURL != "https://api.example.com" || svc.AuthURL != "https://auth.example.com" || svc.ClientID != "my-client" ||
		svc.ClientSecret != "s3cr3t-value" || svc.TokenFile != "/tmp/tok.json" || svc.Path != path {
		t.Fatalf("service %+v", svc)
	}
	// The secret does not print, however the struct is formatted.
	for _, s := range []string{fmt.Sprint(fc), fmt.Sprintf("%+v", fc), fmt.Sprintf("%#v", fc), fmt.Sprintf("%v", svc)} {
		if strings.Contains(s, "s3cr3t") {
			t.Fatalf("the secret printed: %s", s)
		}
	}
}

// TestConfigReadmeExample keeps the configuration page's example
// (docs/configuration.md) a file that loads.
func TestConfigReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```toml\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/configuration.md has no ```toml example")
	}
	body := string(m[1])
	for _, k := range configKeys {
		if !strings.Contains(body, k[strings.LastIndex(k, ".")+1:]+" =") {
			t.Errorf("docs/configuration.md's example leaves out %s", k)
		}
	}
	path := configtest.Write(t, t.TempDir(), body, 0o600)
	if _, _, err := Load(path, true, nil); err != nil {
		t.Fatalf("docs/configuration.md's example: %v", err)
	}
}

func TestConfigEmptyFileAndEmptyStrings(t *testing.T) {
	for _, body := range []string{"", "# nothing\n", "symbol = \"\"\nmode = \"\"\n[service]\nbase_url = \"\"\n"} {
		path := configtest.Write(t, t.TempDir(), body, 0o644)
		fc, exists, err := Load(path, false, nil)
		if err != nil || !exists || fc.Symbol != "" || fc.BlockSize != nil || fc.Service.BaseURL != "" {
			t.Fatalf("%q: %+v %v %v", body, fc, exists, err)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // all in the message, after the path
	}{
		{"syntax", "symbol = \"SPY\"\nmode = live\n", []string{":2:", "expected value"}},
		{"duplicate", "theme = \"dark\"\ntheme = \"light\"\n", []string{":2:", "theme", "already been defined"}},
		{"type", "block_size = \"big\"\n", []string{":1", "block_size", "wrong type", "string", "integer"}},
		{"type in a table", "[budget]\nshare = \"half\"\n", []string{":2", "budget.share", "wrong type"}},
		{"bool", "colorblind = \"yes\"\n", []string{"colorblind", "wrong type"}},
		{"flash", "flash = 0\n", []string{"flash", "wrong type"}},
		{"unknown key", "symbol = \"SPY\"\ncolour = \"red\"\n[budget]\nper_day = 1\n", []string{"unknown key colour, budget.per_day", "known: symbol"}},
		{"unknown table", "[server]\nurl = \"x\"\n", []string{"unknown key server"}},
		{"mode", "mode = \"fast\"\n", []string{"mode: \"fast\": want live or delayed"}},
		{"theme", "theme = \"blue\"\n", []string{"theme: \"blue\": want auto, dark or light"}},
		{"symbol", "symbol = \"S P Y\"\n", []string{"config.toml: symbol \"S P Y\": a blank is not part of a symbol"}},
		{"symbol too long", "symbol = \"ABCDEFGHIJK\"\n", []string{"symbol \"ABCDEFGHIJK\": 11 characters"}},
		{"block size", "block_size = 0\n", []string{"block_size: 0: want a trade size of at least 1"}},
		{"tape size small", "tape_size = 99\n", []string{"tape_size: 99: want 100 to 100000"}},
		{"tape size big", "tape_size = 100001\n", []string{"tape_size: 100001"}},
		{"per day", "[budget]\npoints_per_day = -5\n", []string{"[budget] points_per_day: -5: want points per trading day >= 0"}},
		{"share zero", "[budget]\nshare = 0\n", []string{"[budget] share: 0: want a share", "(0, 1]"}},
		{"share above one", "[budget]\nshare = 1.5\n", []string{"[budget] share: 1.5"}},
		{"share nan", "[budget]\nshare = nan\n", []string{"[budget] share: NaN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configtest.Write(t, t.TempDir(), tc.body, 0o600)
			_, _, err := Load(path, false, nil)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path) {
				t.Errorf("%q does not start with the file's path", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestConfigMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	fc, exists, err := Load(path, false, nil)
	if err != nil || exists || fc.Symbol != "" {
		t.Fatalf("a missing default file: %+v %v %v", fc, exists, err)
	}
	if _, _, err := Load(path, true, nil); err == nil || !strings.Contains(err.Error(), "--config "+path+": no such file") {
		t.Fatalf("a missing --config file: %v", err)
	}
	if _, _, err := Load(t.TempDir(), true, nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("a directory: %v", err)
	}
}

// TestConfigSecretNeedsPrivateFile: like ssh with a key, a client secret
// in a file others can read is refused, with the command that fixes it.
func TestConfigSecretNeedsPrivateFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	const body = "[service]\nclient_secret = \"hunter2-secret\"\n"
	for _, perm := range []os.FileMode{0o644, 0o640, 0o604, 0o660} {
		path := configtest.Write(t, t.TempDir(), body, perm)
		_, _, err := Load(path, false, nil)
		if err == nil || !strings.Contains(err.Error(), "chmod 600 "+path) || !strings.Contains(err.Error(), fmt.Sprintf("%04o", perm)) {
			t.Fatalf("mode %04o: %v", perm, err)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("the error shows the secret: %v", err)
		}
	}
	for _, perm := range []os.FileMode{0o600, 0o400} {
		path := configtest.Write(t, t.TempDir(), body, perm)
		if fc, _, err := Load(path, false, nil); err != nil || fc.Service.ClientSecret != "hunter2-secret" {
			t.Fatalf("mode %04o: %v", perm, err)
		}
	}
	// Without a secret, a readable file is fine: the rest is not secret.
	path := configtest.Write(t, t.TempDir(), "[service]\nclient_id = \"x\"\n", 0o644)
	if _, _, err := Load(path, false, nil); err != nil {
		t.Fatal(err)
	}
}

// TestConfigSecretNotInSyntaxErrors: the TOML parser quotes what it found,
// which on a client_secret line is (part of) the secret.
func TestConfigSecretNotInSyntaxErrors(t *testing.T) {
	for _, body := range []string{
		"[service]\nclient_secret = abcdefsecret\n",
		"[service]\nclient_secret = \"abcdefsecret\" trailing\n",
		"[service]\nclient_secret = 'abcdefsecret\n",
		"[service]\nclient_secret = \"\"\"\nabcdef\\qsecret\"\"\"\n",
		"[service]\nclient_secret = \"abcdefsecret\"\nclient_secret = \"abcdefsecret\"\n",
	} {
		path := configtest.Write(t, t.TempDir(), body, 0o600)
		_, _, err := Load(path, false, nil)
		if err == nil {
			t.Fatalf("%q: no error", body)
		}
		if strings.Contains(err.Error(), "abc") {
			t.Fatalf("%q: the error shows the secret: %v", body, err)
		}
		if !strings.Contains(err.Error(), path+":") {
			t.Fatalf("%q: no position: %v", body, err)
		}
	}
}

func TestUserConfigDirFromGetenv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the XDG rules are the Unix ones")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := UserConfigDir(env(map[string]string{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"})); err != nil || d != "/x/cfg" {
		t.Fatal(d, err)
	}
	if d, err := UserConfigDir(env(map[string]string{"HOME": "/h"})); err != nil || d != "/h/.config" {
		t.Fatal(d, err)
	}
	if _, err := UserConfigDir(env(map[string]string{"XDG_CONFIG_HOME": "rel"})); err == nil {
		t.Fatal("a relative XDG_CONFIG_HOME was accepted")
	}
	if _, err := UserConfigDir(env(nil)); err == nil {
		t.Fatal("no HOME gave a directory")
	}
	if p, err := DefaultPath(env(map[string]string{"HOME": "/h"})); err != nil || p != "/h/.config/chainwatch/config.toml" {
		t.Fatal(p, err)
	}
}

// [serve] key_share is a key's share of a served desk's day: read, and
// refused outside (0, 1] with the key named.
func TestConfigServeKeyShare(t *testing.T) {
	dir := t.TempDir()
	fc, _, err := Load(configtest.Write(t, dir, "[serve]\nkey_share = 0.25\n", 0o600), true, nil)
	if err != nil || fc.Serve.KeyShare == nil || *fc.Serve.KeyShare != 0.25 {
		t.Fatalf("key_share = 0.25: %v, %+v", err, fc.Serve)
	}
	for _, v := range []string{"0", "1.5", "-0.1", "nan"} {
		_, _, err := Load(configtest.Write(t, dir, "[serve]\nkey_share = "+v+"\n", 0o600), true, nil)
		if err == nil || !strings.Contains(err.Error(), "[serve] key_share") {
			t.Errorf("key_share = %s: %v", v, err)
		}
	}
}
