package model

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/model/vol"
	"chainwatch/ui"
)

// View draws the frame. The alternate screen, mouse and focus reporting
// are fields of the view in bubbletea v2; bubbletea restores the terminal
// on quit and on a panic.
func (a *App) View() tea.View {
	v := tea.NewView(a.scr.frame.content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	v.WindowTitle = a.top().title()
	return v
}

func (a *App) layout() ui.Layout {
	return ui.NewLayout(a.scr.width, a.scr.height, a.w.showTape, a.w.showCal)
}

func (a *App) render(now time.Time) string {
	st := a.sh.Styles
	switch {
	case a.scr.width == 0 || a.scr.height == 0:
		return "chainwatch: starting…"
	case ui.TooSmall(a.scr.width, a.scr.height):
		return ui.TooSmallMessage(a.scr.width, a.scr.height, st)
	}
	if _, ok := a.overlay.(helpOverlay); ok {
		// The page under the help, drawn as usual.
		return ui.HelpOver(a.top().draw(now), a.top().help(), a.scr.width, a.scr.height, st)
	}
	if a.overlay == a.parts.scan {
		lay := a.layout()
		r := a.scannerRect()
		return ui.Compose(a.scr.width, a.scr.height, []ui.Pane{
			{R: lay.Header, Lines: a.headerLines(lay.Header, now)},
			{R: r, Lines: a.parts.scan.View()},
			{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}},
		}, st)
	}
	return a.top().draw(now)
}

// renderWatch is the watch screen's frame.
func (a *App) renderWatch(now time.Time) string {
	st := a.sh.Styles
	lay := a.layout()
	h := a.headerData(now)
	panes := make([]ui.Pane, 0, 8)
	panes = append(panes,
		ui.Pane{R: lay.Header, Lines: ui.Header(&h, lay.Header.W, st)},
		ui.Pane{R: lay.Tabs, Lines: []string{a.w.chain.TabsView(lay.Tabs.W)}},
		ui.Pane{R: lay.Ladder, Lines: a.ladderLines(lay.Ladder)},
	)
	if r := lay.Strip; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: []string{a.w.chain.StripView(r.W)}})
	}
	if r := lay.Details; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: a.w.chain.DetailsView(r.W, r.H)})
	}
	if r := lay.Tape; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: a.w.tape.View()})
	}
	if r := lay.Calendar; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: a.w.cal.View()})
	}
	panes = append(panes, ui.Pane{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}})
	return ui.Compose(a.scr.width, a.scr.height, panes, st)
}

// ladderLines is the ladder, under the first-run banner while it shows.
func (a *App) ladderLines(r ui.Rect) []string {
	banner := a.bannerLines(r)
	lines := a.w.chain.View()
	if len(banner) == 0 {
		return lines
	}
	return append(banner, lines...)
}

// bannerLines is the first-run banner as it fits over the ladder: at most
// half of it, so the chain is visible from the first second.
func (a *App) bannerLines(r ui.Rect) []string {
	if !a.w.banner {
		return nil
	}
	now := a.sh.Now()
	b := ui.FirstRunBanner(&ui.FirstRun{
		Source: a.cfg.Source, BaseURL: a.cfg.BaseURL, Mode: a.q.Mode,
		Historical: a.q.Historical(now), Date: a.q.Day(now),
	}, r.W, a.sh.Styles)
	if len(b) > r.H/2 {
		b = b[:r.H/2]
	}
	return b
}

// sync gives every part its rectangle, its focus and what it shows from
// the others, as the contract asks before View: it runs after every
// message, so drawing writes nothing.
func (a *App) sync() {
	lay := a.layout()
	now := a.sh.Now()
	if p := a.promptOpen(); p != nil {
		p.SetSize(lay.Status.W, 1)
	}
	r := a.scannerRect()
	a.parts.scan.SetSize(r.W, r.H)
	a.sizeWatchlist(ui.Rect{W: a.scr.width, H: a.scr.height - 1})
	page := ui.Rect{W: a.scr.width, H: max(lay.Status.Y, 0)}
	a.parts.contract.page.SetSize(page.W, page.H)
	a.parts.contract.page.SetFocused(true)
	if onTop[contractPage](a) {
		a.parts.contract.page.SetCost(a.contractCost(now))
	}
	a.parts.vol.SetSize(r.W, r.H)
	if onTop[volPage](a) {
		a.parts.vol.Set(vol.Input{
			Surface: a.w.chain.Surface(), Expiry: a.w.chain.Expiry(), Cursor: a.w.chain.CursorStrike(),
			Earnings: a.w.chain.Earnings(), Term: a.termCost(now), Message: a.volMessage(),
		})
	}
	a.w.chain.SetSize(lay.Ladder.W, lay.Ladder.H-len(a.bannerLines(lay.Ladder)))
	a.w.tape.SetSize(lay.Tape.W, lay.Tape.H)
	a.w.cal.SetSize(lay.Calendar.W, lay.Calendar.H)
	a.focusParts()
}

// focusParts tells each pane whether it has the focus: the ladder loses
// it under a prompt, whose keys are its own.
func (a *App) focusParts() {
	a.w.chain.SetFocused(a.w.focus == paneLadder && a.promptOpen() == nil)
	a.w.tape.SetFocused(a.w.focus == paneTape)
	a.w.cal.SetFocused(a.w.focus == paneCalendar)
}
