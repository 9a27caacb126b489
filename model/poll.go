package model

import (
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/prompt"

	tea "charm.land/bubbletea/v2"
)

// poller is the timer side of the scheduler: one self-re-arming timer
// per feed, each tagged with a generation so that re-planning (focus
// regained, tape shown, symbol changed) simply outdates the old timer
// instead of having to cancel it.
type poller struct {
	sched     *feed.Scheduler
	last      [feed.NumFeeds]time.Time // when the last reply of the current query arrived
	due       [feed.NumFeeds]time.Time // when the next fetch is planned; zero: none
	gen       [feed.NumFeeds]uint64
	inflight  [feed.NumFeeds]int
	cond      feed.Conditions
	expiryGen uint64
	catchUp   int  // consecutive full tape pages
	restarted bool // the tape started over in this catch-up
	refetch   bool // the selected expiry changed while a chain fetch was in flight
	held      bool // tape and calendar wait for the first chain (startAll)
	noSuch    bool // the service does not know the symbol: nothing is polled
}

func newPoller(b feed.Budget) poller { return poller{sched: feed.NewScheduler(b)} }

// pollMsg is a feed's timer firing.
type pollMsg struct {
	feed feed.Feed
	gen  uint64
}

// expiryMsg is the debounce timer of an expiry change.
type expiryMsg struct{ gen uint64 }

// conditions is what the scheduler needs to know about the screen now.
func (a *App) conditions() feed.Conditions {
	now := a.sh.Now()
	c := feed.Conditions{
		Mode:       a.q.Mode,
		Historical: a.q.Historical(now),
		Focused:    a.termFocused,
		Idle:       now.Sub(a.lastInput) > config.IdleAfter,
	}
	// Each page of the stack says what it wants polled, the ones above
	// over the ones below (the vol page covers the tape).
	for _, p := range a.pages {
		p.feeds(&c)
	}
	return c
}

// plan arms f's timer for its next fetch, outdating any earlier timer. A
// feed with a request in flight is planned when the reply arrives.
func (a *App) plan(f feed.Feed) tea.Cmd { return a.planAfter(f, a.poll.last[f]) }

