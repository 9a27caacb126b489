package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"chainwatch/cmd"
)

// TestReferenceIsFresh: docs/reference/ is what docgen writes now, file for
// file and byte for byte; a command or flag added, changed or removed
// without `go generate ./docgen` fails here.
func TestReferenceIsFresh(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "reference")
	if err := writeReference(fresh); err != nil {
		t.Fatal(err)
	}
	want, got := readTree(t, fresh), readTree(t, filepath.Join("..", referenceDir))
	if len(want) < 20 {
		t.Fatalf("docgen wrote %d files, want a page and a man page for each of the twenty-odd commands", len(want))
	}
	for name, b := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s/%s is missing; run go generate ./docgen", referenceDir, name)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s/%s is stale; run go generate ./docgen", referenceDir, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s/%s names no command any more; run go generate ./docgen", referenceDir, name)
		}
	}
}

// readTree is every file under dir by its path below dir.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestReferenceNamesEveryCommandAndFlag reads the command line as a user
// does (`chainwatch help`, then each command's --help, down every level)
// and finds each command's page in docs/reference/ naming each flag its
// help lists. It does not ask cobra/doc, so a page docgen failed to
// write, or wrote without a flag, fails here too.
func TestReferenceNamesEveryCommandAndFlag(t *testing.T) {
	commandLine := regexp.MustCompile(`(?m)^  ([a-z][a-z0-9-]*)\s{2,}\S`)
	flagName := regexp.MustCompile(`(?m)^\s+(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)`)
	seen := 0
	var visit func(path []string)
	visit = func(path []string) {
		if seen++; seen > 100 {
			t.Fatal("more than 100 commands: a loop in the walk?")
		}
		help := chainwatch(t, append(append([]string{}, path...), "--help")...)
		if len(path) == 0 {
			// `chainwatch help` lists the same commands as --help.
			help = chainwatch(t, "help") + help
		}
		page := filepath.Join("..", referenceDir, strings.Join(append([]string{"chainwatch"}, path...), "_")+".md")
		b, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("chainwatch %s has no page: %v", strings.Join(path, " "), err)
			return
		}
		for _, m := range flagName.FindAllStringSubmatch(help, -1) {
			if !strings.Contains(string(b), m[1]) {
				t.Errorf("%s does not name %s, which `chainwatch %s --help` lists", page, m[1], strings.Join(path, " "))
			}
		}
		_, cmds, ok := strings.Cut(help, "Available Commands:")
		if !ok {
			return
		}
		cmds, _, _ = strings.Cut(cmds, "\n\n")
		for _, m := range commandLine.FindAllStringSubmatch(cmds, -1) {
			if m[1] != "help" {
				visit(append(append([]string{}, path...), m[1]))
			}
		}
	}
	visit(nil)
	if seen < 20 {
		t.Errorf("walked %d commands, want the twenty-odd chainwatch has", seen)
	}
}

// chainwatch is the program's output for args, run in process as main runs it.
func chainwatch(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	deps := cmd.Process(strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	if code := cmd.Execute(deps, args); code != 0 {
		t.Fatalf("chainwatch %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}
