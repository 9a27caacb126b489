package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/config/configtest"
)

// handWritten is a config file as a person writes it: comments
// everywhere, tables before, between and after the scans, odd spacing,
// and multi-line strings holding what looks like a header.
const handWritten = `# my chainwatch config
symbol = "QQQ"   # the usual
theme = "dark"

[service]
client_id = '''
[[scan]]
not a header: inside a string'''
token_file = """
[budget] \"""
"""

# --- scans ---
[[scan]]
name = "Alpha"
description = "the first [one]"
  [[scan.field]]
  formula = "iv30 > 40"   # a filter
  include_in_resultset = false

[[ "scan" ]]
name = "Beta"
  [[scan.field]]
  formula = "hv30"
  sort = "asc"

# the budget: keep it low
[budget]
share = 0.5   # half

[[scan]]
name = "Gamma"
  [[scan.field]]
  formula = "price"
# trailing comment`

func scanOf(name string, formulas ...string) SavedScan {
	s := SavedScan{Name: name}
	for _, f := range formulas {
		s.Fields = append(s.Fields, api.ScanFieldParam{Formula: f})
	}
	return s
}

func savedNames(t *testing.T, path string) []string {
	t.Helper()
	fc, _, err := Load(path, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range fc.SavedScans() {
		names = append(names, s.Name)
	}
	return names
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTempFiles checks an edit left nothing beside the config file.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}

func TestSaveScanAppendsAndKeepsEveryByte(t *testing.T) {
	dir := t.TempDir()
	path := configtest.Write(t, dir, handWritten, 0o640)
	s := SavedScan{Name: "Delta", Description: `quotes " and \ back`, AllResults: true, Fields: []api.ScanFieldParam{
		{Formula: `sector == "Technology"`, IncludeInResultset: api.Ptr(false)},
		{Formula: "iv30", DisplayName: "IV \"30\"", Sort: api.SortDesc},
		{Formula: "price", IncludeInResultset: api.Ptr(true), Sort: api.SortNone},
	}}
	if err := SaveScan(path, s, nil); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if !strings.HasPrefix(got, handWritten+"\n\n[[scan]]\nname = \"Delta\"\n") {
		t.Fatalf("the file was not kept byte for byte:\n%s", got)
	}
	fc, _, err := Load(path, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	scans := fc.SavedScans()
	if len(scans) != 4 || !sameScans(scans[3:], []SavedScan{s}) || fc.Symbol != "QQQ" || *fc.Budget.Share != 0.5 {
		t.Fatalf("read back %+v", scans)
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	noTempFiles(t, dir)
}

func TestSaveScanReplacesByName(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), handWritten, 0o600)
	if err := SaveScan(path, scanOf("beta", "iv_rank", "hv30"), nil); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	start := strings.Index(handWritten, `[[ "scan" ]]`)
	end := strings.Index(handWritten, "\n\n# the budget") // the blank line stays
	want := handWritten[:start] + "[[scan]]\nname = \"beta\"\n  [[scan.field]]\n  formula = \"iv_rank\"\n  [[scan.field]]\n  formula = \"hv30\"\n" +
		handWritten[end+1:]
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if names := savedNames(t, path); strings.Join(names, ",") != "Alpha,beta,Gamma" {
		t.Fatalf("scans %v", names)
	}
	// The last scan, before a comment that ends the file without a final
	// newline: the comment is not the scan's and stays.
	if err := SaveScan(path, scanOf("GAMMA", "volume"), nil); err != nil {
		t.Fatal(err)
	}
	want = want[:strings.Index(want, "[[scan]]\nname = \"Gamma\"")] +
		"[[scan]]\nname = \"GAMMA\"\n  [[scan.field]]\n  formula = \"volume\"\n# trailing comment"
	if got := readFile(t, path); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// commented is the reviewer's file: comments after a scan's last line,
// set apart by blank lines, that describe what follows, and a comment
// that ends the file after the last scan.
const commented = `# my config
[[scan]]
name = "a"
  [[scan.field]]
  formula = "iv30"

# ---- connection settings (keep!) ----

[service]
base_url = "http://127.0.0.1:9"

[[scan]]
name = "b"
  [[scan.field]]
  formula = "hv30"
  sort = "asc"
  # b sorts by hv30: keep this note

# end of file: keep me too
`

// blockOf is where the scan named name is written in text, from its
// header to the end of its last TOML line.
func blockOf(t *testing.T, text, name string) (start, end int) {
	t.Helper()
	start = strings.Index(text, "[[scan]]\nname = \""+name+"\"")
	if start < 0 {
		t.Fatalf("no scan %q in\n%s", name, text)
	}
	for _, b := range findScanBlocks(text) {
		if b.start == start {
			return b.start, b.end
		}
	}
	t.Fatalf("no block at %d", start)
	return 0, 0
}

// TestScanEditsKeepComments: saving or deleting a scan changes its own
// lines and nothing else: a comment below a scan's last line, blank
// lines apart from the next table or at the end of the file, stays byte
// for byte.
func TestScanEditsKeepComments(t *testing.T) {
	repl := func(name, formula string) string {
		return "[[scan]]\nname = \"" + name + "\"\n  [[scan.field]]\n  formula = \"" + formula + "\"\n"
	}
	aEnd := strings.Index(commented, "\n\n# ---- connection") + 1
	bEnd := strings.Index(commented, "  # b sorts")
	if s, e := blockOf(t, commented, "a"); s != len("# my config\n") || e != aEnd {
		t.Fatalf("block a is [%d,%d), want [%d,%d)", s, e, len("# my config\n"), aEnd)
	}
	if _, e := blockOf(t, commented, "b"); e != bEnd {
		t.Fatalf("block b ends at %d, want %d", e, bEnd)
	}
	for _, tc := range []struct {
		name string
		edit func(path string) error
		want string
	}{
		{"save a", func(p string) error { return SaveScan(p, scanOf("a", "iv_rank"), nil) },
			"# my config\n" + repl("a", "iv_rank") + commented[aEnd:]},
		{"save b, the last", func(p string) error { return SaveScan(p, scanOf("B", "price"), nil) },
			commented[:strings.Index(commented, "[[scan]]\nname = \"b\"")] + repl("B", "price") + commented[bEnd:]},
		{"delete a", func(p string) error { return DeleteScan(p, "A", nil) },
			"# my config\n" + commented[aEnd:]},
		{"delete b, the last", func(p string) error { return DeleteScan(p, "b", nil) },
			commented[:strings.Index(commented, "[[scan]]\nname = \"b\"")] + commented[bEnd:]},
		{"append", func(p string) error { return SaveScan(p, scanOf("c", "volume"), nil) },
			commented + "\n" + repl("c", "volume")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configtest.Write(t, t.TempDir(), commented, 0o600)
			if err := tc.edit(path); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestDeleteScanSpacing: deleting a scan takes one run of the blank lines
// around it, so the tables on either side keep their spacing, and never a
// comment.
func TestDeleteScanSpacing(t *testing.T) {
	field := "  [[scan.field]]\n  formula = \"iv30\"\n"
	for _, tc := range []struct{ name, body, want string }{
		{"between blank lines", "theme = \"dark\"\n\n[[scan]]\nname = \"a\"\n" + field + "\n[budget]\nshare = 0.5\n", "theme = \"dark\"\n\n[budget]\nshare = 0.5\n"},
		{"right after a line", "symbol = \"SPY\"\n[[scan]]\nname = \"a\"\n" + field + "\n[budget]\nshare = 0.5\n", "symbol = \"SPY\"\n\n[budget]\nshare = 0.5\n"},
		{"last", "symbol = \"SPY\"\n\n[[scan]]\nname = \"a\"\n" + field + "\n\n", "symbol = \"SPY\"\n"},
		{"only", "[[scan]]\nname = \"a\"\n" + field, ""},
		{"commented above and below", "symbol = \"SPY\"\n\n# scans:\n[[scan]]\nname = \"a\"\n" + field + "# that was a\n", "symbol = \"SPY\"\n\n# scans:\n# that was a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configtest.Write(t, t.TempDir(), tc.body, 0o600)
			if err := DeleteScan(path, "a", nil); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEditScansRefusesToDropOtherText: an edit that would remove a line
// outside the scan's block (as a block that ran on over the next table's
// comment once did) is refused and the file left alone.
func TestEditScansRefusesToDropOtherText(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), commented, 0o600)
	err := editScans(path, nil, "test", func(text string, blocks []scanBlock, fc File) (textEdit, []SavedScan, error) {
		end := strings.Index(text, "[service]") // over the comment
		return textEdit{lo: blocks[0].start, hi: end, insert: renderScan(fc.Scans[0], "\n")}, fc.SavedScans(), nil
	})
	if err == nil || !strings.Contains(err.Error(), "outside the scan's [[scan]] block") {
		t.Fatalf("%v", err)
	}
	if readFile(t, path) != commented {
		t.Fatal("the file changed")
	}
	noTempFiles(t, filepath.Dir(path))
}

func TestDeleteScan(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), handWritten, 0o600)
	if err := DeleteScan(path, "BETA", nil); err != nil {
		t.Fatal(err)
	}
	start := strings.Index(handWritten, `[[ "scan" ]]`)
	end := strings.Index(handWritten, "# the budget")
	if got := readFile(t, path); got != handWritten[:start]+handWritten[end:] {
		t.Fatalf("got\n%s", got)
	}
	if err := DeleteScan(path, "alpha", nil); err != nil {
		t.Fatal(err)
	}
	if names := savedNames(t, path); strings.Join(names, ",") != "Gamma" {
		t.Fatalf("scans %v", names)
	}
	before := readFile(t, path)
	if err := DeleteScan(path, "nope", nil); err == nil || !strings.Contains(err.Error(), `no saved scan named "nope"`) {
		t.Fatalf("deleting a missing scan: %v", err)
	}
	if readFile(t, path) != before {
		t.Fatal("a failed delete changed the file")
	}
}

func TestSaveScanCreatesTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "chainwatch")
	path := filepath.Join(dir, "config.toml")
	if err := SaveScan(path, scanOf("First", "iv30 > 40", "iv30"), nil); err != nil {
		t.Fatal(err)
	}
	if names := savedNames(t, path); strings.Join(names, ",") != "First" {
		t.Fatalf("scans %v", names)
	}
	if runtime.GOOS != "windows" {
		for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
			}
		}
	}
	noTempFiles(t, dir)
}

