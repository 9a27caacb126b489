package model

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/model/chain"
	"chainwatch/model/modeltest"
)

// testNow is the sandbox tests' clock: Friday 2026-11-20, 11:30 Eastern.
var testNow = modeltest.Now

// Key presses as the terminal sends them.
var (
	keyUp   = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown = tea.KeyPressMsg{Code: tea.KeyDown}
)

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// tapeView draws a's tape at w x h, unfocused, through the pane contract.
func tapeView(a *App, w, h int) []string {
	a.w.tape.SetSize(w, h)
	a.w.tape.SetFocused(false)
	return a.w.tape.View()
}

// selStrike is the strike of the ladder's selected contract.
func selStrike(t *testing.T, c *chain.Model) float64 {
	t.Helper()
	d, ok := c.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return d.Strike
}

// resize sets the terminal's size as a test draws it, without the replan
// a WindowSizeMsg brings: every part is sized for the next render.
func (a *App) resize(w, h int) {
	a.scr.width, a.scr.height = w, h
	a.sync()
}

// drawAt is the frame at now, the parts synced first as Update does after
// a message (tests that call update, not Update, draw through it).
func (a *App) drawAt(now time.Time) string {
	a.sync()
	return a.render(now)
}

// What the stack and the overlay slot show, for the tests' assertions.
func volShown(a *App) bool      { return onTop[volPage](a) }
func wlShown(a *App) bool       { return onTop[watchlistPage](a) }
func contractShown(a *App) bool { return onTop[contractPage](a) }
func helpOpen(a *App) bool {
	_, ok := a.overlay.(helpOverlay)
	return ok
}
