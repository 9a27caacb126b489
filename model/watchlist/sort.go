package watchlist

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/ui"
)

// Sorting: the user's own order, or any column either way. Rows without a
// value (not loaded, null, no such symbol) go last whichever way, so a
// sort by change shows the movers first, not the blanks.

// sortNext goes to the next column to sort by (step 1) or the previous
// (-1); past the last column comes the user's own order.
func (m *Model) sortNext(step int) {
	n := int(ui.NumWatchCols) + 1 // the columns and the user's order
	pos := int(ui.NumWatchCols)   // the user's order
	if !m.manual {
		pos = int(m.sortCol)
	}
	pos = (pos + step + n) % n
	if pos == int(ui.NumWatchCols) {
		m.manual = true
	} else {
		m.manual, m.sortCol, m.desc = false, ui.WatchCol(pos), defaultDesc(ui.WatchCol(pos))
	}
	m.note = ui.Note{}
	m.arrange()
}

// sortBy sorts by c, or flips the order when c is sorted already (a click
// on a heading).
func (m *Model) sortBy(c ui.WatchCol) {
	if !m.manual && m.sortCol == c {
		m.desc = !m.desc
	} else {
		m.manual, m.sortCol, m.desc = false, c, defaultDesc(c)
	}
	m.arrange()
}

// flip reverses the sorted order; the user's own order has no other way.
func (m *Model) flip() {
	if m.manual {
		m.sortNext(1)
		return
	}
	m.desc = !m.desc
	m.arrange()
}

// defaultDesc is each column's first direction: the biggest numbers first
// (the top gainers, the busiest, the richest vol), names and dates from
// the start, the implied badge from green.
func defaultDesc(c ui.WatchCol) bool {
	switch c {
	case ui.WColSymbol, ui.WColEvent, ui.WColImplied:
		return false
	}
	return true
}

// arrange puts the symbols in the order shown and keeps the cursor on its
// symbol (or the first one when it has gone).
func (m *Model) arrange() {
	m.order = append(m.order[:0], m.symbols...)
	if !m.manual {
		slices.SortStableFunc(m.order, func(a, b string) int {
			ka, okA := m.sortKey(a)
			kb, okB := m.sortKey(b)
			switch {
			case !okA || !okB:
				return cmpBool(okB, okA) // the ones without a value last
			case m.desc:
				return ka.compare(kb) * -1
			}
			return ka.compare(kb)
		})
	}
	if !slices.Contains(m.order, m.cursor) {
		m.cursor = ""
		if len(m.order) > 0 {
			m.cursor = m.order[0]
		}
	}
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// sortVal is a sort key: a number or a text.
type sortVal struct {
	n float64
	s string
}

func (a sortVal) compare(b sortVal) int {
	if a.s != "" || b.s != "" {
		return strings.Compare(a.s, b.s)
	}
	return cmp.Compare(a.n, b.n)
}

// sortKey is sym's value in the sorted column, false when it has none.
func (m *Model) sortKey(sym string) (sortVal, bool) {
	if m.sortCol == ui.WColSymbol {
		return sortVal{s: sym}, true
	}
	e := m.rows[sym]
	if e == nil || !e.loaded {
		return sortVal{}, false
	}
	r, q := &e.row, &e.row.Quote
	num := func(v float64) (sortVal, bool) { return sortVal{n: v}, !math.IsNaN(v) }
	switch m.sortCol {
	case ui.WColLast:
		return num(r.Price)
	case ui.WColChange:
		return num(r.Change)
	case ui.WColChangePct:
		return num(r.ChangePct)
	case ui.WColBid:
		return num(api.OrNaN(q.Bid))
	case ui.WColAsk:
		return num(api.OrNaN(q.Ask))
	case ui.WColVolume:
		return sortVal{n: float64(q.Volume.V)}, q.Volume.Valid
	case ui.WColIV30:
		return num(api.OrNaN(q.IV30))
	case ui.WColIVChange:
		return num(api.OrNaN(q.IV30Change))
	case ui.WColIVRank:
		return num(pastOr(r, r.Past.IVRank))
	case ui.WColHV30:
		return num(pastOr(r, r.Past.HV30))
	case ui.WColImplied:
		switch q.ImpliedUnderlyingIndicator.V {
		case api.Green:
			return sortVal{n: 0}, true
		case api.Yellow:
			return sortVal{n: 1}, true
		case api.Red:
			return sortVal{n: 2}, true
		}
		return sortVal{}, false
	case ui.WColEvent:
		d, _ := r.Next.Soonest()
		return sortVal{n: float64(d)}, d != 0
	}
	return sortVal{}, false
}

// pastOr is v when the row has figures from the store of past days, else NaN.
func pastOr(r *feed.QuoteRow, v float64) float64 {
	if !r.HasPast {
		return math.NaN()
	}
	return v
}
