package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestEveryPageNamesHelpAt80: on every page the status bar keeps "? help"
// at 80 columns, the way to every other key; the alerts page's hint was
// its own keys alone, dropped whole for want of room.
func TestEveryPageNamesHelpAt80(t *testing.T) {
	r, c := offlineRig(t)
	loadRig(t, r, testNow)
	a := r.a
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []tea.KeyPressMsg{runeKey('v'), runeKey('p'), {Code: tea.KeyEnter}, runeKey('W'), runeKey('T'), runeKey('P'), runeKey('a')} {
		a.Update(k)
		frame := ansi.Strip(a.drawAt(c.Now()))
		lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
		if !strings.HasSuffix(strings.TrimRight(lines[len(lines)-1], " "), "? help") {
			t.Errorf("%s (page %v): the status bar %q", k, a.topID(), lines[len(lines)-1])
		}
		a.Update(keyEsc())
	}
}
