package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

// TestPositionsMessageKeepsItsWords: the page's message (no positions
// yet) wraps at blanks on a narrow screen instead of losing its tail.
func TestPositionsMessageKeepsItsWords(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	msg := "No positions yet: build a strategy on the ladder (space, z, T) and save it with s"
	for _, w := range []int{40, 80, 160} {
		lines := PositionsPage(&PositionsData{Summary: "Positions · 0 open", Message: msg}, w, 10, st)
		var words []string
		for _, l := range lines[1:] {
			plain := ansi.Strip(l)
			if ansi.StringWidth(plain) != w {
				t.Fatalf("%d columns: a line %d wide", w, ansi.StringWidth(plain))
			}
			words = append(words, strings.Fields(plain)...)
		}
		if got := strings.Join(words, " "); got != msg {
			t.Errorf("%d columns: the message reads %q", w, got)
		}
	}
}
