// Package watch is the watch screen (the ladder, the tape and the
// calendar, their focus and layout, the first-run banner, the header) and
// the vol page, a second view of the same chain: the two page types share
// the screen's state, as parts may not import each other.
package watch

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/watch/calendar"
	"chainwatch/model/watch/chain"
	"chainwatch/model/watch/tape"
	"chainwatch/model/watch/vol"
)

// pane is where movement keys go.
type pane int

const (
	paneLadder pane = iota
	paneTape
	paneCalendar
	numPanes
)

// state is the watch screen's, which the vol page shows too: the query,
// the panes, which of them has the focus and shows, the banner, the
// page's size and the monitor's last snapshot (for drawing).
type state struct {
	sh    *common.Common
	cfg   common.Config // the source, the tape's size, the first run
	q     feed.Query
	chain *chain.Model
	tape  *tape.Model
	cal   *calendar.Model

	focus             pane
	showTape, showCal bool
	banner            bool
	focused           bool // the screen is on top and no prompt takes the keys
	w, h              int  // the page: the frame less the status bar
	snap              feed.Snapshot
	expiryGen         uint64      // outdates an expiry change's debounce by a later one
	lookingUp         *feed.Query // a symbol picked that the service has not confirmed yet (lookup.go)
}

// Screen is the watch screen, the bottom page.
type Screen struct{ *state }

// Vol is the vol page over the watch screen: the ladder's chain as a
// surface, its expiry and cursor.
type Vol struct {
	*state
	vol    *vol.Model
	vw, vh int // the page's size
}

var (
	_ common.Page = (*Screen)(nil)
	_ common.Page = (*Vol)(nil)
)

// New builds the watch screen and the vol page on the same state.
func New(sh *common.Common, cfg common.Config) (*Screen, *Vol) {
	s := &state{
		sh: sh, cfg: cfg,
		chain: chain.New(sh), tape: tape.New(sh, cfg.TapeCapacity, cfg.BlockSize), cal: calendar.New(sh),
		showTape: true, showCal: true, banner: cfg.FirstRun,
	}
	return &Screen{s}, &Vol{state: s, vol: vol.New(sh)}
}

// Chain, Tape and Calendar are the screen's panes, for their exported
// state (the tests, what is selected).
func (s *state) Chain() *chain.Model       { return s.chain }
func (s *state) Tape() *tape.Model         { return s.tape }
func (s *state) Calendar() *calendar.Model { return s.cal }

// Query is what the screen shows.
func (s *state) Query() feed.Query { return s.q }

// Banner reports whether the first-run banner shows.
func (s *state) Banner() bool { return s.banner }

// TapeFocused reports whether the tape has the focus.
func (s *state) TapeFocused() bool { return s.focus == paneTape }

// setQuery points every pane at q; replies still in flight for the old
// one are booked by the monitor and never delivered.
func (s *state) setQuery(q feed.Query) {
	s.q, s.lookingUp = q, nil // a lookup is outdated by any newer choice
	s.chain.SetQuery(q)
	s.tape.SetQuery(q)
	s.cal.SetQuery(q)
}

// Update takes the screen's keys and mouse while it is on top, and the
// query, what a prompt picked and the replies of its feeds at any time.
func (s *Screen) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	switch msg := msg.(type) {
	case common.QueryMsg:
		s.setQuery(msg.Query)
	case common.DrawMsg:
		s.snap = msg.Feeds
	case tea.KeyPressMsg:
		return s.onKey(msg)
	case tea.MouseClickMsg:
		return s.onClick(msg.Mouse()), nil
	case tea.MouseWheelMsg:
		s.onWheel(msg.Mouse())
	case common.PickSymbol, common.PickDate:
		return nil, s.pick(msg)
	case expiryMsg:
		if msg.gen == s.expiryGen {
			return nil, common.Refetch{Feed: feed.FeedChain}
		}
	case feed.ChainMsg:
		return s.onChain(msg)
	case feed.TermMsg:
		return nil, s.onTerm(msg)
	case feed.TapeMsg:
		s.tape.Apply(msg)
	case feed.CalendarMsg:
		if s.cal.Apply(msg) {
			s.chain.SetEarnings(s.cal.NextEarnings(feed.ShownDay(s.q, s.sh.Now())))
		}
	case feed.ExchangesMsg:
		s.tape.Update(msg)
	case feed.TapeGreeksMsg:
		s.tape.ApplyGreeks(msg)
	}
	return nil, nil
}

// pick is a symbol or a day picked in a prompt: the screen switches to it.
func (s *state) pick(msg tea.Msg) common.Action {
	q := s.q
	switch msg := msg.(type) {
	case common.PickSymbol:
		q.Symbol = msg.Symbol
		if !msg.Known && q != s.q {
			return s.lookUp(q)
		}
	case common.PickDate:
		q.Date = msg.Date
	}
	if q == s.q {
		return nil
	}
	return common.ChangeQuery{Query: q}
}

