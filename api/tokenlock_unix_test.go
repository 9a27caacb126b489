//go:build unix

package api

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestTokenLockExcludesAnotherHolder: the lock is held across open files
// (as across processes): a second Lock waits until the first is released,
// and gives up when its context ends; the lock file is 0600.
func TestTokenLockExcludesAnotherHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token.json")
	unlock, err := FileTokenStore{Path: path}.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := (FileTokenStore{Path: path}).Lock(ctx); err == nil {
		t.Fatal("a second holder took the lock while the first held it")
	}
	unlock()
	unlock2, err := FileTokenStore{Path: path}.Lock(ctx) // free now: no wait, so the ended ctx does not matter
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock2()
	if fi, err := os.Stat(path + ".lock"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v, %v", fi, err)
	}
	if err := (FileTokenStore{Path: path}).Delete(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatal("logout (Delete) left the lock file")
	}
}
