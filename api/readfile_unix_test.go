//go:build unix

package api

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRegularFileRefusesWhatIsNotAFile: a device, a FIFO, a directory
// and a file over the cap are refused before anything is read; each call
// returns at once (a FIFO without a writer used to block forever, and
// /dev/zero was read until memory ran out).
func TestReadRegularFileRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2049), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]error{"/dev/zero": ErrNotRegular, fifo: ErrNotRegular, dir: ErrNotRegular, big: ErrTooLarge} {
		data, _, err := ReadRegularFile(path, 2048)
		if !errors.Is(err, want) || data != nil {
			t.Errorf("%s: %d bytes, %v; want %v", path, len(data), err, want)
		}
	}
	_, _, err := ReadRegularFile(fifo, 2048)
	if !strings.Contains(err.Error(), "fifo is a named pipe (FIFO), not a regular file") {
		t.Errorf("FIFO: %v", err)
	}
	ok := filepath.Join(dir, "ok")
	if err := os.WriteFile(ok, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, fi, err := ReadRegularFile(ok, 5); err != nil || string(data) != "hello" || fi.Size() != 5 {
		t.Errorf("a file of exactly the cap: %q, %v", data, err)
	}
	if _, _, err := ReadRegularFile(filepath.Join(dir, "none"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestTokenStoreRefusesAFIFOAndADevice: a token file that is a FIFO or a
// device is refused at once, with no content in the message.
func TestTokenStoreRefusesAFIFOAndADevice(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "token.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		_, _, err := FileTokenStore{Path: path}.LoadLogin()
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v, want a refusal", path, err)
		}
	}
}
