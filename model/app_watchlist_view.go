package model

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/ui"
)

// The watchlist page on screen: its frame, what the root tells it for its
// title, the mouse, and what the status bar, help and window title say
// while it shows.

// renderWatchlist is the frame while the page shows: the page over the
// status bar.
func (a *App) renderWatchlist(now time.Time) string {
	r := ui.Rect{W: a.scr.width, H: a.scr.height - 1}
	status := ui.Rect{Y: a.scr.height - 1, W: a.scr.width, H: 1}
	return ui.Compose(a.scr.width, a.scr.height, []ui.Pane{
		{R: r, Lines: a.parts.wl.m.View()},
		{R: status, Lines: []string{a.statusLine(status.W, now)}},
	}, a.sh.Styles)
}

// sizeWatchlist gives the page its rect and what the root knows for its
// title: the source, a refresh's cost, the refresh interval.
func (a *App) sizeWatchlist(r ui.Rect) {
	now := a.sh.Now()
	m := a.parts.wl.m
	m.SetSize(r.W, r.H)
	m.SetFocused(a.promptOpen() == nil)
	m.SetContext(a.cfg.Source, api.Cost(api.EndpointUnderlyingQuotes, a.parts.wl.q.Mode, a.parts.wl.q.Historical(now)),
		a.feeds().Interval(feed.FeedQuotes, now))
}

// headerLines are the lines above the scanner modal: the watch screen's
// header, or on the page its title and headings.
func (a *App) headerLines(r ui.Rect, now time.Time) []string {
	if onTop[watchlistPage](a) {
		return a.parts.wl.m.View()[:r.H]
	}
	h := a.headerData(now)
	return ui.Header(&h, r.W, a.sh.Styles)
}

// onWatchlistMouse selects or sorts (a click) and scrolls (the wheel) on
// the page, which starts at the top left.
func (a *App) onWatchlistMouse(m tea.Mouse, wheel bool) tea.Cmd {
	switch {
	case !wheel:
		a.parts.wl.m.Click(m.X, m.Y)
	case m.Button == tea.MouseWheelUp:
		a.parts.wl.m.Scroll(-1)
	case m.Button == tea.MouseWheelDown:
		a.parts.wl.m.Scroll(1)
	}
	return nil
}

// watchlistPage is the watchlist page: its symbols' quotes and events
// instead of the watch screen, whose feeds wait while it shows.
type watchlistPage struct{ a *App }

func (w watchlistPage) key(k tea.KeyPressMsg) tea.Cmd { return w.a.onWatchlistKey(k) }
func (w watchlistPage) modal(tea.KeyPressMsg) bool    { return false }
func (w watchlistPage) mouse(m tea.Mouse, wheel bool) tea.Cmd {
	return w.a.onWatchlistMouse(m, wheel)
}
func (w watchlistPage) feeds(c *feed.Conditions)         { c.Watchlist = true }
func (w watchlistPage) draw(now time.Time) string        { return w.a.renderWatchlist(now) }
func (w watchlistPage) shown() feed.Feed                 { return feed.FeedQuotes }
func (w watchlistPage) errs() []error                    { return []error{w.a.parts.wl.m.Err()} }
func (w watchlistPage) status(*ui.StatusData, time.Time) {}
func (w watchlistPage) hint() string                     { return w.a.parts.wl.hint }
func (w watchlistPage) help() [][]key.Binding            { return w.a.parts.wl.m.FullHelp() }
func (w watchlistPage) title() string                    { return "chainwatch · watchlist" }
