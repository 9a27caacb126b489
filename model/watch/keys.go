package watch

import (
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/strategy"
	"chainwatch/ui"
)

// onKey: while the first-run banner shows, any key dismisses it and
// only the help key, which the banner names, does more: a trader who
// presses q or / to get rid of it does not quit or prompt. Then the keys
// every page shares, the screen's own, the panes'.
func (s *Screen) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if s.banner {
		s.banner = false
		if !key.Matches(k, s.sh.Keys.Help) {
			return nil, nil
		}
	}
	if act := common.SharedKey(s.sh, k); act != nil {
		return nil, act
	}
	if act := s.openKey(k); act != nil {
		return nil, act
	}
	keys := s.sh.Keys
	switch {
	case key.Matches(k, keys.Alert):
		return nil, s.proposeAlert()
	case key.Matches(k, keys.NextPane):
		s.cycleFocus(1)
	case key.Matches(k, keys.PrevPane):
		s.cycleFocus(-1)
	case key.Matches(k, keys.Tape):
		s.showTape = !s.showTape
		s.fixFocus()
	case key.Matches(k, keys.Calendar):
		s.showCal = !s.showCal
		s.fixFocus()
	case key.Matches(k, keys.Refresh):
		return nil, common.Refresh{Feeds: []feed.Feed{feed.FeedChain, feed.FeedTape}}
	case key.Matches(k, keys.Open):
		return nil, s.openContract()
	case key.Matches(k, keys.Ticket):
		return s.ticket(k)
	case key.Matches(k, keys.TicketBuy, keys.TicketSell):
		if s.focus != paneLadder {
			// The ladder's contract is not what the focused pane shows:
			// the key is the focused pane's, and says so if unused.
			return s.paneKey(k), common.Notice{Text: k.String() + " puts the ladder's contract on the ticket: " +
				keys.NextPane.Help().Key + " to the ladder first"}
		}
		return s.ticket(k)
	default:
		if act, ok := s.queryKey(k); ok {
			return nil, act
		}
		return s.paneKey(k), nil
	}
	return nil, nil
}

// openKey is the Action of a key that opens a page or the scanner from
// the screen; nil for any other key.
func (s *Screen) openKey(k tea.KeyPressMsg) common.Action {
	keys := s.sh.Keys
	switch {
	case key.Matches(k, keys.Scanner):
		return common.OpenScanner{}
	case key.Matches(k, keys.Vol):
		return common.Open{Page: common.PageVol}
	case key.Matches(k, keys.Watchlist):
		return common.Open{Page: common.PageWatchlist}
	case key.Matches(k, keys.Positioning):
		return common.Open{Page: common.PagePositioning}
	case key.Matches(k, keys.Alerts):
		return common.Open{Page: common.PageAlerts}
	case key.Matches(k, keys.Positions):
		return common.Open{Page: common.PagePositions, Msg: common.PositionsChangedMsg{}}
	}
	return nil
}

// queryKey is a key that picks another symbol, day or mode, on the
// screen and on the vol page.
func (s *state) queryKey(k tea.KeyPressMsg) (common.Action, bool) {
	keys := s.sh.Keys
	switch {
	case key.Matches(k, keys.Symbol):
		return common.AskSymbol{}, true
	case key.Matches(k, keys.Date):
		return common.AskDate{}, true
	case key.Matches(k, keys.Mode):
		return common.ChangeQuery{Query: s.otherMode()}, true
	}
	return nil, false
}

// openContract opens the contract page of what enter selects: the
// ladder's contract under the cursor (the side it is on), or the tape's
// selected print. A symbol that does not parse as OSI is a notice.
func (s *state) openContract() common.Action {
	osi := s.chain.SelectedOSI()
	if s.focus == paneTape && s.showTape {
		osi = s.tape.SelectedOSI()
	}
	if _, err := api.ParseOSI(osi); err != nil {
		return common.Notice{Text: "no contract selected"}
	}
	return common.Open{Page: common.PageContract, Msg: common.OpenContract{OSI: osi}}
}

