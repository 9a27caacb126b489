package model

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/prompt"
)

// The watch screen's replies: booked by settle, applied to the panes,
// and what follows (the next fetch, a catch-up, a symbol not known).

// replyInfo is what every reply carries for the scheduler.
type replyInfo struct {
	resp *api.Response
	err  error
	at   time.Time
}

// settle books a reply of feed f: its points always count, since the
// service charged them whether or not the screen still wants the answer;
// the rest only when it belongs to the current query.
func (a *App) settle(f feed.Feed, q feed.Query, m replyInfo) bool {
	if !q.Same(a.q) {
		a.poll.sched.Spend(m.resp)
		return false
	}
	if a.poll.inflight[f] > 0 {
		a.poll.inflight[f]--
	}
	a.poll.last[f] = m.at
	err := m.err
	if api.IsNoData(err) {
		err = nil // a 204 is an answer: nothing listed, no trades yet
	}
	a.poll.sched.Observe(f, m.resp, err, m.at)
	return true
}

func (a *App) onChain(m feed.ChainMsg) tea.Cmd {
	if !a.settle(feed.FeedChain, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	var cmds []tea.Cmd
	applied := a.w.chain.Apply(m)
	cmds = append(cmds, a.afterWholeChain(m))
	if a.w.chain.NoSuchSymbol() {
		return a.noSuchSymbol()
	}
	if a.poll.held && applied && m.Err == nil {
		a.poll.held = false
		cmds = append(cmds, a.fetch(feed.FeedCalendar), a.fetch(feed.FeedTape))
	}
	if applied && m.Err == nil {
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
		cmds = append(cmds, a.flashDone())
		if m.Expiry == 0 && m.Chain != nil && len(m.Chain.Options) > 0 && (len(a.syms.recent) == 0 || a.syms.recent[0] != a.q.Symbol) {
			cmds = append(cmds, a.remember(a.q.Symbol))
		}
	}
	if a.poll.refetch {
		a.poll.refetch = false
		return tea.Batch(append(cmds, a.planAfter(feed.FeedChain, time.Time{}))...)
	}
	return tea.Batch(append(cmds, a.plan(feed.FeedChain))...)
}

// noSuchSymbol stops every feed of a symbol the service does not know and
// says so once, with the nearest symbol the user may have meant; the
// symbol prompt refuses it from now on without asking the service again.
func (a *App) noSuchSymbol() tea.Cmd {
	sym := a.q.Symbol
	a.poll.noSuch, a.poll.held = true, false
	for _, f := range chainFeeds {
		a.poll.gen[f]++
		a.poll.due[f] = time.Time{}
	}
	if !slices.Contains(a.syms.unknown, sym) {
		a.syms.unknown = append(a.syms.unknown, sym)
	}
	a.w.tape.Stop("no such symbol: " + sym)
	a.w.cal.Stop("no such symbol: " + sym)
	a.scr.notice = "no such symbol: " + sym
	if near := config.NearestSymbol(sym, prompt.Known(a.known())); near != "" {
		a.scr.notice += "; did you mean " + near + "?"
	}
	a.scr.notice += " (" + a.sh.Keys.Symbol.Help().Key + " picks another)"
	return nil
}

func (a *App) onTape(m feed.TapeMsg) tea.Cmd {
	if !a.settle(feed.FeedTape, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	if !a.w.tape.Apply(m) || m.Err != nil || !a.w.tape.More() {
		a.poll.catchUp, a.poll.restarted = 0, false
		return a.plan(feed.FeedTape)
	}
	// A full page means more trades are waiting: catch up at once rather
	// than an interval later, as soon as a Retry-After allows. A backlog
	// larger than the ring (the tape was hidden for an hour) would be
	// paid for page by page and then overwritten, so past that the tape
	// starts over from the latest window instead.
	p := &a.poll
	p.catchUp++
	switch {
	case m.From > 0 && !p.restarted && p.catchUp*config.TapePageLimit > a.cfg.TapeCapacity:
		p.catchUp, p.restarted = 0, true
		a.w.tape.Restart()
	case p.catchUp > maxCatchUp:
		// Still behind after several pages (a very busy name): from
		// here the budget paces the tape again.
		p.catchUp = 0
		return a.plan(feed.FeedTape)
	}
	return a.planAfter(feed.FeedTape, time.Time{})
}

// maxCatchUp is how many full tape pages are fetched back to back.
const maxCatchUp = 4

func (a *App) onCalendar(m feed.CalendarMsg) tea.Cmd {
	if !a.settle(feed.FeedCalendar, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	if a.w.cal.Apply(m) {
		a.w.chain.SetEarnings(a.w.cal.NextEarnings(a.q.Day(a.sh.Now())))
	}
	return a.plan(feed.FeedCalendar)
}

// expiryChanged waits for the user to stop flipping before fetching.
func (a *App) expiryChanged() tea.Cmd {
	a.w.tape.SetContract(a.w.chain.SelectedOSI())
	a.poll.expiryGen++
	msg := expiryMsg{gen: a.poll.expiryGen}
	return tea.Tick(config.ExpiryDebounce, func(time.Time) tea.Msg { return msg })
}

func (a *App) onExpiryDebounced(m expiryMsg) tea.Cmd {
	if m.gen != a.poll.expiryGen || a.q.Historical(a.sh.Now()) {
		// A past day's whole chain is already held and never changes.
		return nil
	}
	if a.poll.inflight[feed.FeedChain] > 0 {
		// The reply in flight is for the old expiry (dropped) or the whole
		// chain (which holds the new one); its arrival plans the next
		// fetch, which asks for the selected expiry.
		a.poll.gen[feed.FeedChain]++
		a.poll.due[feed.FeedChain] = time.Time{}
		a.poll.refetch = true
		return nil
	}
	return a.planAfter(feed.FeedChain, time.Time{})
}

// onFeed routes the poller's own messages (its timers) and the replies it
// books; ok is false for any other message.
func (a *App) onFeed(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case pollMsg:
		return a.onPoll(msg), true
	case expiryMsg:
		return a.onExpiryDebounced(msg), true
	case feed.ChainMsg:
		return a.onChain(msg), true
	case termMsg:
		return a.onTerm(msg), true
	case feed.TapeMsg:
		return a.onTape(msg), true
	case feed.CalendarMsg:
		return a.onCalendar(msg), true
	case feed.ExchangesMsg:
		a.w.tape.Update(msg)
		a.parts.contract.page.Update(msg)
		return nil, true
	case feed.ContractQuoteMsg:
		return a.onContractQuote(msg), true
	case feed.ContractTradesMsg:
		return a.onContractTrades(msg), true
	case feed.ContractTAQMsg:
		return a.onContractTAQ(msg), true
	case feed.TapeGreeksMsg:
		return a.onTapeGreeks(msg), true
	default:
		return nil, false
	}
}
