package model

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
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
	// chainPending: the watch screen's query changed (or was never
	// started) while the page showed; its feeds start when it shows.
	chainPending bool
}

// The feeds of each screen: the watch screen's follow its query (the vol
// and contract pages and the tape's greeks are over it), the watchlist's
// its symbols.
var (
	chainFeeds = [...]feed.Feed{feed.FeedChain, feed.FeedTape, feed.FeedCalendar, feed.FeedTerm,
		feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ, feed.FeedTapeGreeks}
	watchFeeds = [...]feed.Feed{feed.FeedQuotes, feed.FeedEvents}
)

func isWatchFeed(f feed.Feed) bool { return slices.Contains(watchFeeds[:], f) }

func newWatchPage(sh *common.Common, cfg Config) watchPage {
	m := watchlist.New(sh, watchlist.Options{Symbols: cfg.Watchlist, Skipped: cfg.WatchlistSkipped, Save: cfg.SaveWatchlist})
	w, k := keymap.Watchlist(), sh.Keys
	hint := strings.Join([]string{w.Add.Help().Key + " add", w.Remove.Help().Key + " remove", w.Open.Help().Key + " chain",
		w.SortNext.Help().Key + " sort", w.Back.Help().Key + " back", k.Help.Help().Key + " help", k.Quit.Help().Key + " quit"}, "  ")
	return watchPage{m: m, chainPending: cfg.StartOnWatchlist, hint: hint}
}

// startScreen is Init's first fetches: the chain's, or, when chainwatch
// starts on the watchlist, the watchlist's (the chain waits until shown).
func (a *App) startScreen() tea.Cmd {
	if onTop[watchlistPage](a) {
		return a.replan()
	}
	return a.startAll()
}

// followQuery points the watchlist at the watch screen's mode and date
// when they change; a new symbol leaves it as it is.
func (a *App) followQuery() {
	w := &a.wl
	if w.q.Gen != 0 && w.q.Mode == a.q.Mode && w.q.Date == a.q.Date {
		return
	}
	w.q = feed.Query{Mode: a.q.Mode, Date: a.q.Date, Gen: w.q.Gen + 1}
	w.m.SetQuery(w.q)
	p := &a.poll
	for _, f := range watchFeeds {
		p.gen[f]++
		p.inflight[f], p.last[f], p.due[f] = 0, time.Time{}, time.Time{}
	}
	p.sched.Reset(watchFeeds[:]...)
}

// openWatchlist shows the page; the timers move from the watch screen's
// feeds to the page's.
func (a *App) openWatchlist() tea.Cmd {
	a.push(watchlistPage{a})
	a.notice = ""
	return a.replan()
}

// openChain leaves the page for sym's chain (the one shown when sym is
// it already), starting the watch screen's feeds if they wait.
func (a *App) openChain(sym string) tea.Cmd {
	wasOn := onTop[watchlistPage](a)
	if wasOn {
		a.pop()
	}
	var cmds []tea.Cmd
	switch {
	case sym != "" && sym != a.q.Symbol:
		q := a.q
		q.Symbol = sym
		a.wl.chainPending = false
		cmds = append(cmds, a.changeQuery(q))
	case a.wl.chainPending:
		a.wl.chainPending = false
		cmds = append(cmds, a.startAll())
	}
	if wasOn {
		cmds = append(cmds, a.replan())
	}
	return tea.Batch(cmds...)
}

// changeQueryHidden changes the mode or the day from the page: the watch
// screen takes the new query but fetches it only when it shows.
func (a *App) changeQueryHidden(q feed.Query) tea.Cmd {
	q.Gen = a.q.Gen + 1
	a.setQuery(q)
	a.notice = ""
	a.wl.chainPending = true
	return a.replan()
}

// onWatchlistKey routes a key on the page: the keys that mean the same on
// every screen, then the page's own.
func (a *App) onWatchlistKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Watchlist), key.Matches(k, keys.Close):
		return a.openChain("")
	case key.Matches(k, keys.Scanner):
		a.notice = ""
		return a.openScanner()
	case key.Matches(k, keys.Symbol):
		a.overlay = prompt.NewSymbol(a.sh, a.q.Symbol, a.known(), a.unknown)
		return nil
	case key.Matches(k, keys.Date):
		a.overlay = prompt.NewDate(a.sh, a.q.Date)
		return nil
	case key.Matches(k, keys.Mode):
		return a.changeQueryHidden(a.otherMode())
	case key.Matches(k, keys.Refresh):
		if a.poll.inflight[feed.FeedQuotes] == 0 {
			return a.fetch(feed.FeedQuotes)
		}
		return nil
	}
	a.wl.m.SetFocused(true)
	_, cmd := a.wl.m.Update(k)
	return cmd
}

