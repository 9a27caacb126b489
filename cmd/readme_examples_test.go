package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// userDocs is README.md and the pages of docs/, one after the other: the
// user's documents, whose examples these tests run or read.
func userDocs(t *testing.T) []byte {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs/ has %d pages (%v), want the topic pages", len(pages), err)
	}
	var all []byte
	for _, p := range append([]string{"../README.md"}, pages...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
	}
	return all
}

// TestReadmeContractExamplesExist: the docs' trades and taq examples name a
// contract; each runs on the embedded sandbox and prints rows (its example
// named SPY261120C00600000, which never traded: "no trades").
func TestReadmeContractExamplesExist(t *testing.T) {
	readme := userDocs(t)
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

// TestReadmeKeepsTheSandboxSecretPrivate: the docs' shell lines never send
// `chainwatch sandbox`'s four lines (the demo secret among them) through a
// redirection, which makes a file as the umask says (0644 as a rule), nor
// put a secret on the command line; they use --print-credentials (a 0600
// file: TestSandboxClientSecretFile) and --client-secret-file.
func TestReadmeKeepsTheSandboxSecretPrivate(t *testing.T) {
	readme := userDocs(t)
	shown := 0
	for line := range strings.Lines(string(readme)) {
		if !strings.Contains(line, "chainwatch sandbox") && !strings.Contains(line, "go run . sandbox") {
			continue
		}
		code, _, _ := strings.Cut(line, "#")
		if strings.Contains(code, ">") || strings.Contains(code, "--client-secret ") || strings.Contains(code, "$(cat") {
			t.Errorf("README: %s", strings.TrimSpace(line))
		}
		if strings.Contains(code, "--print-credentials ") {
			shown++
		}
	}
	if shown < 2 {
		t.Errorf("README shows --print-credentials %d times, want the two ways to save the credentials", shown)
	}
}