// planAfter is plan as if f was last fetched at last; the zero time asks
// for the soonest fetch the scheduler allows (a pending Retry-After only).
func (a *App) planAfter(f feed.Feed, last time.Time) tea.Cmd {
	p := &a.poll
	p.gen[f]++
	p.due[f] = time.Time{}
	if p.inflight[f] > 0 || !isWatchFeed(f) && (p.noSuch || p.held && f != feed.FeedChain) {
		return nil
	}
	now := a.sh.Now()
	d, ok := p.sched.Next(f, p.cond, last, now)
	if !ok {
		return nil
	}
	p.due[f] = now.Add(d)
	msg := pollMsg{feed: f, gen: p.gen[f]}
	if d <= 0 {
		return func() tea.Msg { return msg }
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// replan re-arms every feed under the current conditions.
func (a *App) replan() tea.Cmd {
	a.poll.cond = a.conditions()
	cmds := make([]tea.Cmd, 0, feed.NumFeeds)
	for f := feed.Feed(0); f < feed.NumFeeds; f++ {
		cmds = append(cmds, a.plan(f))
	}
	return tea.Batch(cmds...)
}

// replanIfChanged re-arms the timers only when something the scheduler
// weighs has changed, such as the user going idle.
func (a *App) replanIfChanged() tea.Cmd {
	if a.conditions() == a.poll.cond {
		return nil
	}
	return a.replan()
}

func (a *App) onPoll(m pollMsg) tea.Cmd {
	if m.gen != a.poll.gen[m.feed] {
		return nil
	}
	a.poll.due[m.feed] = time.Time{}
	a.poll.sched.Polled(a.sh.Now())
	return a.fetch(m.feed)
}

// fetch starts a request for f now.
func (a *App) fetch(f feed.Feed) tea.Cmd {
	var cmd tea.Cmd
	switch f {
	case feed.FeedChain:
		var expiry = a.chain.Expiry()
		if a.chain.NeedsFull(a.sh.Now()) {
			expiry = 0
		}
		cmd = fetchChainCmd(a.ctx, a.sh, a.q, expiry)
	case feed.FeedTape:
		if !a.conditions().TapeVisible {
			return nil
		}
		now := a.sh.Now()
		day := feed.ShownDay(a.q, now)
		a.tape.SetSession(day, day != api.Today(now) || !feed.SessionLive(now, a.q.Mode))
		if day != a.tapeDay {
			// A new session began (the open, or midnight): start the
			// tape over on the new day rather than paging the old one.
			a.tape.Restart()
			a.tapeDay = day
		}
		cmd = fetchTapeCmd(a.ctx, a.sh, a.q, day, a.tape.NextFrom())
	case feed.FeedCalendar:
		cmd = fetchCalendarCmd(a.ctx, a.sh, a.q)
	case feed.FeedTerm:
		if !a.conditions().VolVisible {
			return nil // the term structure is only for the vol page
		}
		cmd = fetchTermCmd(a.ctx, a.sh, a.q)
	case feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ:
		if cmd = a.contract.page.Fetch(f); cmd == nil {
			return nil // time and sales the account may not see: not asked
		}
	case feed.FeedTapeGreeks:
		if cmd = a.fetchTapeGreeks(); cmd == nil {
			// Every print on screen has its greeks: look again an
			// interval later, when the tape has moved.
			a.poll.last[f] = a.sh.Now()
			return a.plan(f)
		}
	case feed.FeedQuotes, feed.FeedEvents:
		return a.fetchWatch(f, nil)
	}
	a.poll.inflight[f]++
	a.poll.gen[f]++ // a timer armed before this fetch is now moot
	a.poll.due[f] = time.Time{}
	return cmd
}

// setQuery points every pane at q and forgets the old query's timers;
// replies still in flight for it will be dropped by generation.
func (a *App) setQuery(q feed.Query) {
	a.q = q
	a.chain.SetQuery(q)
	a.tape.SetQuery(q)
	a.tapeDay = 0
	a.cal.SetQuery(q)
	p := &a.poll
	for _, f := range chainFeeds {
		p.gen[f]++
		p.inflight[f] = 0
		p.last[f] = time.Time{}
		p.due[f] = time.Time{}
	}
	p.sched.Reset(chainFeeds[:]...)
	p.catchUp, p.refetch, p.restarted = 0, false, false
	p.held, p.noSuch = false, false
	p.cond = a.conditions()
	a.followQuery()
}

// startAll fetches every feed now: the first paint of a new query. A
// symbol that is neither recent nor popular asks for its chain alone
// first: if the service does not know it (204), the tape and calendar
// requests, which cost several times the chain's points, are never made.
func (a *App) startAll() tea.Cmd {
	if !slices.Contains(prompt.Known(a.known()), a.q.Symbol) {
		a.poll.held = true
		return a.fetch(feed.FeedChain)
	}
	return tea.Batch(a.fetch(feed.FeedChain), a.fetch(feed.FeedCalendar), a.fetch(feed.FeedTape))
}

// changeQuery moves to a new symbol, mode or date.
func (a *App) changeQuery(q feed.Query) tea.Cmd {
	q.Gen = a.q.Gen + 1
	a.setQuery(q)
	a.notice = "" // about the screen being left
	return a.startAll()
}

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
	applied := a.chain.Apply(m)
	cmds = append(cmds, a.afterWholeChain(m))
	if a.chain.NoSuchSymbol() {
		return a.noSuchSymbol()
	}
	if a.poll.held && applied && m.Err == nil {
		a.poll.held = false
		cmds = append(cmds, a.fetch(feed.FeedCalendar), a.fetch(feed.FeedTape))
	}
	if applied && m.Err == nil {
		a.tape.SetContract(a.chain.SelectedOSI())
		cmds = append(cmds, a.flashDone())
		if m.Expiry == 0 && m.Chain != nil && len(m.Chain.Options) > 0 && (len(a.recent) == 0 || a.recent[0] != a.q.Symbol) {
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
	if !slices.Contains(a.unknown, sym) {
		a.unknown = append(a.unknown, sym)
	}
	a.tape.Stop("no such symbol: " + sym)
	a.cal.Stop("no such symbol: " + sym)
	a.notice = "no such symbol: " + sym
	if near := config.NearestSymbol(sym, prompt.Known(a.known())); near != "" {
		a.notice += "; did you mean " + near + "?"
	}
	a.notice += " (" + a.sh.Keys.Symbol.Help().Key + " picks another)"
	return nil
}

func (a *App) onTape(m feed.TapeMsg) tea.Cmd {
	if !a.settle(feed.FeedTape, m.Query, replyInfo{m.Resp, m.Err, m.At}) {
		return nil
	}
	if !a.tape.Apply(m) || m.Err != nil || !a.tape.More() {
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
		a.tape.Restart()
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
	if a.cal.Apply(m) {
		a.chain.SetEarnings(a.cal.NextEarnings(a.q.Day(a.sh.Now())))
	}
	return a.plan(feed.FeedCalendar)
}

// expiryChanged waits for the user to stop flipping before fetching.
func (a *App) expiryChanged() tea.Cmd {
	a.tape.SetContract(a.chain.SelectedOSI())
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
