package model

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/prompt"
	"chainwatch/ui"
)

// onKey routes a key: an open prompt takes everything; then the help
// screen; then quit and help; then the page that shows, or the screen's
// keys and the focused pane.
func (a *App) onKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	a.lastInput = a.sh.Now()
	wake := a.replanIfChanged()
	if key.Matches(k, keys.Interrupt) {
		return a.quit()
	}
	if a.prompt != nil {
		if a.wl.on {
			return tea.Batch(wake, a.onWatchlistPromptKey(k))
		}
		return tea.Batch(wake, a.onPromptKey(k))
	}
	if a.scan.IsOpen() {
		return tea.Batch(wake, a.onScanner(k))
	}
	if a.banner && !a.wl.on {
		// "Any key dismisses this": that key does only that, so a trader
		// who presses q or / to get rid of it does not quit or prompt.
		a.banner = false
		return wake
	}
	if a.help {
		switch {
		case key.Matches(k, keys.Quit):
			return a.quit()
		case key.Matches(k, keys.Help), key.Matches(k, keys.Close):
			a.help = false
		}
		return wake
	}
	// Quit and help mean the same on every screen and page.
	switch {
	case key.Matches(k, keys.Quit):
		return a.quit()
	case key.Matches(k, keys.Help):
		a.help = true
		return wake
	}
	if a.wl.on {
		return tea.Batch(wake, a.onWatchlistKey(k))
	}
	if a.contract.open {
		return tea.Batch(wake, a.onContractKey(k))
	}
	if a.volOpen {
		return tea.Batch(wake, a.onVolKey(k))
	}
	return tea.Batch(wake, a.onScreenKey(k))
}

func (a *App) onScreenKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Scanner):
		a.notice = ""
		return a.openScanner()
	case key.Matches(k, keys.Vol):
		return a.openVol()
	case key.Matches(k, keys.Symbol):
		a.prompt = prompt.NewSymbol(a.sh, a.q.Symbol, a.known(), a.unknown)
		return nil
	case key.Matches(k, keys.Watchlist):
		return a.openWatchlist()
	case key.Matches(k, keys.Date):
		a.prompt = prompt.NewDate(a.sh, a.q.Date)
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
		a.showTape = !a.showTape
		a.fixFocus()
		return a.replan()
	case key.Matches(k, keys.Calendar):
		a.showCal = !a.showCal
		a.fixFocus()
		return nil
	case key.Matches(k, keys.Refresh):
		return a.refreshNow()
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
	greeks := a.tape.GreeksWanted()
	a.tape.Update(k)
	if a.tape.GreeksWanted() != greeks {
		return a.replan() // the greeks columns were shown or hidden
	}
	a.cal.Update(k)
	before := a.chain.Expiry()
	a.chain.Update(k)
	if a.chain.Expiry() != before {
		return a.expiryChanged()
	}
	a.tape.SetContract(a.chain.SelectedOSI())
	return nil
}

// refreshNow fetches the visible feeds at once, whatever the timers say;
// a feed already in flight is not asked twice.
func (a *App) refreshNow() tea.Cmd {
	var cmds []tea.Cmd
	for _, f := range []feed.Feed{feed.FeedChain, feed.FeedTape} {
		if a.poll.inflight[f] == 0 {
			cmds = append(cmds, a.fetch(f))
		}
	}
	return tea.Batch(cmds...)
}

// visible reports whether pane p is on screen.
func (a *App) visible(p pane) bool {
	switch p {
	case paneTape:
		return a.showTape
	case paneCalendar:
		return a.showCal
	}
	return true
}

func (a *App) cycleFocus(step int) {
	p := a.focus
	for range numPanes {
		p = (p + pane(step) + numPanes) % numPanes
		if a.visible(p) {
			a.focus = p
			return
		}
	}
}

// fixFocus moves the focus off a pane that was just hidden.
func (a *App) fixFocus() {
	if !a.visible(a.focus) {
		a.focus = paneLadder
	}
}

// onClick focuses the pane under the mouse and selects what was clicked.
func (a *App) onClick(m tea.Mouse) tea.Cmd {
	a.lastInput = a.sh.Now()
	if a.prompt != nil || a.help || a.scan.IsOpen() || a.volOpen || a.width == 0 || a.contract.open {
		return nil
	}
	if a.wl.on {
		return a.onWatchlistMouse(m, false)
	}
	lay := a.layout()
	switch r := lay.Tabs; {
	case inside(r, m.X, m.Y), inside(lay.Strip, m.X, m.Y):
		// A tab's strip cell is under it: a click on either picks it.
		if a.chain.ClickTab(m.X-r.X, r.W) {
			return a.expiryChanged()
		}
	case inside(lay.Ladder, m.X, m.Y):
		a.focus = paneLadder
		top := lay.Ladder.Y + len(a.bannerLines(lay.Ladder))
		if m.Y >= top {
			a.chain.Click(m.X-lay.Ladder.X, m.Y-top, lay.Ladder.W, lay.Ladder.H-(top-lay.Ladder.Y))
			a.tape.SetContract(a.chain.SelectedOSI())
		}
	case inside(lay.Tape, m.X, m.Y):
		a.focus = paneTape
	case inside(lay.Calendar, m.X, m.Y):
		a.focus = paneCalendar
	}
	return nil
}

// onWheel scrolls the pane under the mouse.
func (a *App) onWheel(m tea.Mouse) tea.Cmd {
	a.lastInput = a.sh.Now()
	if a.prompt != nil || a.help || a.scan.IsOpen() || a.volOpen || a.width == 0 {
		return nil
	}
	if a.wl.on {
		return a.onWatchlistMouse(m, true)
	}
	step := 1
	if m.Button == tea.MouseWheelUp {
		step = -1
	} else if m.Button != tea.MouseWheelDown {
		return nil
	}
	if a.contract.open {
		a.contract.page.Scroll(step)
		return nil
	}
	lay := a.layout()
	switch {
	case inside(lay.Ladder, m.X, m.Y):
		a.chain.Scroll(step)
		a.tape.SetContract(a.chain.SelectedOSI())
	case inside(lay.Tape, m.X, m.Y):
		a.tape.Scroll(step)
	case inside(lay.Calendar, m.X, m.Y):
		a.cal.Scroll(step)
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
