//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesWhatIsNotAConfigFile: --config /dev/zero was read until
// 3.8 GB in 6 s and a FIFO blocked forever; both are refused at once, and
// so is a file over MaxFileSize, before it is parsed.
func TestLoadRefusesWhatIsNotAConfigFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero": "config file /dev/zero is a character device, not a regular file",
		fifo:        "is a named pipe (FIFO), not a regular file",
		dir:         "is a directory, not a regular file",
		big:         "more than the 1048576 it may hold",
	} {
		_, _, err := Load(path, true, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want %q", path, err, want)
		}
	}
}
