package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
)

// openVol shows the vol page. The whole chain the ladder holds is the
// term structure until the first fetch, which waits its interval after
// that chain, and at least config.TermFirstDelay: the page shows what a
// fetch costs before it is made, and a quick look costs nothing.
func (a *App) openVol() tea.Cmd {
	a.push(volPage{a})
	a.scr.notice = ""
	return nil // the monitor plans the term structure (syncFeeds)
}

// closeVol goes back to the watch screen; the term structure's timer is
// outdated by the replan, and the tape resumes.
func (a *App) closeVol() tea.Cmd {
	a.pop()
	return nil
}

// onVolKey routes a key on the vol page: its own (smile), the ladder's
// expiry and strike moves (the smile follows the ladder's cursor), and
// the screen-wide keys that make sense over it.
func (a *App) onVolKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Close, keys.Vol):
		return a.closeVol()
	case key.Matches(k, keys.Symbol, keys.Date, keys.Mode):
		return a.onScreenKey(k)
	case key.Matches(k, keys.Refresh):
		if a.q.Historical(a.sh.Now()) {
			return nil
		}
		return a.fetchNow(feed.FeedChain, feed.FeedTerm)
	case key.Matches(k, keys.Up, keys.PrevExpiry):
		if a.w.chain.StepExpiry(-1) {
			return a.expiryChanged()
		}
	case key.Matches(k, keys.Down, keys.NextExpiry):
		if a.w.chain.StepExpiry(1) {
			return a.expiryChanged()
		}
	case key.Matches(k, keys.Left):
		a.w.chain.Scroll(-1)
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
	case key.Matches(k, keys.Right):
		a.w.chain.Scroll(1)
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
	default:
		a.parts.vol.Update(k)
	}
	return nil
}

// volPage is the vol page over the watch screen.
type volPage struct{ a *App }

func (v volPage) key(k tea.KeyPressMsg) tea.Cmd { return v.a.onVolKey(k) }

func (v volPage) modal(tea.KeyPressMsg) bool { return false }

func (v volPage) mouse(tea.Mouse, bool) tea.Cmd { return nil }

func (v volPage) act(act common.Action) tea.Cmd { return watchScreen(v).act(act) }

func (v volPage) draw(now time.Time) string { return v.a.renderVol(now) }

func (v volPage) shown() feed.Feed { return feed.FeedChain }

func (v volPage) errs() []error { return watchScreen(v).errs() }

func (v volPage) status(d *ui.StatusData, now time.Time) { v.a.volStatus(d, now) }

func (v volPage) help() [][]key.Binding { return v.a.parts.vol.FullHelp() }

func (v volPage) title() string { return watchScreen(v).title() }

func (v volPage) hint() string {
	k := v.a.sh.Keys
	return k.Close.Help().Key + " back  " + k.PrevExpiry.Help().Key + k.NextExpiry.Help().Key + " expiry  " +
		k.Smile.Help().Key + " smile  " + k.Help.Help().Key + " help"
}

// feeds: the page covers the tape (it is not polled; it catches up when
// the page closes) and wants the term structure.
func (v volPage) feeds(c *feed.Conditions) { c.TapeVisible, c.VolVisible = false, true }

// renderVol is the vol page between the header and the status bar,
// which stay: the quote and its age, the points and the next fetch.
func (a *App) renderVol(now time.Time) string {
	lay := a.layout()
	h := a.headerData(now)
	r := a.scannerRect()
	st := a.sh.Styles
	return ui.Compose(a.scr.width, a.scr.height, []ui.Pane{
		{R: lay.Header, Lines: ui.Header(&h, lay.Header.W, st)},
		{R: r, Lines: a.parts.vol.View()},
		{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}},
	}, st)
}

// volMessage is what the page says instead of charts while the chain has
// nothing to show.
func (a *App) volMessage() string {
	c := a.w.chain
	switch {
	case c.NoSuchSymbol():
		return "no such symbol: " + a.q.Symbol
	case len(c.Surface().Exps) > 0:
		return ""
	case c.Loading():
		return "loading " + a.q.Symbol + "…"
	case c.Err() != nil:
		return a.q.Symbol + ": " + feed.Describe(c.Err(), "")
	}
	return "no options listed for " + a.q.Symbol
}

// termCost is what the term structure costs and how old it is, at now.
func (a *App) termCost(now time.Time) ui.TermCost {
	hist := a.q.Historical(now)
	t := ui.TermCost{
		Points:   api.Cost(api.EndpointOptionQuotes, a.q.Mode, hist),
		Age:      -1,
		Next:     -1,
		Fetching: a.feeds().InFlight(feed.FeedTerm),
	}
	if !hist {
		t.Every = a.feeds().Interval(feed.FeedTerm, now)
	}
	if at := a.w.chain.FullAt(); !at.IsZero() {
		t.Age = max(now.Sub(at), 0)
	}
	if due := a.feeds().Due(feed.FeedTerm); !due.IsZero() {
		t.Next = max(due.Sub(now), 0)
	}
	return t
}

// volStatus makes the status bar's "next" the term structure's fetch and
// its cost while the page shows: that is what the page adds to the bill.
func (a *App) volStatus(d *ui.StatusData, now time.Time) {
	if due := a.feeds().Due(feed.FeedTerm); !due.IsZero() && d.Paused == "" {
		d.NextFeed, d.Next = feed.FeedTerm.String(), max(due.Sub(now), 0)
		d.NextCost = api.Cost(api.EndpointOptionQuotes, a.q.Mode, false)
	}
}
