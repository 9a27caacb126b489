package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chainwatch/config"
)

// TestEmbeddedSandboxKeyFile: the embedded sandbox keeps its keys in the
// state directory: made by the first run (0600), used as they are by the
// next, and refused with the fix (exit 2) once others may read them.
func TestEmbeddedSandboxKeyFile(t *testing.T) {
	env := homeEnv(t)
	path := filepath.Join(env["XDG_STATE_HOME"], "chainwatch", config.SandboxKeys)
	if out, errOut, err := (cli{env: env}).run(t, "status"); err != nil {
		t.Fatalf("first run: %v\n%s%s", err, out, errOut)
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the keys after the first run: %v, %v; want a regular file, mode 0600", fi, err)
	}
	keys, _ := os.ReadFile(path)
	if out, errOut, err := (cli{env: env}).run(t, "chain", "SPY", "--json=strike"); err != nil || !strings.Contains(out, "strike") {
		t.Fatalf("second run: %v\n%s%s", err, out, errOut)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, keys) {
		t.Error("the second run made new keys")
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := (cli{env: env}).run(t, "chain", "SPY")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "chmod 600 "+path) || out != "" {
		t.Fatalf("keys readable by others: exit %d, %v, stdout %q", exitCode(err), err, out)
	}
	if strings.Contains(errOut+err.Error(), "PRIVATE KEY") {
		t.Error("the refusal quotes the keys")
	}
}
