package cmd

import (
	"strings"
	"testing"
)

// runCLI runs chainwatch in process with an empty environment, no input
// and no browser.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return cli{}.run(t, args...)
}

func TestVersionCommand(t *testing.T) {
	out, _, err := runCLI(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "chainwatch ") || !strings.Contains(out, "go1.") {
		t.Fatalf("version printed %q", out)
	}
	flag, _, err := runCLI(t, "--version")
	if err != nil || flag != out {
		t.Fatalf("--version printed %q, version printed %q (err %v)", flag, out, err)
	}
}

func TestUnknownCommandFails(t *testing.T) {
	_, errOut, err := runCLI(t, "frobnicate")
	if err == nil || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("err %v, stderr %q", err, errOut)
	}
}

func TestVersionTakesNoArguments(t *testing.T) {
	if _, _, err := runCLI(t, "version", "extra"); err == nil {
		t.Fatal("version accepted an argument")
	}
}