// paneKey hands a key to the panes; each takes only its own keys (the
// ladder's expiry keys and the tape's filters whatever has the focus,
// movement only in the focused pane), so no key does two things. What
// the ladder changed is read back from it: a new expiry is fetched after
// the debounce, a new selection filters the tape.
func (s *state) paneKey(k tea.KeyPressMsg) tea.Cmd {
	s.focusParts()
	greeks := s.tape.GreeksWanted()
	s.tape.Update(k)
	if s.tape.GreeksWanted() != greeks {
		return nil // the greeks columns were shown or hidden
	}
	s.cal.Update(k)
	before := s.chain.Expiry()
	s.chain.Update(k)
	if s.chain.Expiry() != before {
		return s.expiryChanged()
	}
	s.tape.SetContract(s.chain.SelectedOSI())
	return nil
}

// visible reports whether pane p is on screen.
func (s *state) visible(p pane) bool {
	switch p {
	case paneTape:
		return s.showTape
	case paneCalendar:
		return s.showCal
	}
	return true
}

func (s *state) cycleFocus(step int) {
	p := s.focus
	for range numPanes {
		p = (p + pane(step) + numPanes) % numPanes
		if s.visible(p) {
			s.focus = p
			s.focusParts() // leaving the tape resumes it now, not at the next frame
			return
		}
	}
}

// fixFocus moves the focus off a pane that was just hidden.
func (s *state) fixFocus() {
	if !s.visible(s.focus) {
		s.focus = paneLadder
	}
	s.focusParts()
}

// onClick focuses the pane under the mouse and selects what was clicked.
func (s *state) onClick(m tea.Mouse) tea.Cmd {
	defer s.focusParts()
	lay := s.layout()
	switch r := lay.Tabs; {
	case inside(r, m.X, m.Y), inside(lay.Strip, m.X, m.Y):
		// A tab's strip cell is under it: a click on either picks it.
		if s.chain.ClickTab(m.X-r.X, r.W) {
			return s.expiryChanged()
		}
	case inside(lay.Ladder, m.X, m.Y):
		s.focus = paneLadder
		s.chain.Click(m.X-lay.Ladder.X, m.Y-lay.Ladder.Y, lay.Ladder.W, lay.Ladder.H)
		s.tape.SetContract(s.chain.SelectedOSI())
	case inside(lay.Tape, m.X, m.Y):
		s.focus = paneTape
	case inside(lay.Calendar, m.X, m.Y):
		s.focus = paneCalendar
	}
	return nil
}

// onWheel scrolls the pane under the mouse.
func (s *state) onWheel(m tea.Mouse) {
	step := common.WheelStep(m)
	if step == 0 {
		return
	}
	lay := s.layout()
	switch {
	case inside(lay.Ladder, m.X, m.Y):
		s.chain.Scroll(step)
		s.tape.SetContract(s.chain.SelectedOSI())
	case inside(lay.Tape, m.X, m.Y):
		// The wheel holds the tape where it goes: the tape takes the
		// focus, so its resume key works and leaving it resumes it.
		s.focus = paneTape
		s.focusParts()
		s.tape.Scroll(step)
	case inside(lay.Calendar, m.X, m.Y):
		s.cal.Scroll(step)
	}
}

func inside(r ui.Rect, x, y int) bool {
	return r.W > 0 && r.H > 0 && x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// ticket sends the ladder's cursor to the strategy page: with the
// contract under it bought (space) or sold, which leaves the screen as it
// is, or (T) opening the page.
func (s *state) ticket(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	cur, ok := s.chain.Cursor()
	if !ok {
		return nil, common.Notice{Text: "no contract under the cursor"}
	}
	keys := s.sh.Keys
	if key.Matches(k, keys.Ticket) {
		return nil, common.Open{Page: common.PageStrategy, Msg: common.TicketMsg{Cursor: cur}}
	}
	leg := strategy.Leg{Kind: strategy.Put, Qty: 1, Root: cur.Root, Expiry: cur.Expiry, Strike: cur.Strike, Price: math.NaN()}
	if cur.Call {
		leg.Kind = strategy.Call
	}
	if key.Matches(k, keys.TicketSell) {
		leg.Qty = -1
	}
	msg := common.TicketMsg{Cursor: cur, Add: leg}
	return func() tea.Msg { return msg }, nil
}