func (s *state) onChain(m feed.ChainMsg) (tea.Cmd, common.Action) {
	if act, ok := s.lookedUp(m); ok {
		return nil, act
	}
	applied := s.chain.Apply(m)
	if s.chain.NoSuchSymbol() {
		return nil, s.noSuchSymbol()
	}
	if !applied || m.Err != nil {
		return nil, nil
	}
	s.tape.SetContract(s.chain.SelectedOSI())
	s.tape.SetQuotes(m)
	if m.Expiry == 0 && m.Chain != nil && len(m.Chain.Options) > 0 {
		return common.FlashDone(s.sh), common.Remember{Symbol: s.q.Symbol}
	}
	return common.FlashDone(s.sh), nil
}

// onTerm applies a whole chain fetched for the term structure: it is the
// ladder's chain too (every expiry fresh), so the ladder takes it.
func (s *state) onTerm(m feed.TermMsg) common.Action {
	if s.chain.Apply(m.ChainMsg) && m.Err == nil {
		s.tape.SetContract(s.chain.SelectedOSI())
		s.tape.SetQuotes(m.ChainMsg)
	}
	if s.chain.NoSuchSymbol() {
		return s.noSuchSymbol()
	}
	return nil
}

// noSuchSymbol stops the tape and the calendar, whose feeds the monitor
// has stopped, and tells the root (which says so, once).
func (s *state) noSuchSymbol() common.Action {
	sym := s.q.Symbol
	s.tape.Stop("no such symbol: " + sym)
	s.cal.Stop("no such symbol: " + sym)
	return common.NoSuchSymbol{Symbol: sym}
}

// expiryMsg is the debounce timer of an expiry change.
type expiryMsg struct{ gen uint64 }

// expiryChanged waits for the user to stop flipping before fetching.
func (s *state) expiryChanged() tea.Cmd {
	s.tape.SetContract(s.chain.SelectedOSI())
	s.expiryGen++
	msg := expiryMsg{gen: s.expiryGen}
	return tea.Tick(config.ExpiryDebounce, func(time.Time) tea.Msg { return msg })
}

// Covers: the screen fills the frame (it is the bottom page).
func (s *Screen) Covers() bool { return true }

// Wants are the screen's feeds: the chain and the calendar, the tape
// while it shows, and its greeks while their columns show (the tape
// shown, the account entitled).
func (s *Screen) Wants(common.Sight) []feed.Want {
	osi, from, minT, ok := s.tape.NextGreeks(s.chain.SelectedOSI())
	return append(s.ladderWants(),
		feed.Want{Feed: feed.FeedTape, Query: s.q, Capacity: s.cfg.TapeCapacity, Hidden: !s.showTape},
		feed.Want{Feed: feed.FeedTapeGreeks, Query: s.q, Hidden: !s.showTape || !s.tape.GreeksWanted(),
			Greeks: feed.GreeksAsk{OSI: osi, From: from, MinTime: minT, OK: ok}})
}

// Background is the chain of a symbol being looked up, which must finish
// under any page.
func (s *Screen) Background() []feed.Want { return s.lookUpWant() }

// ladderWants are the chain and the calendar, which the watch screen and
// the vol page both show: one feed each, however many pages want it.
func (s *state) ladderWants() []feed.Want {
	return []feed.Want{
		{Feed: feed.FeedChain, Query: s.q, Expiry: s.chain.Expiry()},
		{Feed: feed.FeedCalendar, Query: s.q},
	}
}

// Status: the chain's refresh is counted down, the panes' failures are
// reported, the header's age counts seconds while the session is live.
func (s *Screen) Status(now time.Time) common.Status {
	k := s.sh.Keys
	return common.Status{
		Shown: feed.FeedChain, Errs: s.errs(), Title: s.title(), Ticks: s.ticks(now),
		Hint: k.Symbol.Help().Key + " symbol  " + k.Scanner.Help().Key + " scan  " + k.Vol.Help().Key + " vol  " + k.Watchlist.Help().Key + " watchlist  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit",
	}
}

func (s *state) errs() []error { return []error{s.chain.Err(), s.tape.Err(), s.cal.Err()} }
func (s *state) title() string { return "chainwatch · " + s.q.Symbol }
func (s *state) ticks(now time.Time) bool {
	h := s.Header(now)
	return h.Stale || !h.Loading && !h.Historical && !h.Closed && !h.NoData
}

// ShortHelp and FullHelp are the screen's keys.
func (s *Screen) ShortHelp() []key.Binding  { return s.sh.Keys.ShortHelp() }
func (s *Screen) FullHelp() [][]key.Binding { return s.sh.Keys.FullHelp() }

// otherMode is the query on the other data path: live to delayed and
// back.
func (s *state) otherMode() feed.Query {
	q := s.q
	q.Mode = api.Delayed
	if s.q.Mode == api.Delayed {
		q.Mode = api.Live
	}
	return q
}

// ShowBanner shows the first-run banner again (a test of its keys).
func (s *state) ShowBanner() { s.banner = true }
