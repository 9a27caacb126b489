package main

import (
	"os"
	"path/filepath"
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
