package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHeadlessPackagesImportNoCharm holds the layout's import rule: the
// client, the config, the scan, the feed and the figures are used by
// headless commands and by the TUI alike, so none of them may pull in a
// terminal library (bubbletea, bubbles, lipgloss, huh, bubble-table, or
// any other charm module), directly or through another package. Which
// they are is the layers table's (noCharm).
func TestHeadlessPackagesImportNoCharm(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: go list -deps cannot run")
	}
	var pkgs []string
	for _, l := range layers {
		if l.noCharm {
			for _, p := range l.pkgs {
				pkgs = append(pkgs, "chainwatch/"+p)
			}
		}
	}
	for _, must := range []string{"chainwatch/api", "chainwatch/config", "chainwatch/scan", "chainwatch/feed", "chainwatch/market"} {
		if !slices.Contains(pkgs, must) {
			t.Fatalf("the layers table lets %s import a charm module", must)
		}
	}
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

// TestLayersHoldEveryImport holds every package of the module to its row
// of the layers table: each package has one row, and imports of the
// module only what that row allows (test files aside). A row that names
// no package is stale.
func TestLayersHoldEveryImport(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: go list cannot run")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	used := make([]bool, len(layers))
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imps, _ := strings.Cut(line, "\t")
		pkg := modulePath(path)
		row := -1
		for i, l := range layers {
			if !l.module && matchAny(l.pkgs, pkg) {
				if row >= 0 {
					t.Errorf("%s is in two rows of the layers table", pkg)
				}
				row = i
			}
		}
		if row < 0 {
			t.Errorf("%s has no row in the layers table (layers_test.go)", pkg)
			continue
		}
		used[row], n = true, n+1
		for _, imp := range strings.Fields(imps) {
			if imp != "chainwatch" && !strings.HasPrefix(imp, "chainwatch/") {
				continue
			}
			if dep := modulePath(imp); dep != pkg && !matchAny(layers[row].imports, dep) {
				t.Errorf("%s imports %s: its row (%s) does not allow it", pkg, dep, layers[row].folder)
			}
		}
	}
	for i, l := range layers {
		if !used[i] && !l.module {
			t.Errorf("the row %s names no package", l.folder)
		}
	}
	if n < 30 {
		t.Fatalf("go list listed %d packages", n)
	}
}

// modulePath is an import path as the layers table writes it.
func modulePath(imp string) string {
	if imp == "chainwatch" {
		return "."
	}
	return strings.TrimPrefix(imp, "chainwatch/")
}

// matchAny reports whether pkg is one of patterns ("x/..." is x and every
// package below it; "..." any).
func matchAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if p == "..." || p == pkg {
			return true
		}
		if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
			return true
		}
	}
	return false
}

var updateDocs = flag.Bool("update-docs", false, "write docs/architecture.md's layout table from the layers table")

// architecturePage holds the layout table, between these lines.
const (
	architecturePage = "docs/architecture.md"
	tableBegin       = "<!-- The table below is made from layers_test.go: go test -run TestArchitectureLayoutIsTheTable -update-docs . -->"
	tableEnd         = "<!-- End of the table made from layers_test.go. -->"
)

// TestArchitectureLayoutIsTheTable: docs/architecture.md's Layout section
// is the layers table, as layoutTable writes it; -update-docs writes it
// again.
func TestArchitectureLayoutIsTheTable(t *testing.T) {
	b, err := os.ReadFile(architecturePage)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, tableBegin), strings.Index(readme, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no layout table between %q and %q", architecturePage, tableBegin, tableEnd)
	}
	want := layoutTable()
	got := readme[i+len(tableBegin) : j]
	if got == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(architecturePage, []byte(readme[:i+len(tableBegin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's layout table is not the layers table (layers_test.go); run go test -run TestArchitectureLayoutIsTheTable -update-docs .", architecturePage)
}

// layoutTable is the layers table in Markdown, between blank lines.
func layoutTable() string {
	var b strings.Builder
	b.WriteString("\n| folder | what lives there | may import |\n| --- | --- | --- |\n")
	for _, l := range layers {
		b.WriteString("| " + l.folder + " | " + l.what + " | " + mayImport(l) + " |\n")
	}
	return b.String()
}

// mayImport is a row's last column: the module's packages it may import,
// then what else.
func mayImport(l layer) string {
	var parts []string
	var pkgs []string
	for _, p := range l.imports {
		switch base, below := strings.CutSuffix(p, "/..."); {
		case p == "...":
			pkgs = append(pkgs, "everything below")
		case below:
			pkgs = append(pkgs, "`"+base+"/` and below")
		default:
			pkgs = append(pkgs, "`"+p+"/`")
		}
	}
	if len(pkgs) > 0 {
		parts = append(parts, strings.Join(pkgs, ", "))
	}
	if l.others != "" {
		parts = append(parts, l.others)
	}
	if l.noCharm {
		parts = append(parts, "no charm module")
	}
	return strings.Join(parts, "; ")
}
