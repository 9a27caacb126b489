package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// TestThirdPartyCopiesCarryUpstreamTests holds each patched copy to its
// upstream's package tests: every `_test.go` file and every file under a
// testdata directory of the module version the copy is of is in the copy,
// byte for byte, and the copy has no test file upstream lacks. `.ci/run`
// runs `go test` inside each copy, so the patched code is tested by
// upstream's own tests, and a test dropped or edited to make a patch pass
// fails here instead (CHAINWATCH.md says, test by test, why any is
// skipped). The one other kind of test file a copy may hold is
// chainwatch's own test of a patch's internals, chainwatch_*_test.go,
// named in CHAINWATCH.md.
func TestThirdPartyCopiesCarryUpstreamTests(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH: go mod download cannot run")
	}
	docs, err := filepath.Glob("third_party/*/CHAINWATCH.md")
	if err != nil {
		t.Fatal(err)
	}
	copyOf := regexp.MustCompile(`This is (\S+) at (v\S+) `)
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		m := copyOf.FindStringSubmatch(strings.Join(strings.Fields(string(data)), " "))
		if m == nil {
			continue // TestThirdPartyCopiesAreWhatIsSelected reports it
		}
		upstream := moduleDir(t, m[1]+"@"+m[2])
		if upstream == "" {
			continue
		}
		local := filepath.Dir(doc)
		want, got := upstreamTestFiles(t, upstream), upstreamTestFiles(t, local)
		if len(want) == 0 {
			t.Errorf("%s@%s has no test files: is %s the module's directory?", m[1], m[2], upstream)
		}
		for name, body := range want {
			have, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s lacks upstream's %s: copy it from %s", local, name, upstream)
			case !bytes.Equal(have, body):
				t.Errorf("%s/%s differs from upstream's: the copy must carry upstream's tests unchanged", local, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; ok {
				continue
			}
			// A patch whose effect only its package can see (a hash kept
			// between frames) is tested beside it, in a file that says
			// whose it is and that CHAINWATCH.md names.
			if strings.HasPrefix(filepath.Base(name), "chainwatch_") && bytes.Contains(data, []byte(filepath.Base(name))) {
				continue
			}
			t.Errorf("%s/%s is not one of upstream's test files: chainwatch's own tests belong in chainwatch's packages, or in a chainwatch_*_test.go file that CHAINWATCH.md names", local, name)
		}
	}
}

// moduleDir is where the module cache holds mod (path@version), fetched
// if it is not there yet; "" (with the test skipped) when it cannot be.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || err != nil || info.Dir == "" {
		t.Skipf("cannot fetch %s to compare its tests (%v %s)", mod, err, info.Error)
		return ""
	}
	return info.Dir
}

// upstreamTestFiles reads the test files of the module in dir: every
// `_test.go` file and every file under a testdata directory, by path,
// leaving out the directories the go tool ignores (names starting with
// "." or "_") and nested modules.
func upstreamTestFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		inTestdata := slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), "testdata")
		if !strings.HasSuffix(d.Name(), "_test.go") && !inTestdata {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = body
		return nil
	})
	if err != nil {
		t.Fatalf("reading the tests under %s: %v", dir, err)
	}
	return files
}
