package model

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPartsStayApart holds the layout of model/ (../shared/spec/layout.md):
// a part (model/<part>) never imports another part, only common, the
// packages below the TUI and its own panes (model/<part>/<pane>, which
// import neither it nor each other), so parts talk through messages and
// Actions the root routes; ui/ draws from plain data and imports neither model/ nor
// keymap/; and no non-test file in model/ grows past 400 lines.
func TestPartsStayApart(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	shared := map[string]bool{"common": true, "modeltest": true}
	parts := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		parts++
		// A page's own panes are packages under it (model/watch/chain): it
		// imports them; a pane imports neither its page nor its siblings.
		_ = filepath.WalkDir(e.Name(), func(part string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() || d.Name() == "testdata" {
				return err
			}
			for _, imp := range imports(t, part) {
				other, ok := strings.CutPrefix(imp, "chainwatch/model/")
				if imp == "chainwatch/model" || ok && !shared[other] && other != part && !strings.HasPrefix(other, part+"/") {
					t.Errorf("model/%s imports %s: parts talk through the root, not to each other", part, imp)
				}
			}
			return nil
		})
	}
	if parts < 5 {
		t.Fatalf("found %d parts under model/, want chain, tape, calendar, prompt, scanner at least", parts)
	}
	for _, imp := range imports(t, "../ui") {
		if strings.HasPrefix(imp, "chainwatch/model") || imp == "chainwatch/keymap" || strings.HasPrefix(imp, "charm.land/bubbletea") {
			t.Errorf("ui imports %s: it draws from plain data", imp)
		}
	}
	_ = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if n := fileLines(t, path); n > 400 {
			t.Errorf("model/%s has %d lines: split it by job (at most 400)", path, n)
		}
		return nil
	})
}

// imports lists the imports of the non-test Go files in dir.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out = append(out, p)
		}
	}
	return out
}

func fileLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}

// rootLines is layout.md's bound on the root: it routes (a page stack, one
// overlay) and leaves the rest to common/ and the parts.
const rootLines = 600

// TestRootStaysSmall: the root package's non-test files hold fewer than
// rootLines lines between them.
func TestRootStaysSmall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(data), "\n")
	}
	if n >= rootLines {
		t.Errorf("the root has %d lines of non-test code, %d at most: move what is not routing to common/ or a part", n, rootLines-1)
	}
}
