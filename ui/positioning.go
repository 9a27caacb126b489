package ui

import (
	"math"

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
	Greek  positioning.Greek  // the exposure shown by strike and in total
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
// title over PositioningBody.
func Positioning(v *PositioningView, width, height int, st *theme.Styles) []string {
	if width <= 0 || height <= 0 {
		return make([]string, max(height, 0))
	}
	return append([]string{PositioningTitle(v, width, st)}, PositioningBody(v, width, height-1, st)...)
}

// PositioningTitle is the page's first line; it alone changes from one
// second to the next (the whole chain's age, the countdown), so a page
// keeps the body between frames and draws this.
func PositioningTitle(v *PositioningView, width int, st *theme.Styles) string {
	return posTitle(v, width, st)
}

// PositioningBody is the page under its title in exactly height lines
// of width cells: the bars with the figures beside them (a panel from 120
// columns) or above them (three lines), or the message that stands for
// them.
func PositioningBody(v *PositioningView, width, height int, st *theme.Styles) []string {
	if width <= 0 || height <= 0 {
		return make([]string, max(height, 0))
	}
	if v.Message != "" || v.Figs == nil {
		return posMessage(v, width, height, st)
	}
	out := make([]string, 0, height)
	rows := PositioningRows(width, height+1) + 1
	if width < posWideFrom {
		out = append(out, posFigureLines(v, width, st)...)
		posBars(v, width, rows, st, func(b []byte) { out = append(out, string(b)) })
	} else {
		panel := posPanel(v, posPanelW, height, st)
		gap := st.BorderSpan.Wrap("│")
		join := make([]byte, 0, 8*width+256)
		posBars(v, width-posPanelW-1, rows, st, func(b []byte) {
			join = append(append(append(join[:0], b...), gap...), panel.line(len(out))...)
			out = append(out, string(join))
		})
	}
	for len(out) < height {
		out = append(out, paneBlank(width))
	}
	return out[:height]
}

// posMessage is the page saying what it waits for.
func posMessage(v *PositioningView, width, height int, st *theme.Styles) []string {
	msg := v.Message
	if msg == "" {
		msg = "no open interest held for " + v.Symbol
	}
	msg = Cut(text.Clean(msg), width)
	out := make([]string, height)
	for i := range out {
		out[i] = paneBlank(width)
	}
	out[max(height/2-1, 0)] = centeredMessage(msg, width, st)
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

// fmtGEX is dollars of gamma exposure, signed and short: "+$1.2B",
// "-$870.1M", "$0".
func fmtGEX(v float64) string { return string(appendGEX(nil, v)) }

// appendGEX appends fmtGEX's text.
func appendGEX(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, dash...)
	}
	a := int64(math.Abs(math.Round(v)))
	switch {
	case a == 0:
	case v < 0:
		b = append(b, '-')
	default:
		b = append(b, '+')
	}
	b = append(b, '$')
	return appendSize(b, a)
}