// TestSaveScanRefuses: a scan that breaks a rule, a file that does not
// load, and an edit that would not read back as intended all leave the
// file alone.
func TestSaveScanRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, body string
		scan       SavedScan
		op         string // "save" or "delete NAME"
		want       string
	}{
		{"no name", handWritten, scanOf(" ", "iv30"), "save", "name is required"},
		{"no field", handWritten, scanOf("x"), "save", "needs at least one"},
		{"broken file", "symbol = \n", scanOf("x", "iv30"), "save", "does not load, fix it first"},
		{"inline scans", "scan = [{name = \"x\", field = [{formula = \"iv30\"}]}]\n", scanOf("y", "iv30"), "save", "write each scan as a [[scan]] table"},
		// A [[scan.field]] after another table still belongs to Alpha:
		// deleting Alpha's block would hand it to a scan without a name.
		{"result would not load", "[[scan]]\nname = \"Alpha\"\n[[scan.field]]\nformula = \"iv30\"\n[budget]\nshare = 0.5\n[[scan.field]]\nformula = \"hv30\"\n",
			SavedScan{}, "delete Alpha", "the edited file would not load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configtest.Write(t, filepath.Join(dir, tc.name), tc.body, 0o600)
			var err error
			if name, ok := strings.CutPrefix(tc.op, "delete "); ok {
				err = DeleteScan(path, name, nil)
			} else {
				err = SaveScan(path, tc.scan, nil)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "cannot ") {
				t.Fatalf("%v, want %q", err, tc.want)
			}
			if readFile(t, path) != tc.body {
				t.Fatal("the file changed")
			}
			noTempFiles(t, filepath.Dir(path))
		})
	}
}

