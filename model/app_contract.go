package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/contract"
	"chainwatch/ui"
)

// contractRoute is what the root keeps about the contract page: the page
// itself and its generation.
type contractRoute struct {
	page *contract.Model
	gen  uint64
}

// openContract shows the contract page of osi, the screen's feeds paused
// beneath it, and fetches the contract's snapshot, trades and quotes at
// once. A symbol that does not parse as OSI is a notice, not a page.
func (a *App) openContract(osi string) tea.Cmd {
	o, err := api.ParseOSI(osi)
	if err != nil {
		a.scr.notice = "no contract selected"
		return nil
	}
	r := &a.parts.contract
	r.gen++
	q := a.q
	q.Gen = r.gen
	r.page.Open(feed.ContractQuery{Query: q, OSI: o})
	a.push(contractPage{a})
	a.scr.notice = ""
	return nil // the monitor fetches the page's feeds at once (syncFeeds)
}

// closeContract goes back to the watch screen, which is fetched again at
// once where its data has aged past its interval. Replies still in
// flight for the page are booked and dropped.
func (a *App) closeContract() tea.Cmd {
	r := &a.parts.contract
	a.pop()
	r.gen++
	return nil
}

// contractPage is the contract page over the watch screen.
type contractPage struct{ a *App }

func (c contractPage) key(k tea.KeyPressMsg) tea.Cmd { return c.a.onContractKey(k) }

func (c contractPage) modal(tea.KeyPressMsg) bool { return false }

func (c contractPage) act(common.Action) tea.Cmd { return nil }

func (c contractPage) feeds(f *feed.Conditions) { f.Contract = true }

func (c contractPage) shown() feed.Feed { return feed.FeedContractTrades } // what moves there

func (c contractPage) status(*ui.StatusData, time.Time) {}

func (c contractPage) help() [][]key.Binding { return c.a.parts.contract.page.FullHelp() }

func (c contractPage) title() string { return "chainwatch · " + c.a.parts.contract.page.OSI() }

func (c contractPage) errs() []error {
	return append(watchScreen(c).errs(), c.a.parts.contract.page.Err())
}

func (c contractPage) hint() string {
	k := c.a.sh.Keys
	return k.Close.Help().Key + " back  " + k.Refresh.Help().Key + " refresh  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit"
}

// mouse: the wheel scrolls the page's prints.
func (c contractPage) mouse(m tea.Mouse, wheel bool) tea.Cmd {
	if step := wheelStep(m); wheel && step != 0 {
		c.a.parts.contract.page.Scroll(step)
	}
	return nil
}

// draw is the page above the status bar.
func (c contractPage) draw(now time.Time) string {
	a := c.a
	lay := a.layout()
	page := ui.Rect{W: a.scr.width, H: max(lay.Status.Y, 0)}
	return ui.Compose(a.scr.width, a.scr.height, []ui.Pane{
		{R: page, Lines: a.parts.contract.page.View()},
		{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}},
	}, a.sh.Styles)
}

// selectedContract is what enter opens: the ladder's contract under the
// cursor (the side it is on), or the tape's selected print.
func (a *App) selectedContract() string {
	if a.w.focus == paneTape && a.w.showTape {
		return a.w.tape.SelectedOSI()
	}
	return a.w.chain.SelectedOSI()
}

// onContractKey routes a key while the page is shown: esc goes back,
// refresh fetches the page now, the rest scroll its prints.
func (a *App) onContractKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Close):
		return a.closeContract()
	case key.Matches(k, keys.Refresh):
		return a.fetchNow(contractFeeds[:]...)
	}
	a.parts.contract.page.SetFocused(true)
	a.parts.contract.page.Update(k)
	return nil
}
