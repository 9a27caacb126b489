package model

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/feed"
	"chainwatch/ui"
)

// How the screens test (screens_test.go) drives and reads the root: the
// keys it presses, the jobs the pages want, the frame's size.

// jobsOf are the jobs the root's pages want of the monitor, as the root
// works them out after each message.
func jobsOf(a *App) []*feed.Job {
	var out []*feed.Job
	_, ws := a.wants()
	for _, w := range ws {
		if w.Job != nil {
			out = append(out, w.Job)
		}
	}
	return out
}

// checkFrame fails tb unless the frame is exactly the terminal's size
// (or says it is too small to be).
func checkFrame(tb testing.TB, c screenCase, what string, a *App) {
	tb.Helper()
	w, h := a.scr.width, a.scr.height
	if w == 0 || ui.TooSmall(w, h) {
		return
	}
	lines := strings.Split(a.View().Content, "\n")
	if len(lines) != h {
		tb.Fatalf("%s: %s: %d lines at %dx%d", c, what, len(lines), w, h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			tb.Fatalf("%s: %s: line %d is %d cells at %dx%d: %q", c, what, i, n, w, h, ansi.Strip(l))
		}
	}
}

// The keys a page is walked with: moving, the panes' and the pages' own
// (columns, strikes, templates, sort, quantity, remove and undo...),
// never quit. An overlay is walked with its own.
var (
	pageKeys = []string{"up", "down", "left", "right", "pgdown", "pgup", "home", "end", "[", "]", "tab", "shift+tab",
		"c", "w", "t", "e", "i", "f", "g", "G", "o", "<", ">", "+", "-", "x", "X", "u", "K", "J", "r", "m", "space", "z", "R"}
	overlayKeys = []string{"up", "down", "left", "right", "tab", "backspace", "enter", "esc", "1", "9", ".", "ctrl+l", "ctrl+g",
		"ctrl+o", "ctrl+x", "ctrl+t", "pgdown"}
)

// pressKey is a key as the terminal sends it, by the keymap's name.
func pressKey(name string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "pgup": tea.KeyPgUp,
		"pgdown": tea.KeyPgDown, "left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "space": tea.KeySpace}
	var mod tea.KeyMod
	switch {
	case strings.HasPrefix(name, "ctrl+"):
		mod, name = tea.ModCtrl, strings.TrimPrefix(name, "ctrl+")
	case strings.HasPrefix(name, "shift+"):
		mod, name = tea.ModShift, strings.TrimPrefix(name, "shift+")
	}
	if code, ok := named[name]; ok {
		k := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r := []rune(name)[0]
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Text: string(r)}
}

func typeInto(step func(string, tea.Msg), s string) {
	for i, r := range s {
		step(fmt.Sprintf("type %d", i), tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}
