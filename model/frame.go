package model

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	"chainwatch/ui"
)

// armFrame arms the frame clock's tick for the next moment the screen's
// text can change.
func (a *App) armFrame() tea.Cmd {
	now := a.sh.Now()
	return a.scr.frame.Arm(now, a.countsSeconds(now), a.cfg.ClockSpeed)
}

// countsSeconds says whether the screen shows a count that moves every
// second: an age or countdown under an hour is drawn with its seconds.
func (a *App) countsSeconds(now time.Time) bool {
	if a.overlay == a.scan {
		return true // its results say how long ago they ran
	}
	page := common.StackStatus(a.stack, a.built[:], now)
	if page.Ticks {
		return true
	}
	if err := common.LastErr(page.Errs); err != nil && now.Sub(err.At) < time.Hour {
		return true // "3s ago"; from an hour on, "1h02m ago"
	}
	d := a.statusData(now)
	return d.NextFeed != ""
}

// render draws the frame for View to return, and its window title.
func (a *App) render() {
	now := a.sh.Now()
	a.scr.frame.Content = a.frame(now)
	a.scr.frame.Title = a.top().Status(now).Title
	a.scr.frame.Renders++
}

// prepare gives every page its size and focus, every overlay its size,
// and the pages on the stack the monitor's snapshot, as the contract asks before
// View: it runs after every message, so drawing writes nothing.
func (a *App) prepare() {
	if p := a.promptOpen(); p != nil {
		p.SetSize(ui.NewLayout(a.scr.width, a.scr.height, true, true).Status.W, 1)
	}
	r := a.scannerRect()
	a.scan.SetSize(r.W, r.H)
	top := a.topID()
	for id, p := range a.built {
		p.SetSize(a.scr.width, max(a.scr.height-1, 0))
		p.SetFocused(common.PageID(id) == top && a.promptOpen() == nil)
	}
	for _, id := range a.stack {
		a.built[id].Update(common.DrawMsg{Feeds: a.link.Snap})
	}
}

// View is the frame drawn after the last message. The alternate screen,
// mouse and focus reporting are fields of the view in bubbletea v2;
// bubbletea restores the terminal on quit and on a panic.
func (a *App) View() tea.View {
	v := tea.NewView(a.scr.frame.Content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	v.WindowTitle = a.scr.frame.Title
	return v
}

// frame is the top page over the status bar, under the overlay.
func (a *App) frame(now time.Time) string {
	st := a.sh.Styles
	w, h := a.scr.width, a.scr.height
	switch {
	case w == 0 || h == 0:
		return "chainwatch: starting…"
	case ui.TooSmall(w, h):
		return ui.TooSmallMessage(w, h, st)
	}
	lay := ui.NewLayout(w, h, true, true)
	status := ui.Pane{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}}
	if a.overlay == a.scan {
		// The header stays live over the modal: the quote, the points.
		header := a.top().View()[:lay.Header.H]
		return ui.Compose(w, h, []ui.Pane{{R: lay.Header, Lines: header}, {R: a.scannerRect(), Lines: a.scan.View()}, status}, st)
	}
	out := ui.Compose(w, h, []ui.Pane{{R: ui.Rect{W: w, H: h - 1}, Lines: a.top().View()}, status}, st)
	if f, ok := a.overlay.(common.Floating); ok {
		return f.Over(out)
	}
	return out
}
