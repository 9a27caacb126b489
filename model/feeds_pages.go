package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/scanner"
)

// The pages' feeds: the contract page's three, the vol page's term
// structure, the tape's greeks and the watchlist's quotes and events.

// contractFeeds are the contract page's feeds.
var contractFeeds = [...]feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}

// settleContract books a reply of the page's feed f: the points always,
// the rest only when it is for the contract shown.
func (a *App) settleContract(f feed.Feed, q feed.ContractQuery, m replyInfo) bool {
	if !onTop[contractPage](a) || q.Gen != a.parts.contract.gen {
		a.poll.sched.Spend(m.resp)
		return false
	}
	if a.poll.inflight[f] > 0 {
		a.poll.inflight[f]--
	}
	a.poll.last[f] = m.at
	err := m.err
	if api.IsNoData(err) || feed.NotEntitled(err) {
		err = nil // an answer: nothing yet, or nothing for this account (not retried)
	}
	a.poll.sched.Observe(f, m.resp, err, m.at)
	return true
}

// onContractReply applies a reply of the page and plans the feed's next
// fetch: at once after a full page (more is waiting), up to a few pages
// back to back, else when the scheduler says.
func (a *App) onContractReply(f feed.Feed, q feed.ContractQuery, info replyInfo, full bool, apply func() bool) tea.Cmd {
	if !a.settleContract(f, q, info) {
		return nil
	}
	r := &a.parts.contract
	if !apply() || info.err != nil || !full || r.catchUp[f] >= config.ContractMaxCatchUp {
		r.catchUp[f] = 0
		a.refreshContractCost()
		return a.plan(f)
	}
	r.catchUp[f]++
	return a.planAfter(f, time.Time{})
}

func (a *App) onContractQuote(m feed.ContractQuoteMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractQuote, m.Query, replyInfo{m.Resp, m.Err, m.At}, false,
		func() bool { return a.parts.contract.page.ApplyQuote(m) })
}

func (a *App) onContractTrades(m feed.ContractTradesMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractTrades, m.Query, replyInfo{m.Resp, m.Err, m.At}, m.Full,
		func() bool { return a.parts.contract.page.ApplyTrades(m) })
}

func (a *App) onContractTAQ(m feed.ContractTAQMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractTAQ, m.Query, replyInfo{m.Resp, m.Err, m.At}, m.Full,
		func() bool { return a.parts.contract.page.ApplyTAQ(m) })
}

