package watch

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/watch/vol"
	"chainwatch/ui"
	volfig "chainwatch/vol"
)

// Charts is the vol page's model, for its exported state.
func (v *Vol) Charts() *vol.Model { return v.vol }

// SetSize gives the charts the rows between the header and the status
// bar, which stay: the quote and its age, the points and the next fetch.
func (v *Vol) SetSize(w, h int) {
	v.vw, v.vh = max(w, 0), max(h, 0)
	r := v.rect()
	v.vol.SetSize(r.W, r.H)
}

// SetFocused: the page's keys are its own while it is on top.
func (v *Vol) SetFocused(bool) {}

// rect is where the charts go.
func (v *Vol) rect() ui.Rect { return ui.BodyRect(v.vw, v.vh+1) }

// Update takes the page's keys, what a prompt picked, and the snapshot
// before a frame; the chain's replies are the screen's.
func (v *Vol) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	switch msg := msg.(type) {
	case common.DrawMsg:
		v.snap = msg.Feeds
		now := v.sh.Now()
		c := v.chain
		in := vol.Input{
			Surface: c.Surface(), Expiry: c.Expiry(), Cursor: c.CursorStrike(),
			Earnings: c.Earnings(), Term: v.termCost(now), Message: v.message(),
			Moves: v.cal.Moves(),
		}
		in.Next.ReportDate, in.Next.TimeOfDay = v.cal.NextReport(feed.ShownDay(v.q, now))
		in.Missing = v.cal.Missing(feed.ShownDay(v.q, now), volfig.LastReports)
		v.vol.Set(in)
	case tea.KeyPressMsg:
		return v.onKey(msg)
	case common.PickSymbol, common.PickDate:
		return nil, v.pick(msg)
	}
	return nil, nil
}

// onKey: the page's own keys (smile), the ladder's expiry and strike
// moves (the smile follows the ladder's cursor), and the screen-wide
// keys that make sense over it.
func (v *Vol) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(v.sh, k); act != nil {
		return nil, act
	}
	if act, ok := v.queryKey(k); ok {
		return nil, act
	}
	keys := v.sh.Keys
	switch {
	case key.Matches(k, keys.Close, keys.Vol):
		return nil, common.Back{}
	case key.Matches(k, keys.Refresh):
		if v.q.Historical(v.sh.Now()) {
			return nil, nil
		}
		return nil, common.Refresh{Feeds: []feed.Feed{feed.FeedChain, feed.FeedTerm}}
	case key.Matches(k, keys.Up, keys.PrevExpiry):
		if v.chain.StepExpiry(-1) {
			return v.expiryChanged(), nil
		}
	case key.Matches(k, keys.Down, keys.NextExpiry):
		if v.chain.StepExpiry(1) {
			return v.expiryChanged(), nil
		}
	case key.Matches(k, keys.Left):
		v.chain.Scroll(-1)
		v.tape.SetContract(v.chain.SelectedOSI())
	case key.Matches(k, keys.Right):
		v.chain.Scroll(1)
		v.tape.SetContract(v.chain.SelectedOSI())
	default:
		v.vol.Update(k)
	}
	return nil, nil
}

// View is the header over the charts.
func (v *Vol) View() []string {
	lay := ui.NewLayout(v.vw, v.vh+1, true, true)
	h := v.Header(v.sh.Now())
	st := v.sh.Styles
	if v.vw == 0 || v.vh == 0 {
		return make([]string, v.vh)
	}
	lines := ui.Compose(v.vw, v.vh+1, []ui.Pane{
		{R: lay.Header, Lines: ui.Header(&h, lay.Header.W, st)},
		{R: v.rect(), Lines: v.vol.View()},
		{R: lay.Status},
	}, st)
	return splitLines(lines, v.vh)
}

// Covers: the page fills the frame; the tape beneath is not polled (it
// catches up when the page closes).
func (v *Vol) Covers() bool { return true }

// Wants are the ladder's chain and calendar, which the page shows too
// (its smile, its header), and the term structure.
func (v *Vol) Wants(common.Sight) []feed.Want {
	return append(v.ladderWants(), feed.Want{Feed: feed.FeedTerm, Query: v.q})
}

// Status makes the status bar's "next" the term structure's fetch and
// its cost while the page shows: that is what the page adds to the bill.
func (v *Vol) Status(now time.Time) common.Status {
	k := v.sh.Keys
	return common.Status{
		Shown: feed.FeedChain, Next: feed.FeedTerm, NextCost: api.Cost(api.EndpointOptionQuotes, v.q.Mode, false),
		Errs: v.errs(), Title: v.title(), Ticks: v.ticks(now),
		Hint: k.Close.Help().Key + " back  " + k.PrevExpiry.Help().Key + k.NextExpiry.Help().Key + " expiry  " +
			k.Smile.Help().Key + " smile  " + k.Help.Help().Key + " help",
	}
}

// ShortHelp and FullHelp are the page's keys.
func (v *Vol) ShortHelp() []key.Binding  { return v.vol.ShortHelp() }
func (v *Vol) FullHelp() [][]key.Binding { return v.vol.FullHelp() }

// message is what the page says instead of charts while the chain has
// nothing to show.
func (v *Vol) message() string {
	c := v.chain
	switch {
	case c.NoSuchSymbol():
		return "no such symbol: " + v.q.Symbol
	case len(c.Surface().Exps) > 0:
		return ""
	case c.Loading():
		return "loading " + v.q.Symbol + "…"
	case c.Err() != nil:
		return v.q.Symbol + ": " + api.Describe(c.Err(), "")
	}
	return "no options listed for " + v.q.Symbol
}

// termCost is what the term structure costs and how old it is, at now.
func (v *Vol) termCost(now time.Time) ui.TermCost {
	hist := v.q.Historical(now)
	term := v.snap.Feeds[feed.FeedTerm]
	t := ui.TermCost{
		Points:   api.Cost(api.EndpointOptionQuotes, v.q.Mode, hist),
		Age:      -1,
		Next:     -1,
		Fetching: term.InFlight,
	}
	if !hist {
		t.Every = term.Interval
	}
	if at := v.chain.FullAt(); !at.IsZero() {
		t.Age = max(now.Sub(at), 0)
	}
	if !term.Due.IsZero() {
		t.Next = max(term.Due.Sub(now), 0)
	}
	return t
}
