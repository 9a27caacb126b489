package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"chainwatch/keymap"
)

// TestWatchPageKeysAreTheKeymap: docs/watch.md's key table is the help
// screen's keys as the key map has them now; go generate ./docgen writes
// it again.
func TestWatchPageKeysAreTheKeymap(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", keysPage))
	if err != nil {
		t.Fatal(err)
	}
	want, err := withKeys(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(b) {
		t.Fatalf("%s's key table is not the key map's; run go generate ./docgen", keysPage)
	}
	// Every key of the help screen is on the page, with its help.
	for _, group := range keymap.Default().FullHelp() {
		for _, k := range group {
			if !strings.Contains(want, "| "+typed(k)+" | "+k.Help().Desc+" |") {
				t.Errorf("%s lacks %v (%s)", keysPage, k.Keys(), k.Help().Desc)
			}
		}
	}
}

// TestREADMEKeysAreBound: README's ten first keys are ten rows, and every
// key they name is bound in the key map, so the front page cannot teach
// a key that does nothing.
func TestREADMEKeysAreBound(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## The ten keys to know first")
	if !ok {
		t.Fatal("README.md has no section of the ten first keys")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	bound := map[string]bool{}
	for _, group := range keymap.Default().FullHelp() {
		for _, k := range group {
			for _, s := range k.Keys() {
				bound[s] = true
			}
		}
	}
	rows := 0
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| key ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		rows++
		keys, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(keys, -1) {
			if !bound[m[1]] {
				t.Errorf("README.md teaches %q, which the key map does not bind", m[1])
			}
		}
	}
	if rows != 10 {
		t.Errorf("README.md lists %d first keys, want ten", rows)
	}
}
