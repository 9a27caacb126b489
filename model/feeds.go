// The root's side of the data monitor (feed.Monitor): the screen
// subscribes once, says after every message what its pages want
// (wants), takes what the monitor posts through one command that
// re-arms itself (listenCmd), and keeps a snapshot of the monitor for
// drawing, so that View reads and changes nothing. The monitor books and
// paces every fetch; the replies reach the parts here, already booked.

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

// feedLink is the screen's subscription to the monitor.
type feedLink struct {
	mon  *feed.Monitor
	own  bool // the screen made the monitor, and closes it when it quits
	sub  *feed.Subscription
	snap feed.Snapshot // taken after every message, for drawing
	// expiryGen outdates an expiry change's debounce by a later one.
	expiryGen uint64
}

// monitorMsg is something the monitor posted to the screen.
type monitorMsg struct{ msg any }

// expiryMsg is the debounce timer of an expiry change.
type expiryMsg struct{ gen uint64 }

// newFeedLink subscribes to cfg's monitor, or to one of its own on cfg's
// client, clock and budget.
func newFeedLink(cfg Config) feedLink {
	l := feedLink{mon: cfg.Monitor}
	if l.mon == nil {
		l.own = true
		l.mon = feed.NewMonitor(feed.MonitorOptions{
			Fetcher: feed.Source{Client: cfg.Client, Now: cfg.Now},
			Clock:   feed.RealClock{NowFunc: cfg.Now},
			Budget:  cfg.Budget,
		})
	}
	l.sub = l.mon.Subscribe()
	l.snap = l.sub.Snapshot(cfg.Now()) // the budget is known before any message
	return l
}

// listenCmd waits for the monitor's next message to the screen.
func listenCmd(ctx context.Context, sub *feed.Subscription) tea.Cmd {
	return func() tea.Msg {
		msg, ok := sub.Next(ctx)
		if !ok {
			return nil
		}
		return monitorMsg{msg}
	}
}

// closeFeeds leaves the monitor (and closes it if it is the screen's).
func (a *App) closeFeeds() {
	a.link.sub.Close()
	if a.link.own {
		a.link.mon.Close()
	}
}

// conditions is what the pages show, each of the stack marking its own,
// the ones above over the ones below (the vol page covers the tape).
func (a *App) conditions() feed.Conditions {
	now := a.sh.Now()
	c := feed.Conditions{Mode: a.q.Mode, Historical: a.q.Historical(now), Focused: a.scr.focused,
		Idle: now.Sub(a.scr.lastInput) > config.IdleAfter}
	for _, p := range a.pages {
		p.feeds(&c)
	}
	return c
}

// wants is every feed of the screen's query and of the watchlist, each
// hidden while no page on the stack shows it (kept, with when it was last
// fetched, not polled), and the contract page's while it is on the stack.
func (a *App) wants() (feed.Attention, []feed.Want) {
	c := a.conditions()
	q, wq := a.q, a.parts.wl.q
	hide := func(f feed.Feed) bool { return !f.Shown(c) }
	osi, from, minT, ok := a.w.tape.NextGreeks()
	syms := a.parts.wl.m.Fetchable()
	ws := make([]feed.Want, 0, 10)
	ws = append(ws,
		feed.Want{Feed: feed.FeedChain, Query: q, Expiry: a.w.chain.Expiry(), Hidden: hide(feed.FeedChain),
			Probe: !slices.Contains(prompt.Known(a.known()), q.Symbol)},
		feed.Want{Feed: feed.FeedTape, Query: q, Capacity: a.cfg.TapeCapacity, Hidden: hide(feed.FeedTape)},
		feed.Want{Feed: feed.FeedCalendar, Query: q, Hidden: hide(feed.FeedCalendar)},
		feed.Want{Feed: feed.FeedTerm, Query: q, Hidden: hide(feed.FeedTerm)},
		feed.Want{Feed: feed.FeedTapeGreeks, Query: q, Hidden: hide(feed.FeedTapeGreeks),
			Greeks: feed.GreeksAsk{OSI: osi, From: from, MinTime: minT, OK: ok}},
		feed.Want{Feed: feed.FeedQuotes, Query: wq, Symbols: syms, Hidden: hide(feed.FeedQuotes)},
		feed.Want{Feed: feed.FeedEvents, Query: wq, Symbols: syms, Need: a.parts.wl.m.NeedEvents(), Hidden: hide(feed.FeedEvents)},
	)
	if c.Contract {
		cq := a.parts.contract.page.Query()
		for _, f := range contractFeeds {
			ws = append(ws, feed.Want{Feed: f, Query: cq.Query, OSI: cq.OSI})
		}
	}
	return feed.Attention{Focused: c.Focused, Idle: c.Idle}, ws
}

