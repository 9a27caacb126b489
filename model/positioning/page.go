// Package positioning is the positioning page: where the open interest
// of the watch screen's symbol sits, strike by strike (puts to the left,
// calls to the right, today's volume beside, the spot and the zero-gamma
// level marked), with max pain per expiry, the walls, the put/call ratio
// and the dealers' gamma, vanna or charm exposure (a key cycles them),
// over a range of expiries another key cycles. The figures are chainwatch/positioning's, the same code
// `chainwatch gex` prints with; the data is the whole chain the screen
// already holds, so opening the page costs nothing when it is held.
package positioning

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/market"
	"chainwatch/model/common"
	pos "chainwatch/positioning"
	"chainwatch/theme"
)

// Page is the positioning page. It keeps the last whole chain of the
// screen's query in the figures' compact shape (the ladder's own polls
// are one expiry, and not kept), and computes the figures of its range
// when that chain or the range changes, only while it is on the stack.
type Page struct {
	sh *common.Common
	common.Frame
	keys keymap.PositioningKeys

	q      feed.Query
	chain  *pos.Chain
	heldAt time.Time // when the chain arrived
	paid   int       // what its fetch cost: 0 when it came with the ladder's
	ladder bool      // it came with the ladder's own fetch
	err    error     // the last whole chain's failure (*feed.FetchError)
	noSuch bool      // the service does not know the symbol

	rangeIx int       // index into pos.PageRanges
	greek   pos.Greek // the exposure shown: gamma, vanna, charm
	shift   int       // strikes scrolled from the window around spot

	// What the range shows, computed when dirty (see figures).
	dirty bool
	figs  pos.Figures
	flip  pos.Flip
	rows  []pos.StrikeRow // the range's strikes with any open interest or volume

	snap  feed.Snapshot
	lines []string // the page drawn by the last DrawMsg, for View
	drawn [2]int   // the size lines were drawn at
	// The page under its title is drawn again only when what it shows
	// changes (gen: the data, its failure or its figures); most frames
	// only move the title's age and countdown.
	gen     uint64
	body    []string
	bodyKey bodyKey
}

// bodyKey is what the body was drawn from.
type bodyKey struct {
	gen          uint64
	center, w, h int
	st           *theme.Styles
}

var _ common.Page = (*Page)(nil)

// defaultRange is the range the page opens on: 30 days, where most open
// interest a trader hedges against sits.
const defaultRange = 2

// NewPage is the page with nothing held yet.
func NewPage(sh *common.Common) *Page {
	return &Page{sh: sh, keys: keymap.Positioning(), rangeIx: defaultRange}
}

// Update takes the page's keys and wheel while it is on top, and the
// query, the day a prompt picked, the whole chains and the snapshot
// before a frame at any time. Another symbol is the watch screen's to
// pick (and look up first when the session does not know it): the page
// follows the screen's query.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	switch msg := msg.(type) {
	case common.QueryMsg:
		*p = Page{sh: p.sh, Frame: p.Frame, keys: p.keys, q: msg.Query, rangeIx: p.rangeIx, greek: p.greek, lines: p.lines, drawn: p.drawn, gen: p.gen + 1}
	case feed.ChainMsg:
		p.take(msg, true)
	case feed.TermMsg:
		p.take(msg.ChainMsg, false)
	case common.DrawMsg:
		p.snap = msg.Feeds
		if p.dirty {
			p.compute()
		}
		p.lines, p.drawn = p.draw(p.sh.Now()), [2]int{p.W, p.H}
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.MouseWheelMsg:
		p.scroll(common.WheelStep(msg.Mouse()))
	case common.PickDate:
		return nil, p.change(func(q *feed.Query) { q.Date = msg.Date })
	}
	return nil, nil
}

// take keeps a whole chain of the page's query (one expiry's is the
// ladder's alone); ladder says it came with the ladder's own fetch. A
// whole chain with nothing in it means the service does not know the
// symbol.
func (p *Page) take(m feed.ChainMsg, ladder bool) {
	if !p.q.Same(m.Query) || m.Expiry != 0 {
		return
	}
	p.gen++
	switch {
	case m.Err != nil && !api.IsNoData(m.Err):
		p.err = feed.Failed(m.Err, m.At)
		return
	case m.Chain == nil:
		p.noSuch, p.err, p.chain = true, nil, nil
		return
	}
	p.chain = pos.FromSnapshot(m.Chain, feed.ShownDay(p.q, m.At), m.At).From(market.FirstLiveDay(p.q.Date, m.At))
	p.heldAt, p.ladder, p.err, p.noSuch = m.At, ladder, nil, false
	p.paid = 0
	if !ladder && m.Resp != nil {
		p.paid = m.Resp.Cost
	}
	p.dirty = true
}

