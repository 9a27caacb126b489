package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileErrorsEchoAtMostSixty: a config file's long value, key or line
// is echoed at most text.EchoMax characters by the error that refuses it
// (the TOML parser's message quoted a 5,000-character token whole).
func TestFileErrorsEchoAtMostSixty(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for _, body := range []string{
		"symbol = " + long,
		long + " = 1",
		"[" + long + "]",
		"[[alert]]\n" + long + " = 1",
		"[alerts]\n" + long + " = 1",
		"symbol = \"" + long + "\"",
		"[[alert]]\nname = \"" + long + "\"\nkind = \"price\"\nsymbol = \"SPY\"\nabove = 1",
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(body+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Load(path, true, nil)
		if err == nil || strings.Contains(err.Error(), strings.Repeat("x", 61)) || !strings.Contains(err.Error(), "xxx…") {
			t.Errorf("%.30q: %.300v", body, err)
		}
	}
}
