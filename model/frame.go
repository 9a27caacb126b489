package model

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	"chainwatch/model/help"
	"chainwatch/ui"
)

// frameClock keeps the screen still while nothing on it changes.
// bubbletea draws after every message, so the cost of a quiet screen is
// the messages it gets: instead of a tick every second, the screen arms
// one tick for the next moment its text can change. That is the next
// second while a count in seconds is on screen (a quote's age, the next
// refresh, an error's age), else the next minute (the pause's "in
// 13h20m"). Each tick carries a generation, so a sooner tick armed later
// (an error appeared) simply outdates the slower one.
//
// The drawn frame is kept too: a message that changed nothing (an
// outdated tick) redraws nothing, and the renderer, which compares frames
// sixty times a second, finds the same string.
type frameClock struct {
	gen uint64
	due time.Time // screen time the armed tick is for; zero: none armed
	// content is the last frame drawn; renders counts the frames drawn,
	// for the tests.
	content, title string
	renders        int
}

// frameMsg is the frame clock's tick.
type frameMsg struct{ gen uint64 }

// tickMargin puts a tick just past the boundary it waits for, so that the
// text it draws is the new one.
const tickMargin = 5 * time.Millisecond

// armFrame arms the frame clock's tick for the next moment the screen's
// text can change, unless a tick at least as soon is armed already.
func (a *App) armFrame() tea.Cmd {
	now := a.sh.Now()
	step := time.Minute
	if a.countsSeconds(now) {
		step = time.Second
	}
	next := now.Truncate(step).Add(step + tickMargin)
	if f := &a.scr.frame; !f.due.IsZero() && !next.Before(f.due) && f.due.After(now) {
		return nil
	}
	a.scr.frame.gen++
	a.scr.frame.due = next
	msg := frameMsg{gen: a.scr.frame.gen}
	// The screen's clock may run faster than real time (--sandbox-speed);
	// tea.Tick waits in real time.
	wait := time.Duration(float64(next.Sub(now)) / a.cfg.ClockSpeed)
	return tea.Tick(wait, func(time.Time) tea.Msg { return msg })
}

// countsSeconds says whether the screen shows a count that moves every
// second: an age or countdown under an hour is drawn with its seconds.
func (a *App) countsSeconds(now time.Time) bool {
	if a.overlay == a.scan {
		return true // its results say how long ago they ran
	}
	page := a.top().Status(now)
	if page.Ticks {
		return true
	}
	if err := lastErr(page.Errs); err != nil && now.Sub(err.At) < time.Hour {
		return true // "3s ago"; from an hour on, "1h02m ago"
	}
	d := a.statusData(now)
	return d.NextFeed != ""
}

// draw readies the pages and draws the frame after a message, for View
// to return.
func (a *App) draw() {
	a.prepare()
	a.render()
}

// render draws the frame for View to return, and its window title.
func (a *App) render() {
	now := a.sh.Now()
	a.scr.frame.content = a.frame(now)
	a.scr.frame.title = a.top().Status(now).Title
	a.scr.frame.renders++
}

// prepare gives every page its size and focus, every overlay its size,
// and the top page the monitor's snapshot, as the contract asks before
// View: it runs after every message, so drawing writes nothing.
func (a *App) prepare() {
	if p := a.promptOpen(); p != nil {
		p.SetSize(ui.NewLayout(a.scr.width, a.scr.height, true, true).Status.W, 1)
	}
	if h, ok := a.overlay.(*help.Model); ok {
		h.SetSize(a.scr.width, a.scr.height)
	}
	r := a.scannerRect()
	a.scan.SetSize(r.W, r.H)
	top := a.topID()
	for id, p := range a.built {
		p.SetSize(a.scr.width, max(a.scr.height-1, 0))
		p.SetFocused(common.PageID(id) == top && a.promptOpen() == nil)
	}
	a.top().Update(common.DrawMsg{Feeds: a.link.snap})
}

// View is the frame drawn after the last message. The alternate screen,
// mouse and focus reporting are fields of the view in bubbletea v2;
// bubbletea restores the terminal on quit and on a panic.
func (a *App) View() tea.View {
	v := tea.NewView(a.scr.frame.content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	v.WindowTitle = a.scr.frame.title
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
	if help, ok := a.overlay.(*help.Model); ok {
		return help.Over(out)
	}
	return out
}
