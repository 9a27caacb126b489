package model

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"chainwatch/ui"
)

// openScanner shows the scanner modal over the watch screen, which keeps
// polling underneath.
func (a *App) openScanner() tea.Cmd {
	a.scan.SetSize(a.scannerRect().W, a.scannerRect().H)
	return a.scan.Open()
}

// scannerRect is where the modal goes: everything between the header and
// the status bar, which stay live so the trader sees the quote and the
// points while building a scan.
func (a *App) scannerRect() ui.Rect {
	lay := a.layout()
	top := lay.Header.H
	bottom := a.height
	if !lay.Status.Empty() {
		bottom = lay.Status.Y
	}
	return ui.Rect{X: 0, Y: top, W: a.width, H: max(bottom-top, 0)}
}

// onScanner routes a message for the scanner and acts on a picked symbol:
// the modal closes and the screen switches to it.
func (a *App) onScanner(msg tea.Msg) tea.Cmd {
	cmd, picked := a.scan.Update(msg)
	if picked == "" {
		return cmd
	}
	a.scan.Close()
	sym := strings.ToUpper(picked)
	if sym == a.q.Symbol {
		return cmd
	}
	q := a.q
	q.Symbol = sym
	return tea.Batch(cmd, a.changeQuery(q))
}

// onScanDone counts a finished scan's points (the service charged them
// whatever the modal does now) and, when the modal was closed while it
// ran, says so in the status bar.
func (a *App) onScanDone(m scanDoneMsg) tea.Cmd {
	a.poll.sched.Outside(m.Out.Resp)
	wasOpen := a.scan.IsOpen()
	cmd := a.onScanner(m)
	if !wasOpen && m.Gen == a.scan.runGen {
		if m.Err != nil {
			a.notice = "scan failed: S shows why"
		} else {
			n := 0
			if m.Out.Result != nil {
				n = len(m.Out.Result.Output)
			}
			a.notice = fmt.Sprintf("scan finished: %d rows, S shows them", n)
		}
	}
	return cmd
}

// pointsLeft is the month's balance as last reported, for the scanner's
// cost line.
func (a *App) pointsLeft() (int64, bool) {
	v, ok := a.poll.sched.Stats(a.sh.Now()).PointsLeft.Get()
	return int64(v), ok
}
