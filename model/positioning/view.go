package positioning

import (
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	pos "chainwatch/positioning"
	"chainwatch/ui"
)

// compute is the figures of the range over the chain held: the rows and
// totals, then the zero-gamma level (every contract's gamma priced again
// over a grid of spots), which costs the most. It runs on a new chain or
// range, while the page is on the stack, not every frame.
func (p *Page) compute() {
	p.dirty = false
	p.gen++
	sel := p.Range().Select(p.chain)
	p.figs = pos.Compute(p.chain, sel)
	p.flip = pos.NewCurve(p.chain, sel).ZeroGamma(p.chain.Spot, pos.ZeroGammaGrid)
	p.rows = p.rows[:0]
	for _, r := range p.figs.Rows {
		if r.CallOI+r.PutOI+r.CallVolume+r.PutVolume > 0 {
			p.rows = append(p.rows, r)
		}
	}
}

// spotRow is the row nearest spot (the first when spot is unknown).
func (p *Page) spotRow() int {
	if p.chain == nil || len(p.rows) == 0 || math.IsNaN(p.chain.Spot) {
		return 0
	}
	i, _ := slices.BinarySearchFunc(p.rows, p.chain.Spot, func(r pos.StrikeRow, s float64) int {
		switch {
		case r.Strike < s:
			return -1
		case r.Strike > s:
			return 1
		}
		return 0
	})
	if i == len(p.rows) || i > 0 && p.chain.Spot-p.rows[i-1].Strike < p.rows[i].Strike-p.chain.Spot {
		i--
	}
	return i
}

// center is the row drawn mid-window: spot's, moved by the scrolling.
func (p *Page) center() int {
	return min(max(p.spotRow()+p.shift, 0), max(len(p.rows)-1, 0))
}

// scroll moves the window by n strikes, no further than the last.
func (p *Page) scroll(n int) {
	base := p.spotRow()
	p.shift = min(max(base+p.shift+n, 0), max(len(p.rows)-1, 0)) - base
}

// page is a screenful of strikes, for pgup and pgdn.
func (p *Page) page() int { return max(ui.PositioningRows(p.W, p.H)-2, 1) }

// draw is the page at its size at now: the title, over the body as drawn
// last unless what it shows has changed.
func (p *Page) draw(now time.Time) []string {
	if p.W <= 0 || p.H <= 0 {
		return make([]string, p.H)
	}
	v := p.view(now)
	st := p.sh.Styles
	if k := (bodyKey{gen: p.gen, center: v.Center, w: p.W, h: p.H, st: st}); k != p.bodyKey {
		p.body, p.bodyKey = ui.PositioningBody(&v, p.W, p.H-1, st), k
	}
	lines := append(p.lines[:0], ui.PositioningTitle(&v, p.W, st))
	return append(lines, p.body...)
}

// view is what the page shows at now.
func (p *Page) view(now time.Time) ui.PositioningView {
	sym := p.q.Symbol
	r := p.Range()
	v := ui.PositioningView{Symbol: sym, Range: r.Label(), Spot: math.NaN(), AsOf: -1, Term: p.termCost(now),
		Paid: p.paid, Ladder: p.ladder, Historical: p.q.Historical(now), Closed: !market.SessionLive(now, p.q.Mode)}
	switch {
	case p.noSuch:
		v.Message = "no such symbol: " + sym
	case p.chain == nil && p.err != nil:
		v.Message = sym + ": " + api.Describe(p.err, "")
	case p.chain == nil:
		v.Message = "loading the whole chain of " + sym + "…"
	case len(p.figs.Expiries) == 0:
		v.Message = "no expiry in range " + r.Label() + ": " + p.keys.Range.Help().Key + " picks another"
	case len(p.rows) == 0:
		v.Message = "no open interest in range " + r.Label()
	}
	if p.chain == nil {
		return v
	}
	c := p.chain
	v.Day, v.Spot, v.AsOf, v.Chain = c.Day, c.Spot, api.TimeOfDayOf(c.AsOf), c
	if v.Message != "" {
		return v
	}
	v.Rows, v.Center, v.Figs, v.Flip, v.Greek = p.rows, p.center(), &p.figs, p.flip, p.greek
	return v
}

// termCost is what the whole chain costs, how often it is fetched and
// how old the one held is, at now.
func (p *Page) termCost(now time.Time) ui.TermCost {
	hist := p.q.Historical(now)
	term := p.snap.Feeds[feed.FeedTerm]
	t := ui.TermCost{Points: api.Cost(api.EndpointOptionQuotes, p.q.Mode, hist), Age: -1, Next: -1, Fetching: term.InFlight}
	if !hist && p.chain != nil {
		t.Every = term.Interval
	}
	if p.chain != nil {
		t.Age = max(now.Sub(p.heldAt), 0)
	}
	if !term.Due.IsZero() {
		t.Next = max(term.Due.Sub(now), 0)
	}
	return t
}
