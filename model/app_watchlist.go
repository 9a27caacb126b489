package model

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
	"chainwatch/model/watchlist"
)

// The root's side of the watchlist page: showing it and going back,
// routing its keys and replies, and its two feeds on the scheduler. While
// the page fills the screen the watch screen's feeds are not polled (the
// scheduler's Conditions.Watchlist), and the other way round.

// watchPage is what the root holds for the watchlist page.
type watchPage struct {
	m *watchlist.Model
	// q is the page's query: the watch screen's mode and date, with a
	// generation of its own, so another symbol on the chain leaves the
	// watchlist's replies valid.
	q      feed.Query
	adding bool   // the open symbol prompt adds to the watchlist
	hint   string // the status bar's reminder on the page, made once
}

func newWatchPage(sh *common.Common, cfg Config) watchPage {
	m := watchlist.New(sh, watchlist.Options{Symbols: cfg.Watchlist, Skipped: cfg.WatchlistSkipped, Save: cfg.SaveWatchlist})
	w, k := keymap.Watchlist(), sh.Keys
	hint := strings.Join([]string{w.Add.Help().Key + " add", w.Remove.Help().Key + " remove", w.Open.Help().Key + " chain",
		w.SortNext.Help().Key + " sort", w.Back.Help().Key + " back", k.Help.Help().Key + " help", k.Quit.Help().Key + " quit"}, "  ")
	return watchPage{m: m, hint: hint}
}

// openWatchlist shows the page; the timers move from the watch screen's
// feeds to the page's.
func (a *App) openWatchlist() tea.Cmd {
	a.push(watchlistPage{a})
	a.scr.notice = ""
	return nil
}

// openChain leaves the page for sym's chain (the one shown when sym is
// it already), starting the watch screen's feeds if they wait.
func (a *App) openChain(sym string) tea.Cmd {
	if onTop[watchlistPage](a) {
		a.pop()
	}
	if sym != "" && sym != a.q.Symbol {
		q := a.q
		q.Symbol = sym
		return a.changeQuery(q)
	}
	return nil
}

// changeQueryHidden changes the mode or the day from the page: the watch
// screen takes the new query; its feeds, hidden under the page, are
// fetched when it shows.
func (a *App) changeQueryHidden(q feed.Query) tea.Cmd { return a.changeQuery(q) }

// onWatchlistKey routes a key on the page: the keys that mean the same on
// every screen, then the page's own.
func (a *App) onWatchlistKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Watchlist), key.Matches(k, keys.Close):
		return a.openChain("")
	case key.Matches(k, keys.Scanner):
		a.scr.notice = ""
		return a.openScanner()
	case key.Matches(k, keys.Symbol):
		a.overlay = prompt.NewSymbol(a.sh, a.q.Symbol, a.known(), a.syms.unknown)
		return nil
	case key.Matches(k, keys.Date):
		a.overlay = prompt.NewDate(a.sh, a.q.Date)
		return nil
	case key.Matches(k, keys.Mode):
		return a.changeQueryHidden(a.otherMode())
	case key.Matches(k, keys.Refresh):
		return a.fetchNow(feed.FeedQuotes)
	}
	a.parts.wl.m.SetFocused(true)
	_, cmd := a.parts.wl.m.Update(k)
	return cmd
}

// act is what an overlay over the page asked for: a symbol picked is
// added (a) or opens its chain (/, the scanner), a day picked changes
// the day.
func (w watchlistPage) act(act common.Action) tea.Cmd {
	a := w.a
	adding := a.parts.wl.adding
	a.parts.wl.adding = false
	switch act := act.(type) {
	case common.PickSymbol:
		if adding {
			return a.addToWatchlist(act.Symbol)
		}
		return a.openChain(act.Symbol)
	case common.PickDate:
		if act.Date == a.q.Date {
			return nil
		}
		q := a.q
		q.Date = act.Date
		return a.changeQueryHidden(q)
	}
	return nil
}

// addToWatchlist adds sym and saves the list; the monitor asks for its
// quote now (a symbol gained), not at the next refresh.
func (a *App) addToWatchlist(sym string) tea.Cmd {
	_, save := a.parts.wl.m.Add(sym)
	return save
}

// onWatchlistMsg routes the page's replies and requests.
func (a *App) onWatchlistMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case feed.QuotesMsg:
		if a.parts.wl.m.Apply(msg); msg.Err == nil {
			return a.flashDone()
		}
		return nil
	case feed.EventsMsg:
		a.parts.wl.m.ApplyEvents(msg)
		return nil
	case watchlist.OpenChainMsg:
		return a.openChain(msg.Symbol)
	case watchlist.AddSymbolMsg:
		if onTop[watchlistPage](a) && a.overlay == nil {
			a.overlay = prompt.NewWatchSymbol(a.sh, a.parts.wl.m.Symbols(), a.syms.recent, a.syms.unknown)
			a.parts.wl.adding = true
		}
		return nil
	}
	_, cmd := a.parts.wl.m.Update(msg)
	return cmd
}

// known are the symbols the prompt completes from and trusts: the recent
// ones, then the watchlist's.
func (a *App) known() []string {
	out := slices.Clone(a.syms.recent)
	for _, s := range a.parts.wl.m.Known() {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
