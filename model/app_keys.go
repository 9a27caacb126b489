package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
	"chainwatch/ui"
)

// onKey routes a key: the overlay takes everything while one is open;
// then what the top page takes first (the first-run banner); then quit
// and help, which mean the same on every page; then the top page.
func (a *App) onKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	a.scr.lastInput = a.sh.Now() // no longer idle: the feeds speed up (syncFeeds)
	if key.Matches(k, keys.Interrupt) {
		return a.quit()
	}
	if a.overlay != nil {
		return a.onOverlay(k)
	}
	if a.top().modal(k) {
		return nil
	}
	switch {
	case key.Matches(k, keys.Quit):
		return a.quit()
	case key.Matches(k, keys.Help):
		a.overlay = helpOverlay{a.sh}
		return nil
	}
	return a.top().key(k)
}

// watchScreen is the bottom page: the ladder, the tape and the calendar.
type watchScreen struct{ a *App }

func (w watchScreen) key(k tea.KeyPressMsg) tea.Cmd { return w.a.onScreenKey(k) }

// modal: "any key dismisses this", and that key does only that, so a
// trader who presses q or / to get rid of the banner does not quit or
// prompt.
func (w watchScreen) modal(tea.KeyPressMsg) bool {
	if !w.a.w.banner {
		return false
	}
	w.a.w.banner = false
	return true
}

func (w watchScreen) mouse(m tea.Mouse, wheel bool) tea.Cmd {
	if wheel {
		return w.a.onWheel(m)
	}
	return w.a.onClick(m)
}

// act: a symbol or a day picked switches the screen to it.
func (w watchScreen) act(act common.Action) tea.Cmd {
	a := w.a
	q := a.q
	switch act := act.(type) {
	case common.PickSymbol:
		q.Symbol = act.Symbol
	case common.PickDate:
		q.Date = act.Date
	}
	if q == a.q {
		return nil
	}
	return a.changeQuery(q)
}

func (w watchScreen) feeds(c *feed.Conditions) {
	c.TapeVisible = w.a.w.showTape
	c.TapeGreeks = w.a.w.tape.GreeksWanted()
}
func (w watchScreen) draw(now time.Time) string { return w.a.renderWatch(now) }
func (w watchScreen) shown() feed.Feed          { return feed.FeedChain }
func (w watchScreen) errs() []error {
	return []error{w.a.w.chain.Err(), w.a.w.tape.Err(), w.a.w.cal.Err()}
}
func (w watchScreen) status(*ui.StatusData, time.Time) {}
func (w watchScreen) help() [][]key.Binding            { return w.a.sh.Keys.FullHelp() }
func (w watchScreen) title() string                    { return "chainwatch · " + w.a.q.Symbol }
func (w watchScreen) hint() string {
	k := w.a.sh.Keys
	return k.Symbol.Help().Key + " symbol  " + k.Scanner.Help().Key + " scan  " + k.Vol.Help().Key + " vol  " + k.Watchlist.Help().Key + " watchlist  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit"
}

func (a *App) onScreenKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Scanner):
		a.scr.notice = ""
		return a.openScanner()
	case key.Matches(k, keys.Vol):
		return a.openVol()
	case key.Matches(k, keys.Symbol):
		a.overlay = prompt.NewSymbol(a.sh, a.q.Symbol, a.known(), a.syms.unknown)
		return nil
	case key.Matches(k, keys.Watchlist):
		return a.openWatchlist()
	case key.Matches(k, keys.Date):
		a.overlay = prompt.NewDate(a.sh, a.q.Date)
		return nil
	case key.Matches(k, keys.Mode):
		return a.changeQuery(a.otherMode())
	case key.Matches(k, keys.NextPane):
		a.cycleFocus(1)
		return nil
	case key.Matches(k, keys.PrevPane):
		a.cycleFocus(-1)
		return nil
	case key.Matches(k, keys.Tape):
		a.w.showTape = !a.w.showTape
		a.fixFocus()
		return nil
	case key.Matches(k, keys.Calendar):
		a.w.showCal = !a.w.showCal
		a.fixFocus()
		return nil
	case key.Matches(k, keys.Refresh):
		return a.fetchNow(feed.FeedChain, feed.FeedTape)
	case key.Matches(k, keys.Open):
		return a.openContract(a.selectedContract())
	}
	return a.paneKey(k)
}