func TestSaveScanThroughSymlinkAndCRLF(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	body := "symbol = \"SPY\"\r\n[budget]\r\nshare = 0.5\r\n"
	real := configtest.Write(t, filepath.Join(dir, "dotfiles"), body, 0o600)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := SaveScan(link, scanOf("x", "iv30"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	if got := readFile(t, real); got != body+"\r\n[[scan]]\r\nname = \"x\"\r\n  [[scan.field]]\r\n  formula = \"iv30\"\r\n" {
		t.Fatalf("%q", got)
	}
}

// TestScanRuleIsApplied: the rule the caller passes (scan.CheckSaved in
// chainwatch) refuses a save in its own words and leaves the file alone,
// and a file holding a scan it refuses does not load, naming the scan.
func TestScanRuleIsApplied(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), handWritten, 0o600)
	rule := func(s SavedScan) error {
		if strings.EqualFold(s.Name, "bad") || strings.EqualFold(s.Name, "beta") {
			return errors.New("formula 2: not allowed")
		}
		return nil
	}
	err := SaveScan(path, scanOf("bad", "iv30"), func(s SavedScan) error {
		if s.Name == "bad" {
			return rule(s)
		}
		return nil
	})
	if err == nil || err.Error() != `cannot save the scan "bad": formula 2: not allowed` {
		t.Fatalf("saved: %v", err)
	}
	if readFile(t, path) != handWritten {
		t.Fatal("the file changed")
	}
	if _, _, err := Load(path, true, rule); err == nil || !strings.Contains(err.Error(), `[[scan]] "Beta": formula 2: not allowed`) {
		t.Fatalf("loaded: %v", err)
	}
}
