package watchlist

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
)

// Page is the watchlist page: its symbols' quotes and events instead of
// the watch screen, whose feeds wait while it shows. Its query is the
// watch screen's mode and date, with a generation of its own, so another
// symbol on the chain leaves its replies valid.
type Page struct {
	*Model
	screen feed.Query // the watch screen's query
	source string     // where the data comes from, for the title
	adding bool       // the symbol prompt the page asked for adds to the list
	hint   string     // the status bar's reminder, made once
}

var _ common.Page = (*Page)(nil)

// NewPage builds the page on cfg's list.
func NewPage(sh *common.Common, cfg common.Config) *Page {
	o := Options{Symbols: cfg.Watchlist, Skipped: cfg.WatchlistSkipped, Save: cfg.SaveWatchlist}
	w, k := keymap.Watchlist(), sh.Keys
	hint := strings.Join([]string{w.Add.Help().Key + " add", w.Remove.Help().Key + " remove", w.Open.Help().Key + " chain",
		w.SortNext.Help().Key + " sort", w.Back.Help().Key + " back", k.Help.Help().Key + " help", k.Quit.Help().Key + " quit"}, "  ")
	return &Page{Model: New(sh, o), source: cfg.Source, hint: hint}
}

// Update takes the page's keys and mouse while it is on top, and the
// query, what a prompt picked, its replies and its own messages at any
// time.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	switch msg := msg.(type) {
	case common.QueryMsg:
		p.follow(msg.Query)
	case common.QuitMsg:
		// The last edit, if its save had no time to run; a failure is the
		// save function's to report (after the screen).
		_ = p.Flush()
	case common.DrawMsg:
		now := p.sh.Now()
		q := p.Query()
		p.SetContext(p.source, api.Cost(api.EndpointUnderlyingQuotes, q.Mode, q.Historical(now)),
			msg.Feeds.Feeds[feed.FeedQuotes].Interval)
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.MouseClickMsg:
		m := msg.Mouse()
		p.Click(m.X, m.Y)
	case tea.MouseWheelMsg:
		if step := common.WheelStep(msg.Mouse()); step != 0 {
			p.Scroll(step)
		}
	case common.PickSymbol, common.PickDate, common.Close:
		return p.pick(msg)
	case feed.QuotesMsg:
		save := p.Confirm(msg)
		if p.Apply(msg); msg.Err == nil {
			return tea.Batch(save, common.FlashDone(p.sh)), nil
		}
	case feed.EventsMsg:
		p.ApplyEvents(msg)
	case OpenChainMsg:
		return nil, common.Back{Symbol: msg.Symbol}
	case AddSymbolMsg:
		if p.Focused {
			p.adding = true
			return nil, common.AskSymbol{Add: true, Have: p.Symbols()}
		}
	case Msg:
		_, cmd := p.Model.Update(msg)
		return cmd, nil
	}
	return nil, nil
}

// follow points the page at the watch screen's mode and date when they
// change; a new symbol leaves it as it is.
func (p *Page) follow(screen feed.Query) {
	p.screen = screen
	q := p.Query()
	if q.Gen != 0 && q.Mode == screen.Mode && q.Date == screen.Date {
		return
	}
	p.SetQuery(feed.Query{Mode: screen.Mode, Date: screen.Date, Gen: q.Gen + 1})
}

// onKey: the keys that mean the same on every page, then the page's own.
func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	keys := p.sh.Keys
	switch {
	case key.Matches(k, keys.Watchlist), key.Matches(k, keys.Close):
		return nil, common.Back{}
	case key.Matches(k, keys.Scanner):
		return nil, common.OpenScanner{}
	case key.Matches(k, keys.Symbol):
		return nil, common.AskSymbol{}
	case key.Matches(k, keys.Date):
		return nil, common.AskDate{}
	case key.Matches(k, keys.Mode):
		q := p.screen
		q.Mode = api.Delayed
		if p.screen.Mode == api.Delayed {
			q.Mode = api.Live
		}
		return nil, common.ChangeQuery{Query: q}
	case key.Matches(k, keys.Refresh):
		return nil, common.Refresh{Feeds: []feed.Feed{feed.FeedQuotes}}
	case key.Matches(k, keys.Alert):
		return nil, p.ProposeAlert()
	}
	p.Model.SetFocused(true)
	_, cmd := p.Model.Update(k)
	return cmd, nil
}

// pick is what an overlay over the page asked for: a symbol picked is
// added (the page asked for the prompt to add) or opens its chain (/,
// the scanner), a day picked changes the day.
func (p *Page) pick(msg tea.Msg) (tea.Cmd, common.Action) {
	adding := p.adding
	p.adding = false
	switch msg := msg.(type) {
	case common.PickSymbol:
		if adding {
			p.Propose(msg.Symbol)
			return nil, nil
		}
		return nil, common.Back{Symbol: msg.Symbol}
	case common.PickDate:
		if msg.Date == p.screen.Date {
			return nil, nil
		}
		q := p.screen
		q.Date = msg.Date
		return nil, common.ChangeQuery{Query: q}
	}
	return nil, nil
}

// Covers: the page fills the frame; the watch screen's feeds wait.
func (p *Page) Covers() bool { return true }

// Wants are the page's quotes and events (the root hides them while the
// page is not shown).
func (p *Page) Wants(common.Sight) []feed.Want {
	q, syms := p.Query(), p.Fetchable()
	return []feed.Want{
		{Feed: feed.FeedQuotes, Query: q, Symbols: p.quoted()},
		{Feed: feed.FeedEvents, Query: q, Symbols: syms, Need: p.NeedEvents()},
	}
}

// Status counts the quotes down.
func (p *Page) Status(now time.Time) common.Status {
	return common.Status{Shown: feed.FeedQuotes, Errs: []error{p.Err()}, Hint: p.hint,
		Title: "chainwatch · watchlist", Ticks: p.CountsSeconds(now)}
}

// Adding reports whether the symbol prompt the page asked for adds to
// the list.
func (p *Page) Adding() bool { return p.adding }
