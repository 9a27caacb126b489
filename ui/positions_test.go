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

// TestStrategyMessageKeepsItsWords: the strategy page's message (an
// empty ticket) wraps at blanks, centred, instead of ending "t builds a
// t…" at 80 columns.
func TestStrategyMessageKeepsItsWords(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	msg := "The ticket is empty: space buys and z sells the ladder's contract, t builds a template at its cursor"
	for _, w := range []int{30, 80, 160} {
		lines := StrategyPage(&StrategyData{Title: "Strategy", Message: msg}, w, 10, st)
		if len(lines) != 10 {
			t.Fatalf("%d columns: %d lines", w, len(lines))
		}
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
