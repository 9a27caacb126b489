package ui

import (
	"math"
	"strings"

	"chainwatch/api"
	"chainwatch/positioning"
	"chainwatch/text"
	"chainwatch/theme"
)

// PositioningView is what the positioning page draws: a range of a
// chain's expiries as open interest by strike, the figures, and what the
// whole chain behind them cost.
type PositioningView struct {
	Symbol string
	Day    api.Date // the day the data shows: days to expiry count from it
	Range  string   // the range's label: "30 days"
	Spot   float64
	AsOf   api.TimeOfDay // the data's time; < 0 unknown
	// Rows are the strikes with open interest or volume, ascending;
	// Center the one drawn in the middle (spot's, moved by scrolling).
	Rows   []positioning.StrikeRow
	Center int
	Figs   *positioning.Figures
	Flip   positioning.Flip
	Chain  *positioning.Chain // for the expiries' dates and roots
	Term   TermCost
	// Paid is what the whole chain held cost, Ladder whether it came with
	// the ladder's own fetch (then the page cost nothing).
	Paid   int
	Ladder bool
	// Historical is a past day's chain, Closed a market shut until its
	// next open: neither is refreshed.
	Historical, Closed bool
	Message            string // instead of everything: loading, no such symbol
}

// posPanelW is the width of the figures beside the bars from
// posWideFrom columns; narrower, they are lines above them.
const (
	posPanelW   = 38
	posWideFrom = 120
	posNarrowH  = 3 // the figures' lines above the bars when narrow
)

// PositioningRows is how many lines the bars get (strikes, and the spot
// and zero-gamma lines among them) on a width x height page: the page
// pages by it.
func PositioningRows(width, height int) int {
	h := height - 2 // the title and the columns' heads
	if width < posWideFrom {
		h -= posNarrowH
	}
	return max(h, 1)
}

// Positioning draws the page in exactly height lines of width cells: the
// title, then the bars with the figures beside them (a panel from 120
// columns) or above them (three lines).
func Positioning(v *PositioningView, width, height int, st *theme.Styles) []string {
	if width <= 0 || height <= 0 {
		return make([]string, max(height, 0))
	}
	if v.Message != "" || v.Figs == nil {
		return posMessage(v, width, height, st)
	}
	out := make([]string, 0, height)
	out = append(out, posTitle(v, width, st))
	barsW := width
	var panel []string
	if width >= posWideFrom {
		barsW = width - posPanelW - 1
		panel = posPanel(v, posPanelW, height-1, st)
	} else {
		out = append(out, posFigureLines(v, width, st)...)
	}
	bars := posBars(v, barsW, PositioningRows(width, height)+1, st)
	if panel == nil {
		out = append(out, bars...)
	} else {
		gap := st.BorderSpan.Wrap("│")
		for i := range bars {
			out = append(out, bars[i]+gap+panel[i])
		}
	}
	for len(out) < height {
		out = append(out, paneBlank(width))
	}
	return out[:height]
}

// posMessage is the page saying what it waits for, under its title.
func posMessage(v *PositioningView, width, height int, st *theme.Styles) []string {
	msg := v.Message
	if msg == "" {
		msg = "no open interest held for " + v.Symbol
	}
	msg = Cut(text.Clean(msg), width)
	out := make([]string, height)
	out[0] = posTitle(v, width, st)
	for i := 1; i < height; i++ {
		out[i] = paneBlank(width)
	}
	out[max((height-1)/2, min(1, height-1))] = centeredMessage(msg, width, st)
	return out
}

// posCols are the widths of the bars' columns; each column after the
// put bar's strike has a blank before it, and so have the open interest
// columns after the volumes.
type posCols struct {
	vol, oi, bar, strike, gex, tag int
}

// fixed is the cells of everything but the two bars.
func (c posCols) fixed() int {
	n := 2*c.oi + c.strike + 3 + c.gex + 1
	if c.vol > 0 {
		n += 2 * (c.vol + 1)
	}
	if c.tag > 0 {
		n += c.tag + 1
	}
	return n
}