// change asks for the screen's query changed by edit, if it changes.
func (p *Page) change(edit func(*feed.Query)) common.Action {
	q := p.q
	edit(&q)
	if q == p.q {
		return nil
	}
	return common.ChangeQuery{Query: q}
}

// onKey: the keys every page shares, the page's own, the screen's keys
// that make sense on it (the day and the data path; not the symbol).
func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	keys := p.sh.Keys
	switch {
	case key.Matches(k, keys.Close, keys.Positioning):
		return nil, common.Back{}
	case key.Matches(k, p.keys.Range):
		p.rangeIx = (p.rangeIx + 1) % len(pos.PageRanges)
		p.shift, p.dirty = 0, p.chain != nil
	case key.Matches(k, p.keys.Greek):
		p.greek = (p.greek + 1) % pos.Greeks
		p.gen++ // the body shows another exposure
	case key.Matches(k, p.keys.Spot):
		p.shift = 0
	case key.Matches(k, keys.Up):
		p.scroll(-1)
	case key.Matches(k, keys.Down):
		p.scroll(1)
	case key.Matches(k, keys.PageUp):
		p.scroll(-p.page())
	case key.Matches(k, keys.PageDown):
		p.scroll(p.page())
	case key.Matches(k, keys.Refresh):
		if p.q.Historical(p.sh.Now()) {
			return nil, common.Notice{Text: "nothing to refresh: a past day's whole chain is held"}
		}
		// The whole chain; while none is held, the ladder's chain, which
		// the page then polls for its first whole one.
		return nil, common.Refresh{Feeds: []feed.Feed{feed.FeedTerm, feed.FeedChain}}
	case key.Matches(k, keys.Date):
		return nil, common.AskDate{}
	case key.Matches(k, keys.Mode):
		return nil, p.change(func(q *feed.Query) {
			q.Mode = api.Delayed
			if p.q.Mode == api.Delayed {
				q.Mode = api.Live
			}
		})
	}
	return nil, nil
}

// Range is the range shown, for the tests.
func (p *Page) Range() pos.Range { return pos.PageRanges[p.rangeIx] }

// Greek is the exposure shown, for the tests.
func (p *Page) Greek() pos.Greek { return p.greek }

// Held reports whether the page holds a whole chain of its query.
func (p *Page) Held() bool { return p.chain != nil }

// Figures are the figures shown, as of the last frame.
func (p *Page) Figures() (pos.Figures, pos.Flip) { return p.figs, p.flip }

// Covers: the page fills the frame; the ladder, its tape and calendar
// are not polled.
func (p *Page) Covers() bool { return true }

// Wants: the whole chain. Once the page holds one, that is refreshed on
// the whole chain's schedule (the term feed, which the vol page wants
// too: one feed); until then the chain is polled, whose fetch for the
// page is the whole chain (no expiry).
func (p *Page) Wants(common.Sight) []feed.Want {
	if p.chain == nil {
		return []feed.Want{{Feed: feed.FeedChain, Query: p.q}, {Feed: feed.FeedTerm, Query: p.q, Hidden: true}}
	}
	return []feed.Want{{Feed: feed.FeedTerm, Query: p.q}}
}

// Status counts the whole chain's refresh down with its cost: that is
// what the page adds to the bill.
func (p *Page) Status(now time.Time) common.Status {
	k := p.sh.Keys
	return common.Status{
		Shown: feed.FeedTerm, Next: feed.FeedTerm, NextCost: api.Cost(api.EndpointOptionQuotes, p.q.Mode, false),
		Errs: []error{p.err}, Title: "chainwatch · " + p.q.Symbol + " positioning", Ticks: p.ticks(now),
		Hint: p.keys.Range.Help().Key + " expiries  " + p.keys.Greek.Help().Key + " gamma/vanna/charm  " + p.keys.Spot.Help().Key + " back to spot  " +
			k.Close.Help().Key + " back  " + k.Help.Help().Key + " help",
	}
}

// ticks says the page shows an age in seconds: the whole chain's, under
// a minute... or a countdown, which the status bar carries.
func (p *Page) ticks(now time.Time) bool {
	return p.chain != nil && now.Sub(p.heldAt) < time.Hour
}

// ShortHelp and FullHelp are the page's keys.
func (p *Page) ShortHelp() []key.Binding  { return p.keys.ShortHelp(p.sh.Keys) }
func (p *Page) FullHelp() [][]key.Binding { return p.keys.FullHelp(p.sh.Keys) }

// View is the page as the last DrawMsg drew it, at the set size (blank
// before the first).
func (p *Page) View() []string {
	if p.drawn != [2]int{p.W, p.H} {
		blank := strings.Repeat(" ", p.W)
		out := make([]string, p.H)
		for i := range out {
			out[i] = blank
		}
		return out
	}
	return p.lines
}
