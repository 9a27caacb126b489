package cmd

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeContractExamplesExist: README's trades and taq examples name a
// contract; each runs on the embedded sandbox and prints rows (its example
// named SPY261120C00600000, which never traded: "no trades").
func TestReadmeContractExamplesExist(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^chainwatch ((?:trades|taq) [A-Z]+\d{6}[CP]\d{8} [^#\n]*)`)
	found := re.FindAllStringSubmatch(string(readme), -1)
	if len(found) < 2 {
		t.Fatalf("README has %d trades/taq examples with a contract, want 2", len(found))
	}
	for _, m := range found {
		args := strings.Fields(m[1])
		out, errOut, err := (cli{env: homeEnv(t)}).run(t, args...)
		if err != nil || strings.TrimSpace(out) == "" {
			t.Errorf("README's `chainwatch %s`: %v\n%s", m[1], err, errOut)
		}
	}
}