// posLayout fits the columns to w: the bars take what the numbers leave;
// the volumes go first, then the marks, when the bars would be under 8
// cells.
func posLayout(w int) posCols {
	c := posCols{vol: 8, oi: 7, strike: 8, gex: 8, tag: 5}
	if (w-c.fixed())/2 < 8 {
		c.vol = 0
	}
	if (w-c.fixed())/2 < 8 {
		c.tag = 0
	}
	c.bar = max((w-c.fixed())/2, 1)
	return c
}

// posBars is the columns' heads and the strikes in height lines of w
// cells: puts to the left of the strike, calls to the right, one scale
// for both (the largest open interest in sight), the spot and the
// zero-gamma level as lines between the strikes they fall between.
func posBars(v *PositioningView, w, height int, st *theme.Styles) []string {
	c := posLayout(w)
	out := make([]string, 0, height)
	n := height - 1
	first, last := posWindow(v, n)
	scale := int64(0)
	for i := first; i < last; i++ {
		scale = max(scale, v.Rows[i].CallOI, v.Rows[i].PutOI)
	}
	out = append(out, posHead(c, w, scale, st))
	spotDone, flipDone := false, false
	line := func(i int) { out = append(out, posRow(v, &v.Rows[i], c, w, scale, st)) }
	for i := first; i < last && len(out) < height; i++ {
		k := v.Rows[i].Strike
		if !spotDone && v.Spot <= k && i > first {
			out = append(out, posRule(c, w, "spot", v.Spot, theme.ToneAccent, st))
			spotDone = true
		}
		if !flipDone && v.Flip.Level <= k && i > first && len(out) < height {
			out = append(out, posRule(c, w, "zero gamma", v.Flip.Level, theme.ToneWarn, st))
			flipDone = true
		}
		if len(out) < height {
			line(i)
		}
		spotDone = spotDone || v.Spot <= k
		flipDone = flipDone || v.Flip.Level <= k
	}
	for len(out) < height {
		out = append(out, paneBlank(w))
	}
	return out
}

// posWindow is the rows drawn, [first, last), around Center, leaving a
// line for each of the spot and zero-gamma lines that falls among them.
func posWindow(v *PositioningView, n int) (first, last int) {
	rows := len(v.Rows)
	k := n
	for range 3 {
		first = min(max(v.Center-k/2, 0), max(rows-k, 0))
		last = min(first+k, rows)
		if first >= last {
			return first, last
		}
		lo, hi := v.Rows[first].Strike, v.Rows[last-1].Strike
		marks := 0
		for _, x := range [...]float64{v.Spot, v.Flip.Level} {
			if x > lo && x <= hi {
				marks++
			}
		}
		if k+marks <= n {
			break
		}
		k = n - marks
	}
	return first, last
}

// posHead is the columns' heads, the bars' scale among them.
func posHead(c posCols, w int, scale int64, st *theme.Styles) string {
	l := newPaneLine(w, theme.Span{})
	m := st.Span(theme.ToneMuted, theme.ShadeNone)
	if c.vol > 0 {
		l.blank(1)
		l.put(m, padLeft("put vol", c.vol))
	}
	l.blank(1)
	l.put(m, padLeft("put OI", c.oi))
	l.blank(1)
	put := "◀ puts"
	l.put(st.Span(theme.TonePut, theme.ShadeNone), put)
	l.blank(c.bar - paneWidth(put))
	l.put(st.Span(theme.ToneBold, theme.ShadeNone), center("strike", c.strike))
	b := append([]byte("full bar "), appendSize(nil, scale)...)
	call := string(b) + "  calls ▶"
	if paneWidth(call) > c.bar {
		call = "calls ▶"
	}
	l.blank(c.bar - paneWidth(call))
	l.put(st.Span(theme.ToneCall, theme.ShadeNone), call)
	l.blank(1)
	l.put(m, padLeft("call OI", c.oi))
	if c.vol > 0 {
		l.blank(1)
		l.put(m, padLeft("call vol", c.vol))
	}
	l.blank(1)
	l.put(m, padLeft("GEX", c.gex))
	if c.tag > 0 {
		l.blank(1)
		l.put(m, padRight("mark", c.tag))
	}
	return l.line()
}

