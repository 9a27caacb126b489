package model

import (
	tea "charm.land/bubbletea/v2"

	"chainwatch/ui"
)

// openScanner shows the scanner modal over the watch screen; only the
// feed of the header above it is polled underneath (wants).
func (a *App) openScanner() tea.Cmd {
	r := a.scannerRect()
	a.scan.SetSize(r.W, r.H)
	a.overlay = a.scan
	return a.scan.Open()
}

// scannerRect is where the modal goes: between the header and the status
// bar, which stay live so the trader sees the quote and the points while
// building a scan.
func (a *App) scannerRect() ui.Rect { return ui.BodyRect(a.scr.width, a.scr.height) }

// onScanner routes a message for the scanner and carries out its
// Action: a picked symbol closes the modal and switches the screen to it;
// a notice (a run that ended while the modal was closed) goes to the
// status bar.
func (a *App) onScanner(msg tea.Msg) tea.Cmd {
	cmd, act := a.scan.Update(msg)
	cmd = tea.Batch(cmd, a.fromOverlay(a.scan, act))
	if a.overlay == a.scan && !a.scan.IsOpen() {
		a.overlay = nil // the modal closed itself (esc)
	}
	return cmd
}
