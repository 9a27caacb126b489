package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadlessPackagesImportNoCharm holds the layout's import rule: the
// client, the config, the scan, the feed and the vol figures are used by headless commands
// and by the TUI alike, so none of them may pull in a terminal library
// (bubbletea, bubbles, lipgloss, huh, bubble-table, or any other charm
// module), directly or through another package.
func TestHeadlessPackagesImportNoCharm(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: go list -deps cannot run")
	}
	pkgs := []string{"chainwatch/api", "chainwatch/config", "chainwatch/scan", "chainwatch/feed", "chainwatch/market", "chainwatch/text", "chainwatch/vol", "chainwatch/tas", "chainwatch/history", "chainwatch/positioning", "chainwatch/strategy", "chainwatch/alert"}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < len(pkgs) {
		t.Fatalf("go list -deps listed %d packages", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "charm.land/") || strings.HasPrefix(d, "github.com/charmbracelet/") || strings.HasPrefix(d, "github.com/evertras/bubble-table") {
			t.Errorf("a headless package depends on %s", d)
		}
	}
}

// TestRootHoldsOnlyMain: the root package is main.go; every job has a
// package of its own.
func TestRootHoldsOnlyMain(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f != "main.go" && !strings.HasSuffix(f, "_test.go") {
			t.Errorf("%s is in the root package: it belongs in cmd/ or a package of its job", f)
		}
	}
	if data, err := os.ReadFile("main.go"); err != nil || strings.Count(string(data), "\n") > 40 {
		t.Errorf("main.go should stay about 25 lines (%v)", err)
	}
}

// TestCIFuzzBoundsMinimisation: every fuzz run in .ci/run bounds input
// minimisation with -fuzzminimizetime. Without it each new interesting
// input may be minimised for up to a minute, and a brief run stalls for
// minutes with its execution counter frozen (FuzzGrammarCheck did).
func TestCIFuzzBoundsMinimisation(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") || !strings.Contains(line, "-fuzz ") {
			continue
		}
		runs++
		if !strings.Contains(line, "-fuzzminimizetime") && !strings.HasSuffix(strings.TrimSpace(line), "\\") {
			t.Errorf(".ci/run runs a fuzz target without -fuzzminimizetime: %s", strings.TrimSpace(line))
		}
	}
	if runs == 0 {
		t.Fatal(".ci/run runs no fuzz target")
	}
	if !strings.Contains(string(b), "-fuzzminimizetime") {
		t.Error(".ci/run does not bound fuzz minimisation (-fuzzminimizetime)")
	}
}