// paneKey hands a key to the panes; each takes only its own keys (the
// ladder's expiry keys and the tape's filters whatever has the focus,
// movement only in the focused pane), so no key does two things. What
// the ladder changed is read back from it: a new expiry is fetched after
// the debounce, a new selection filters the tape.
func (a *App) paneKey(k tea.KeyPressMsg) tea.Cmd {
	a.focusParts()
	greeks := a.w.tape.GreeksWanted()
	a.w.tape.Update(k)
	if a.w.tape.GreeksWanted() != greeks {
		return nil // the greeks columns were shown or hidden
	}
	a.w.cal.Update(k)
	before := a.w.chain.Expiry()
	a.w.chain.Update(k)
	if a.w.chain.Expiry() != before {
		return a.expiryChanged()
	}
	a.w.tape.SetContract(a.w.chain.SelectedOSI())
	return nil
}

// visible reports whether pane p is on screen.
func (a *App) visible(p pane) bool {
	switch p {
	case paneTape:
		return a.w.showTape
	case paneCalendar:
		return a.w.showCal
	}
	return true
}

func (a *App) cycleFocus(step int) {
	p := a.w.focus
	for range numPanes {
		p = (p + pane(step) + numPanes) % numPanes
		if a.visible(p) {
			a.w.focus = p
			return
		}
	}
}

// fixFocus moves the focus off a pane that was just hidden.
func (a *App) fixFocus() {
	if !a.visible(a.w.focus) {
		a.w.focus = paneLadder
	}
}

// onMouse hands a click or a wheel turn to the top page, unless an
// overlay is open.
func (a *App) onMouse(m tea.Mouse, wheel bool) tea.Cmd {
	a.scr.lastInput = a.sh.Now()
	if a.overlay != nil || a.scr.width == 0 {
		return nil
	}
	return a.top().mouse(m, wheel)
}

// onClick focuses the pane under the mouse and selects what was clicked.
func (a *App) onClick(m tea.Mouse) tea.Cmd {
	lay := a.layout()
	switch r := lay.Tabs; {
	case inside(r, m.X, m.Y), inside(lay.Strip, m.X, m.Y):
		// A tab's strip cell is under it: a click on either picks it.
		if a.w.chain.ClickTab(m.X-r.X, r.W) {
			return a.expiryChanged()
		}
	case inside(lay.Ladder, m.X, m.Y):
		a.w.focus = paneLadder
		top := lay.Ladder.Y + len(a.bannerLines(lay.Ladder))
		if m.Y >= top {
			a.w.chain.Click(m.X-lay.Ladder.X, m.Y-top, lay.Ladder.W, lay.Ladder.H-(top-lay.Ladder.Y))
			a.w.tape.SetContract(a.w.chain.SelectedOSI())
		}
	case inside(lay.Tape, m.X, m.Y):
		a.w.focus = paneTape
	case inside(lay.Calendar, m.X, m.Y):
		a.w.focus = paneCalendar
	}
	return nil
}

// wheelStep is a wheel turn as a step: -1 up, 1 down, 0 neither.
func wheelStep(m tea.Mouse) int {
	switch m.Button {
	case tea.MouseWheelUp:
		return -1
	case tea.MouseWheelDown:
		return 1
	}
	return 0
}

// onWheel scrolls the pane under the mouse.
func (a *App) onWheel(m tea.Mouse) tea.Cmd {
	step := wheelStep(m)
	if step == 0 {
		return nil
	}
	lay := a.layout()
	switch {
	case inside(lay.Ladder, m.X, m.Y):
		a.w.chain.Scroll(step)
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
	case inside(lay.Tape, m.X, m.Y):
		a.w.tape.Scroll(step)
	case inside(lay.Calendar, m.X, m.Y):
		a.w.cal.Scroll(step)
	}
	return nil
}

func inside(r ui.Rect, x, y int) bool {
	return r.W > 0 && r.H > 0 && x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// otherMode is the query on the other data path (m): live to delayed and
// back.
func (a *App) otherMode() feed.Query {
	q := a.q
	q.Mode = api.Delayed
	if a.q.Mode == api.Delayed {
		q.Mode = api.Live
	}
	return q
}