// refreshContractCost tells the page what its refreshes cost and how
// often the budget lets them run: "34 pts a refresh (trades 15 every
// 1m8s, quotes 15 every 1m8s, quote 4 every 36s)".
func (a *App) refreshContractCost() {
	now := a.sh.Now()
	if a.q.Historical(now) {
		a.parts.contract.page.SetCost("a past day: fetched once, never polled")
		return
	}
	total := 0
	var parts []string
	names := map[feed.Feed]string{feed.FeedContractQuote: "quote", feed.FeedContractTrades: "trades", feed.FeedContractTAQ: "quotes"}
	eps := map[feed.Feed]api.Endpoint{feed.FeedContractQuote: api.EndpointOptionQuotes,
		feed.FeedContractTrades: api.EndpointTradesWithGreeks, feed.FeedContractTAQ: api.EndpointTradesAndQuotes}
	for _, f := range contractFeeds {
		if f != feed.FeedContractQuote && a.parts.contract.page.NotEntitled() {
			continue
		}
		cost := api.Cost(eps[f], a.q.Mode, false)
		total += cost
		iv := a.feeds().Interval(f, now)
		if iv <= 0 || !feed.SessionLive(now, a.q.Mode) {
			parts = append(parts, fmt.Sprintf("%s %d", names[f], cost))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d every %s", names[f], cost, iv.Round(time.Second)))
	}
	s := fmt.Sprintf("%d pts a refresh (%s)", total, strings.Join(parts, ", "))
	if !feed.SessionLive(now, a.q.Mode) {
		s += "; " + feed.PauseText(now, a.q.Mode)
	}
	a.parts.contract.page.SetCost(s)
}

// fetchTapeGreeks asks for the greeks of the next contract on the tape
// that lacks them; nil when every print on screen has them.
func (a *App) fetchTapeGreeks() tea.Cmd {
	osi, from, minT, ok := a.w.tape.NextGreeks()
	if !ok || a.poll.tapeDay == 0 {
		return nil
	}
	ctx, src, q, day := a.ctx, a.sh.Source(), a.q, a.poll.tapeDay
	return func() tea.Msg { return src.TapeGreeks(ctx, q, osi, day, from, minT) }
}

// onTapeGreeks fills the tape's greeks columns; a refusal for want of the
// subscription stops their feed (the conditions change).
func (a *App) onTapeGreeks(m feed.TapeGreeksMsg) tea.Cmd {
	err := m.Err
	if feed.NotEntitled(err) {
		err = nil
	}
	if !a.settle(feed.FeedTapeGreeks, m.Query, replyInfo{m.Resp, err, m.At}) {
		return nil
	}
	a.w.tape.ApplyGreeks(m)
	if !a.w.tape.GreeksWanted() {
		return a.replan()
	}
	return a.plan(feed.FeedTapeGreeks)
}

// The vol page: v opens it over the watch screen, esc (or v) goes back.
// The selected expiry's smile comes from the chain the ladder holds and
// keeps polling, at no extra cost; the term structure needs every expiry,
// which FeedTerm fetches as one whole chain every few minutes while the
// page shows, and never while it is hidden. The tape is not polled under
// the page (it is not on screen; it catches up from its sequence number
// when the page closes).

// termMsg is a whole chain fetched for the term structure.
type termMsg struct{ feed.ChainMsg }

func fetchTermCmd(ctx context.Context, c *common.Common, q feed.Query) tea.Cmd {
	return func() tea.Msg { return termMsg{c.Source().Chain(ctx, q, 0)} }
}

// onTerm applies a whole chain fetched for the term structure: it is the
// ladder's chain too (every expiry fresh), so the ladder takes it.
func (a *App) onTerm(m termMsg) tea.Cmd {
	if !a.settle(feed.FeedTerm, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	if a.w.chain.Apply(m.ChainMsg) && m.Err == nil {
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
	}
	if a.w.chain.NoSuchSymbol() {
		return a.noSuchSymbol()
	}
	return a.plan(feed.FeedTerm)
}

// afterWholeChain notes a whole chain the ladder fetched for itself: it
// is as good for the term structure, whose next fetch waits from it (a
// new symbol's first chain, the page open, plans the term structure).
func (a *App) afterWholeChain(m feed.ChainMsg) tea.Cmd {
	if m.Expiry != 0 || m.Err != nil || !m.At.After(a.poll.last[feed.FeedTerm]) {
		return nil
	}
	a.poll.last[feed.FeedTerm] = m.At
	if !onTop[volPage](a) || a.poll.inflight[feed.FeedTerm] > 0 {
		return nil
	}
	return a.plan(feed.FeedTerm)
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

// followQuery points the watchlist at the watch screen's mode and date
// when they change; a new symbol leaves it as it is.
func (a *App) followQuery() {
	w := &a.parts.wl
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

// settleWatch books a reply of a watchlist feed as settle does the watch
// screen's: its points always, the rest when it is for the page's query.
func (a *App) settleWatch(f feed.Feed, q feed.Query, m replyInfo) bool {
	if !q.Same(a.parts.wl.q) {
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
	a.parts.wl.m.Apply(m)
	cmds := []tea.Cmd{a.plan(feed.FeedQuotes)}
	if m.Err == nil {
		cmds = append(cmds, a.flashDone())
		// A symbol added since the events were fetched gets its own now;
		// the first events are the feed's, already on their way.
		if need := a.parts.wl.m.NeedEvents(); len(need) > 0 && !a.poll.last[feed.FeedEvents].IsZero() &&
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
	a.parts.wl.m.ApplyEvents(m)
	return a.plan(feed.FeedEvents)
}

// fetchWatch starts a request of a watchlist feed for symbols (nil: every
// symbol the service knows); nothing when there is none to ask for.
func (a *App) fetchWatch(f feed.Feed, symbols []string) tea.Cmd {
	if symbols == nil {
		symbols = a.parts.wl.m.Fetchable()
	}
	if len(symbols) == 0 {
		return nil
	}
	ctx, src, q := a.ctx, a.sh.Source(), a.parts.wl.q
	a.poll.inflight[f]++
	a.poll.gen[f]++
	a.poll.due[f] = time.Time{}
	if f == feed.FeedEvents {
		return func() tea.Msg { return src.Events(ctx, q, symbols) }
	}
	return func() tea.Msg { return src.Quotes(ctx, q, symbols) }
}

// startContract starts the contract page's feeds: their timers and
// backoffs forgotten, each fetched at once.
func (a *App) startContract() tea.Cmd {
	p := &a.poll
	for _, f := range contractFeeds {
		p.gen[f]++
		p.inflight[f] = 0
		p.last[f] = time.Time{}
	}
	p.sched.ResetFeeds(contractFeeds[:]...)
	p.cond = a.conditions()
	cmds := []tea.Cmd{a.replan()}
	for _, f := range contractFeeds {
		cmds = append(cmds, a.fetch(f))
	}
	return tea.Batch(cmds...)
}

// stopContract outdates the contract page's timers and requests; replies
// still in flight are booked and dropped.
func (a *App) stopContract() tea.Cmd {
	for _, f := range contractFeeds {
		a.poll.gen[f]++
		a.poll.inflight[f] = 0
		a.poll.due[f] = time.Time{}
	}
	return a.replan()
}

// startTerm plans the vol page's term structure: the whole chain the
// ladder holds stands for it until the first fetch, which waits its
// interval after that chain, and at least config.TermFirstDelay.
func (a *App) startTerm() tea.Cmd {
	a.poll.cond = a.conditions()
	now := a.sh.Now()
	last := a.w.chain.FullAt()
	every := a.poll.sched.Interval(feed.FeedTerm, a.poll.cond, now)
	if first := now.Add(config.TermFirstDelay - every); every > 0 && last.Before(first) {
		last = first
	}
	a.poll.last[feed.FeedTerm] = last
	return a.replan()
}

// onScanDone counts a finished scan's points (the service charged them
// whatever the modal does now) and hands the run to the modal.
func (a *App) onScanDone(m scanner.DoneMsg) tea.Cmd {
	a.poll.sched.Outside(m.Out.Resp)
	return a.onScanner(m)
}
