package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestThirdPartyCopiesAreWhatIsSelected holds each patched copy under
// third_party/ to the module version the build selects. go.mod replaces
// each module with its copy whatever the version, so the patches cannot
// drop out when an upgrade (of bubbles, huh, lipgloss, wish) selects a newer
// version; but then the build would link the copy's older code under the
// newer version's name. This fails instead, until the copy is moved to
// the version selected (its CHAINWATCH.md says how) or dropped.
func TestThirdPartyCopiesAreWhatIsSelected(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: go list -m cannot run")
	}
	docs, err := filepath.Glob("third_party/*/CHAINWATCH.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range thirdPartyDirs(t) {
		if _, err := os.Stat(filepath.Join(dir, "CHAINWATCH.md")); err != nil {
			t.Errorf("go.mod replaces a module with ./%s, which has no CHAINWATCH.md: its version goes unchecked", dir)
		}
	}
	if len(docs) == 0 {
		t.Skip("no patched copies under third_party/")
	}
	// "This is <module> at <version> (MIT, ..." in each copy's notes.
	copyOf := regexp.MustCompile(`This is (\S+) at (v\S+) `)
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		m := copyOf.FindStringSubmatch(strings.Join(strings.Fields(string(data)), " "))
		if m == nil {
			t.Errorf("%s does not say which module and version it is a copy of (\"This is <module> at <version> \")", doc)
			continue
		}
		path, version, dir := m[1], m[2], "./"+filepath.ToSlash(filepath.Dir(doc))
		out, err := exec.Command("go", "list", "-m", "-json", path).Output()
		if err != nil {
			t.Errorf("go list -m %s: %v", path, err)
			continue
		}
		var mod struct {
			Version string
			Replace *struct{ Path, Version string }
		}
		if err := json.Unmarshal(out, &mod); err != nil {
			t.Fatalf("go list -m -json %s: %v\n%s", path, err, out)
		}
		if mod.Replace == nil || mod.Replace.Path != dir {
			t.Errorf("go.mod does not replace %s with %s: its patches are not linked", path, dir)
		}
		if mod.Version != version {
			t.Errorf("the build selects %s %s, but %s is a copy of %s: move the copy to %s and apply its patches again, or drop it", path, mod.Version, dir, version, mod.Version)
		}
	}
}

// thirdPartyDirs are the directories under third_party/ that go.mod
// replaces a module with, so that a copy added without its notes (which
// name the version this test holds it to) does not pass unseen.
func thirdPartyDirs(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Replace []struct{ New struct{ Path string } }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go mod edit -json: %v\n%s", err, out)
	}
	var dirs []string
	for _, r := range mod.Replace {
		if dir, ok := strings.CutPrefix(r.New.Path, "./third_party/"); ok {
			dirs = append(dirs, filepath.Join("third_party", dir))
		}
	}
	return dirs
}
