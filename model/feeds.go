// Package model's poller: everything that fetches, books and plans the
// feeds lives in feeds*.go, behind one seam, so that a data monitor
// outside the TUI can replace it. The pages say what they want polled
// through page.feeds (conditions); the replies reach the parts from the
// on* handlers here, after settle has booked them; what the status bar and
// the cost lines read of the timers goes through feedView.

package model

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
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
	// tapeDay is the session the tape holds: a new one starts it over.
	tapeDay api.Date
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
		Focused:    a.scr.focused,
		Idle:       now.Sub(a.scr.lastInput) > config.IdleAfter,
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
		var expiry = a.w.chain.Expiry()
		if a.w.chain.NeedsFull(a.sh.Now()) {
			expiry = 0
		}
		cmd = fetchChainCmd(a.ctx, a.sh, a.q, expiry)
	case feed.FeedTape:
		if !a.conditions().TapeVisible {
			return nil
		}
		now := a.sh.Now()
		day := feed.ShownDay(a.q, now)
		a.w.tape.SetSession(day, day != api.Today(now) || !feed.SessionLive(now, a.q.Mode))
		if day != a.poll.tapeDay {
			// A new session began (the open, or midnight): start the
			// tape over on the new day rather than paging the old one.
			a.w.tape.Restart()
			a.poll.tapeDay = day
		}
		cmd = fetchTapeCmd(a.ctx, a.sh, a.q, day, a.w.tape.NextFrom())
	case feed.FeedCalendar:
		cmd = fetchCalendarCmd(a.ctx, a.sh, a.q)
	case feed.FeedTerm:
		if !a.conditions().VolVisible {
			return nil // the term structure is only for the vol page
		}
		cmd = fetchTermCmd(a.ctx, a.sh, a.q)
	case feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ:
		if cmd = a.parts.contract.page.Fetch(f); cmd == nil {
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
	a.w.chain.SetQuery(q)
	a.w.tape.SetQuery(q)
	a.poll.tapeDay = 0
	a.w.cal.SetQuery(q)
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
	a.scr.notice = "" // about the screen being left
	return a.startAll()
}

// The feed's fetches as commands: each runs off the update loop and its
// reply comes back as a message stamped with the query it was made for.

func fetchChainCmd(ctx context.Context, c *common.Common, q feed.Query, expiry api.Date) tea.Cmd {
	return func() tea.Msg { return c.Source().Chain(ctx, q, expiry) }
}

func fetchTapeCmd(ctx context.Context, c *common.Common, q feed.Query, day api.Date, from int64) tea.Cmd {
	return func() tea.Msg { return c.Source().Tape(ctx, q, day, from) }
}

func fetchCalendarCmd(ctx context.Context, c *common.Common, q feed.Query) tea.Cmd {
	return func() tea.Msg { return c.Source().Calendar(ctx, q) }
}

func fetchExchangesCmd(ctx context.Context, c *common.Common, mode api.Mode) tea.Cmd {
	return func() tea.Msg { return c.Source().Exchanges(ctx, mode) }
}

// feedView is what the screen reads of the feeds: when each is due, what
// is in flight, how often the budget lets it run, the points. The status
// bar, the header's staleness and the cost lines read only this (a
// monitor's snapshot can stand in for it).
type feedView interface {
	Due(f feed.Feed) time.Time
	InFlight(f feed.Feed) bool
	Interval(f feed.Feed, now time.Time) time.Duration
	Stats(now time.Time) feed.Stats
	NoSuch() bool
}

// feeds is the read-only view of the poller.
func (a *App) feeds() feedView { return &a.poll }

func (p *poller) Due(f feed.Feed) time.Time { return p.due[f] }

func (p *poller) InFlight(f feed.Feed) bool { return p.inflight[f] > 0 }

func (p *poller) Stats(t time.Time) feed.Stats { return p.sched.Stats(t) }

func (p *poller) NoSuch() bool { return p.noSuch }

// Interval is f's refresh interval under the conditions last planned.
func (p *poller) Interval(f feed.Feed, now time.Time) time.Duration {
	return p.sched.Interval(f, p.cond, now)
}

// fetchNow fetches each of fs at once, whatever the timers say (the
// refresh key); a feed already in flight is not asked twice.
func (a *App) fetchNow(fs ...feed.Feed) tea.Cmd {
	var cmds []tea.Cmd
	for _, f := range fs {
		if a.poll.inflight[f] == 0 {
			cmds = append(cmds, a.fetch(f))
		}
	}
	return tea.Batch(cmds...)
}

// fetchSoon plans f for the soonest fetch the scheduler allows, unless it
// is in flight (a symbol added to the watchlist).
func (a *App) fetchSoon(f feed.Feed) tea.Cmd {
	if a.poll.inflight[f] > 0 {
		return nil
	}
	return a.planAfter(f, time.Time{})
}
