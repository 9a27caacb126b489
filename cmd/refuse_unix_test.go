//go:build unix

package cmd

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConfigThatIsNotAFileExitsTwo: --config /dev/zero and a FIFO are
// refused at once (exit status 2), by the screen and the headless
// commands; a FIFO as the token file too.
func TestConfigThatIsNotAFileExitsTwo(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{
		{"--config", "/dev/zero"},
		{"--config", fifo},
		{"chain", "SPY", "--config", "/dev/zero"},
		{"quotes", "SPY", "--config", fifo},
	} {
		var out, errOut syncBuffer
		code := Execute(cli{env: homeEnv(t)}.deps(&out, &errOut), args)
		if code != ExitInput || !strings.Contains(errOut.String(), "not a regular file") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a refusal", args, code, errOut.String())
		}
	}
	var out, errOut syncBuffer
	code := Execute(cli{env: homeEnv(t)}.deps(&out, &errOut), []string{"status", "--token-file", fifo})
	if code != ExitInput || !strings.Contains(errOut.String(), "not a regular file") {
		t.Errorf("status --token-file FIFO: exit %d, stderr %q", code, errOut.String())
	}
}