// posRow is one strike: its puts' volume, open interest and bar, the
// strike, its calls' bar, open interest and volume, its GEX, and its
// marks (call wall, put wall, max pain).
func posRow(v *PositioningView, r *positioning.StrikeRow, c posCols, w int, scale int64, st *theme.Styles) string {
	l := newPaneLine(w, theme.Span{})
	var arena [64]byte
	num := func(x int64, width int) string {
		return string(appendPadLeft(arena[:0], appendSizeFit(arena[32:32], x, width), width))
	}
	muted, put, call := st.Span(theme.ToneMuted, theme.ShadeNone), st.Span(theme.TonePut, theme.ShadeNone), st.Span(theme.ToneCall, theme.ShadeNone)
	if c.vol > 0 {
		l.blank(1)
		l.put(muted, num(r.PutVolume, c.vol))
	}
	l.blank(1)
	l.put(put, num(r.PutOI, c.oi))
	l.blank(1)
	pb := barCells(r.PutOI, scale, c.bar)
	l.blank(c.bar - pb)
	l.put(put, blocks(pb))
	l.put(st.Span(theme.ToneBold, theme.ShadeNone), center(fmtStrike(r.Strike), c.strike))
	cb := barCells(r.CallOI, scale, c.bar)
	l.put(call, blocks(cb))
	l.blank(c.bar - cb + 1)
	l.put(call, num(r.CallOI, c.oi))
	if c.vol > 0 {
		l.blank(1)
		l.put(muted, num(r.CallVolume, c.vol))
	}
	g := r.GEX()
	l.blank(1)
	l.put(st.Span(signTone(g), theme.ShadeNone), padLeft(fmtGEX(g), c.gex))
	if c.tag > 0 {
		l.blank(1)
		l.put(st.Span(theme.ToneAccent, theme.ShadeNone), padRight(posTags(v, r.Strike), c.tag))
	}
	return l.line()
}

// posTags marks a strike: CW the call wall, PW the put wall, MP the
// nearest expiry's max pain.
func posTags(v *PositioningView, k float64) string {
	var b [8]byte
	t := b[:0]
	add := func(s string) {
		if len(t) > 0 {
			t = append(t, ' ')
		}
		t = append(t, s...)
	}
	if len(v.Figs.MaxPain) > 0 && v.Figs.MaxPain[0].Strike == k {
		add("MP")
	}
	if v.Figs.CallWall == k {
		add("CW")
	}
	if v.Figs.PutWall == k && len(t) < 5 {
		add("PW")
	}
	return string(t)
}

// posRule is a line between strikes: the spot or the zero-gamma level,
// its price on the strike column.
func posRule(c posCols, w int, what string, at float64, tone theme.Tone, st *theme.Styles) string {
	lab := " " + what + " " + fmtPrice(at) + " "
	left := 1 + c.oi + 1 + c.bar + c.strike/2 - len(lab)/2
	if c.vol > 0 {
		left += 1 + c.vol
	}
	left = min(max(left, 0), max(w-len(lab), 0))
	l := newPaneLine(w, theme.Span{})
	sp := st.Span(tone, theme.ShadeNone)
	l.put(sp, ruleCells(left))
	l.put(sp, lab)
	l.put(sp, ruleCells(w-left-len(lab)))
	return l.line()
}

// barCells is the cells of a bar of v at scale filling w: at least one
// for anything held.
func barCells(v, scale int64, w int) int {
	if v <= 0 || scale <= 0 {
		return 0
	}
	return min(max(int(math.Round(float64(v)/float64(scale)*float64(w))), 1), w)
}

// fullBlocks is a run of "█" to slice the bars from.
var fullBlocks = strings.Repeat("█", 256)

// blocks is n full blocks.
func blocks(n int) string { return fullBlocks[:min(max(n, 0), 256)*len("█")] }

// ruleCells is n cells of the ladder's spot rule.
func ruleCells(n int) string { return rule[:min(max(n, 0), len(rule)/len("─"))*len("─")] }

// fmtGEX is dollars of gamma exposure, signed and short: "+$1.2B",
// "-$870.1M", "$0".
func fmtGEX(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	a := int64(math.Abs(math.Round(v)))
	b := make([]byte, 0, 12)
	switch {
	case a == 0:
	case v < 0:
		b = append(b, '-')
	default:
		b = append(b, '+')
	}
	b = append(b, '$')
	return string(appendSize(b, a))
}