// contractFeeds are the contract page's feeds.
var contractFeeds = [...]feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}

// syncFeeds tells the monitor what the screen wants now and takes its
// snapshot for drawing; after every message.
func (a *App) syncFeeds() {
	att, ws := a.wants()
	a.link.sub.Set(att, ws...)
	a.link.snap = a.link.sub.Snapshot(a.sh.Now())
}

// fetchNow fetches each of fs at once, whatever the timers say (the
// refresh key); a feed already in flight is not asked twice.
func (a *App) fetchNow(fs ...feed.Feed) tea.Cmd {
	a.link.sub.Refresh(fs...)
	return nil
}

// feedView is what the screen reads of the feeds: when each is due, what
// is in flight, how often the budget lets it run, the points; from the
// snapshot taken after the last message.
type feedView struct{ snap *feed.Snapshot }

func (a *App) feeds() feedView { return feedView{&a.link.snap} }

func (v feedView) Due(f feed.Feed) time.Time { return v.snap.Feeds[f].Due }

func (v feedView) InFlight(f feed.Feed) bool { return v.snap.Feeds[f].InFlight }

func (v feedView) Interval(f feed.Feed, _ time.Time) time.Duration { return v.snap.Feeds[f].Interval }

func (v feedView) Stats(time.Time) feed.Stats { return v.snap.Stats }

func (v feedView) NoSuch() bool { return v.snap.Feeds[feed.FeedChain].NoSuch }

// changeQuery moves to a new symbol, mode or date: every part forgets the
// old one, and the monitor the old query's feeds (syncFeeds).
func (a *App) changeQuery(q feed.Query) tea.Cmd {
	q.Gen = a.q.Gen + 1
	a.setQuery(q)
	a.scr.notice = "" // about the screen being left
	return nil
}

// setQuery points every pane at q; replies still in flight for the old
// one are booked by the monitor and never delivered.
func (a *App) setQuery(q feed.Query) {
	a.q = q
	a.w.chain.SetQuery(q)
	a.w.tape.SetQuery(q)
	a.w.cal.SetQuery(q)
	a.followQuery()
}

// followQuery points the watchlist at the watch screen's mode and date
// when they change; a new symbol leaves it as it is.
func (a *App) followQuery() {
	w := &a.parts.wl
	if w.q.Gen != 0 && w.q.Mode == a.q.Mode && w.q.Date == a.q.Date {
		return
	}
	w.q = feed.Query{Mode: a.q.Mode, Date: a.q.Date, Gen: w.q.Gen + 1}
	w.m.SetQuery(w.q)
}

// expiryChanged waits for the user to stop flipping before fetching.
func (a *App) expiryChanged() tea.Cmd {
	a.w.tape.SetContract(a.w.chain.SelectedOSI())
	a.link.expiryGen++
	msg := expiryMsg{gen: a.link.expiryGen}
	return tea.Tick(config.ExpiryDebounce, func(time.Time) tea.Msg { return msg })
}

func fetchExchangesCmd(ctx context.Context, c *common.Common, mode api.Mode) tea.Cmd {
	return func() tea.Msg { return c.Source().Exchanges(ctx, mode) }
}
