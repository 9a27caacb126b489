package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPositionsKeepComments(t *testing.T) {
	dir := t.TempDir()
	path := PositionsPath(filepath.Join(dir, "config.toml"))
	opened := time.Date(2026, 11, 24, 10, 0, 0, 0, time.FixedZone("EST", -5*3600))
	p := Position{ID: 1, Name: "vertical", Symbol: "SPY", Opened: opened,
		Legs: []string{"+1xSPY261218C00700000@10.69", "-1xSPY261218C00710000@5.92"}}
	if err := SavePosition(path, p); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi.Mode(), err)
	}
	// The user comments the file; a second position and closing the first keep it.
	data, _ := os.ReadFile(path)
	commented := "# my trades\n" + strings.Replace(string(data), "\n[[position]]", "\n# the December spread\n[[position]]", 1) + "# end\n"
	if err := os.WriteFile(path, []byte(commented), 0o600); err != nil {
		t.Fatal(err)
	}
	q := p
	q.ID, q.Name = 2, "straddle"
	if err := SavePosition(path, q); err != nil {
		t.Fatal(err)
	}
	p.Closed, p.Close, p.RolledTo = opened.Add(24*time.Hour), []float64{12, 6.5}, 2
	if err := SavePosition(path, p); err != nil {
		t.Fatal(err)
	}
	got, err := LoadPositions(path)
	if err != nil || len(got) != 2 || got[0].Open() || got[0].Close[0] != 12 || got[0].RolledTo != 2 || !got[1].Open() {
		t.Fatalf("%+v %v", got, err)
	}
	after, _ := os.ReadFile(path)
	for _, want := range []string{"# my trades\n", "# the December spread\n[[position]]\nid = 1", "# end\n", "close = [12.0, 6.5]"} {
		if !strings.Contains(string(after), want) {
			t.Errorf("no %q in\n%s", want, after)
		}
	}
}

func TestPositionsRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadPositions(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a directory: %v", err)
	}
	path := filepath.Join(dir, "positions.toml")
	for _, c := range []struct{ text, says string }{
		{"[[position]]\nid = 0\nlegs = [\"+C1\"]\n", "not a new number"},
		{"[[position]]\nid = 1\n", "no legs"},
		{"[[position]]\nid = 1\nlegs = [\"a\"]\nclose = [1.0, 2.0]\n", "2 closing fills for 1 legs"},
		{"[[position]]\nid = 1\nlegs = [\"a\"]\ncolour = 1\n", "unknown key"},
	} {
		os.WriteFile(path, []byte(c.text), 0o600)
		if _, err := LoadPositions(path); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v", c.text, err)
		}
		if err := SavePosition(path, Position{ID: 9, Legs: []string{"x"}}); err == nil {
			t.Errorf("%q: saved over a broken file", c.text)
		}
	}
}
