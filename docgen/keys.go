package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"

	"chainwatch/keymap"
)

// The watch screen's page lists every key of its help screen, in the help
// screen's groups, from the key map itself (keymap.Default): a key remapped
// or added there is stale here until go generate ./docgen.
const (
	keysPage  = "docs/watch.md"
	keysBegin = "<!-- The keys below are made from keymap.Default(): go generate ./docgen -->"
	keysEnd   = "<!-- End of the keys made from keymap.Default(). -->"
)

// keyGroups names the help screen's columns (keymap.FullHelp), in order.
var keyGroups = []string{"moving and the ticket", "expiries, panes and pages", "symbols, pages and data", "the tape, alerts and the rest"}

// keysTable is the help screen's keys as a Markdown table, between blank
// lines: each binding's keys as typed, and its help.
func keysTable() (string, error) {
	groups := keymap.Default().FullHelp()
	if len(groups) != len(keyGroups) {
		return "", fmt.Errorf("the help screen has %d groups and docgen names %d: name the new one in keyGroups", len(groups), len(keyGroups))
	}
	var b strings.Builder
	b.WriteString("\n\n| keys | does |\n| --- | --- |\n")
	for i, group := range groups {
		b.WriteString("| **" + keyGroups[i] + "** | |\n")
		for _, k := range group {
			b.WriteString("| " + typed(k) + " | " + k.Help().Desc + " |\n")
		}
	}
	b.WriteString("\n")
	return b.String(), nil
}

// typed is a binding's keys as code spans: `up` `k`.
func typed(k key.Binding) string {
	keys := make([]string, 0, len(k.Keys()))
	for _, s := range k.Keys() {
		if s == "|" {
			s = `\|`
		}
		keys = append(keys, "`"+s+"`")
	}
	return strings.Join(keys, " ")
}

// withKeys is page with the text between the key markers made anew.
func withKeys(page string) (string, error) {
	i, j := strings.Index(page, keysBegin), strings.Index(page, keysEnd)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s has no keys between %q and %q", keysPage, keysBegin, keysEnd)
	}
	table, err := keysTable()
	if err != nil {
		return "", err
	}
	return page[:i+len(keysBegin)] + table + page[j:], nil
}

// writeKeys makes the key table of the watch screen's page under root anew.
func writeKeys(root string) error {
	path := filepath.Join(root, keysPage)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	page, err := withKeys(string(b))
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(page), 0o644)
}
