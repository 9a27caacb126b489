package cmd

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedSandboxCachesOpenInterest: the embedded sandbox keeps a
// day's open interest in the user's cache directory; a later run reads it
// and prints the same chain, and a damaged file changes nothing either.
func TestEmbeddedSandboxCachesOpenInterest(t *testing.T) {
	env := homeEnv(t)
	env["XDG_CACHE_HOME"] = filepath.Join(t.TempDir(), "cache")
	file := filepath.Join(env["XDG_CACHE_HOME"], "chainwatch", "sandbox", "oi-SPY-2026-11-24")
	chain := func() string {
		t.Helper()
		out, errOut, err := cli{env: env}.run(t, "chain", "SPY", "--dte", "20", "--sandbox-clock", "2026-11-24T11:00:00-05:00",
			"--json=option,open_interest,option_volume,option_last_trade_price")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		return out
	}
	first := chain()
	kept, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no open interest kept: %v", err)
	}
	if len(chainRows(t, first)) == 0 {
		t.Fatal("no rows")
	}
	if again := chain(); again != first {
		t.Fatal("the chain read with the kept open interest differs")
	}
	if err := os.WriteFile(file, kept[:len(kept)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if again := chain(); again != first {
		t.Fatal("the chain beside a damaged file differs")
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != string(kept) {
		t.Fatalf("the damaged file was not rewritten (%v)", err)
	}
}
