// Package configtest writes config files for tests of the packages that
// read them (config itself and cmd), so both write them one way.
package configtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes body as config.toml in dir (created 0700) with mode perm,
// whatever the umask, and returns its path.
func Write(t testing.TB, dir, body string, perm os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(body), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // WriteFile's perm is masked by the umask
		t.Fatal(err)
	}
	return path
}