// act is what an overlay over the page asked for: a symbol picked is
// added (a) or opens its chain (/, the scanner), a day picked changes
// the day.
func (w watchlistPage) act(act common.Action) tea.Cmd {
	a := w.a
	adding := a.wl.adding
	a.wl.adding = false
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

// addToWatchlist adds sym, saves the list and fetches its quote now
// rather than at the next refresh.
func (a *App) addToWatchlist(sym string) tea.Cmd {
	added, save := a.wl.m.Add(sym)
	if !added {
		return save
	}
	var fetch tea.Cmd
	if a.poll.inflight[feed.FeedQuotes] == 0 {
		fetch = a.planAfter(feed.FeedQuotes, time.Time{})
	}
	return tea.Batch(save, fetch)
}

// onWatchlistMsg routes the page's replies and requests.
func (a *App) onWatchlistMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case feed.QuotesMsg:
		return a.onQuotes(msg)
	case feed.EventsMsg:
		return a.onEvents(msg)
	case watchlist.OpenChainMsg:
		return a.openChain(msg.Symbol)
	case watchlist.AddSymbolMsg:
		if onTop[watchlistPage](a) && a.overlay == nil {
			a.overlay = prompt.NewWatchSymbol(a.sh, a.wl.m.Symbols(), a.recent, a.unknown)
			a.wl.adding = true
		}
		return nil
	}
	_, cmd := a.wl.m.Update(msg)
	return cmd
}

// settleWatch books a reply of a watchlist feed as settle does the watch
// screen's: its points always, the rest when it is for the page's query.
func (a *App) settleWatch(f feed.Feed, q feed.Query, m replyInfo) bool {
	if !q.Same(a.wl.q) {
		a.poll.sched.Spend(m.resp)
		return false
	}
	if a.poll.inflight[f] > 0 {
		a.poll.inflight[f]--
	}
	a.poll.last[f] = m.at
	err := m.err
	if api.IsNoData(err) {
		err = nil // none of the symbols is known: an answer
	}
	a.poll.sched.Observe(f, m.resp, err, m.at)
	return true
}

func (a *App) onQuotes(m feed.QuotesMsg) tea.Cmd {
	if !a.settleWatch(feed.FeedQuotes, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	a.wl.m.Apply(m)
	cmds := []tea.Cmd{a.plan(feed.FeedQuotes)}
	if m.Err == nil {
		cmds = append(cmds, a.flashDone())
		// A symbol added since the events were fetched gets its own now;
		// the first events are the feed's, already on their way.
		if need := a.wl.m.NeedEvents(); len(need) > 0 && !a.poll.last[feed.FeedEvents].IsZero() &&
			a.poll.inflight[feed.FeedEvents] == 0 && feed.FeedEvents.Shown(a.poll.cond) {
			cmds = append(cmds, a.fetchWatch(feed.FeedEvents, need))
		}
	}
	return tea.Batch(cmds...)
}

func (a *App) onEvents(m feed.EventsMsg) tea.Cmd {
	if !a.settleWatch(feed.FeedEvents, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	a.wl.m.ApplyEvents(m)
	return a.plan(feed.FeedEvents)
}

// fetchWatch starts a request of a watchlist feed for symbols (nil: every
// symbol the service knows); nothing when there is none to ask for.
func (a *App) fetchWatch(f feed.Feed, symbols []string) tea.Cmd {
	if symbols == nil {
		symbols = a.wl.m.Fetchable()
	}
	if len(symbols) == 0 {
		return nil
	}
	ctx, src, q := a.ctx, a.sh.Source(), a.wl.q
	a.poll.inflight[f]++
	a.poll.gen[f]++
	a.poll.due[f] = time.Time{}
	if f == feed.FeedEvents {
		return func() tea.Msg { return src.Events(ctx, q, symbols) }
	}
	return func() tea.Msg { return src.Quotes(ctx, q, symbols) }
}

// known are the symbols the prompt completes from and trusts: the recent
// ones, then the watchlist's.
func (a *App) known() []string {
	out := slices.Clone(a.recent)
	for _, s := range a.wl.m.Known() {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
