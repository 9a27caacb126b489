package ui

import (
	"math"
	"strconv"
	"strings"

	"chainwatch/strategy"
	"chainwatch/text"
	"chainwatch/theme"
)

// PositionRow is one position's row on the positions page.
type PositionRow struct {
	ID                    int
	Name, Legs, Opened    string
	Status                string // open, closed Nov25, rolled to 3, or why it is not marked
	Value, Today, SinceOp string // money, "" a dash
	// Delta in shares, Theta in dollars a day, Vega in dollars a vol
	// point: an open position's greeks, "" a dash.
	Delta, Theta, Vega string
	Selected, Open     bool
}

// PositionsData is what the positions page draws.
type PositionsData struct {
	Summary string // the header: open positions, P&L today and since open, realized
	Rows    []PositionRow
	Total   *PositionRow // the open positions' sums under the rows; nil none
	Confirm string       // a close asked for, above the table until answered
	Message string       // instead of the table: no positions, a file that does not load
}

// The table's columns: fixed ones, then the figures by priority as many
// as fit beside a legs column of at least posLegsMin, the legs taking the
// rest, so that at 160 columns nothing is cut; narrower than wideTable
// the name and the opening time are left out.
const (
	wideTable  = 120
	posIDW     = 4
	posNameW   = 12
	posOpenedW = 11 // "Nov24 10:00"
	posStatusW = 13 // "closed Nov25", "rolled to 12"
	posMoneyW  = 12 // " Since open", "-$12,345"
	posGreekW  = 9
	posLegsMin = 20
)

// The figure columns, in the table's order, and the order they are kept
// in when not all fit: the P&L first, then delta and theta.
const (
	posValue = iota
	posToday
	posSince
	posDelta
	posTheta
	posVega
	numPosFigs
)

var (
	posFigW    = [numPosFigs]int{posMoneyW, posMoneyW, posMoneyW, posGreekW, posGreekW, posGreekW}
	posFigKeep = [...]int{posToday, posSince, posDelta, posTheta, posValue, posVega}
)

// positionsLayout is the table at a width: the figures kept and the legs' width.
type positionsLayout struct {
	wide  bool
	keep  [numPosFigs]bool
	legsW int
}

func layoutPositions(w int) positionsLayout {
	l := positionsLayout{wide: w >= wideTable}
	room := w - (posIDW + 2 + posStatusW + 2 + posLegsMin)
	if l.wide {
		room -= posNameW + 2 + posOpenedW + 2
	}
	used := 0
	for _, c := range posFigKeep {
		if used+posFigW[c] <= room {
			l.keep[c], used = true, used+posFigW[c]
		}
	}
	l.legsW = max(posLegsMin+room-used, posLegsMin)
	return l
}

// positionsHead is the table's heading.
func positionsHead(l *positionsLayout) string {
	r := PositionRow{Name: "Name", Legs: "Legs", Opened: "Opened", Status: "Status", Value: "Value", Today: "Today", SinceOp: "Since open",
		Delta: "Δ sh", Theta: "Θ $/day", Vega: "Vega $"}
	return strings.Replace(positionLine(&r, l), "   0", "  ID", 1)
}

// PositionsPage draws the page in exactly h lines of w cells, the
// selected row kept in sight.
func PositionsPage(d *PositionsData, w, h int, st *theme.Styles) []string {
	out := make([]string, 0, max(h, 0))
	if w <= 0 || h <= 0 {
		return make([]string, max(h, 0))
	}
	put := func(tone theme.Tone, shade theme.Shade, s string) {
		if len(out) < h {
			out = append(out, st.Cell[tone][shade].Wrap(Fit(text.Clean(s), w)))
		}
	}
	put(theme.ToneBold, theme.ShadeNone, d.Summary)
	if d.Confirm != "" {
		put(theme.ToneWarn, theme.ShadeNone, CutWords(d.Confirm, w))
	}
	if d.Message != "" {
		put(theme.ToneMuted, theme.ShadeNone, "")
		for _, line := range wrapWords(text.Clean(d.Message), w) {
			put(theme.ToneMuted, theme.ShadeNone, line) // whole words on a narrow screen
		}
	} else {
		lay := layoutPositions(w)
		put(theme.ToneMuted, theme.ShadeNone, positionsHead(&lay))
		sel := 0
		for i := range d.Rows {
			if d.Rows[i].Selected {
				sel = i
			}
		}
		room := max(h-len(out), 1)
		if d.Total != nil {
			room = max(room-1, 1)
		}
		first := max(min(sel-room/2, len(d.Rows)-room), 0)
		for i := first; i < len(d.Rows) && i < first+room && len(out) < h; i++ {
			r := &d.Rows[i]
			tone, shade := theme.ToneText, theme.ShadeNone
			if !r.Open {
				tone = theme.ToneMuted
			}
			if r.Selected {
				shade = theme.ShadeCursor
			}
			put(tone, shade, positionLine(r, &lay))
		}
		if d.Total != nil {
			put(theme.ToneBold, theme.ShadeHeader, positionLine(d.Total, &lay))
		}
	}
	for len(out) < h {
		out = append(out, paneBlank(w))
	}
	return out[:h]
}

func positionLine(r *PositionRow, l *positionsLayout) string {
	var b strings.Builder
	id := strconv.Itoa(r.ID)
	if r.ID == 0 && r.Legs == "" {
		id = "" // the total's row
	}
	b.WriteString(padLeft(id, posIDW) + "  ")
	if l.wide {
		b.WriteString(Fit(Cut(r.Name, posNameW), posNameW) + "  ")
	}
	b.WriteString(Fit(Cut(r.Legs, l.legsW), l.legsW) + "  ")
	if l.wide {
		b.WriteString(padRight(r.Opened, posOpenedW) + "  ")
	}
	b.WriteString(Fit(Cut(r.Status, posStatusW), posStatusW))
	for c, v := range [numPosFigs]string{r.Value, r.Today, r.SinceOp, r.Delta, r.Theta, r.Vega} {
		if !l.keep[c] {
			continue
		}
		if v == "" {
			v = dash
		}
		b.WriteString(paneBlank(posFigW[c]-paneWidth(v)) + v)
	}
	return b.String()
}

// PositionsSummary is the header: what is open and its P&L.
func PositionsSummary(open, closed int, today, since, realized float64) string {
	return "Positions · " + strconv.Itoa(open) + " open · today " + strategy.Money(today) + " · since open " + strategy.Money(since) +
		" · " + strconv.Itoa(closed) + " closed, realized " + strategy.Money(realized)
}

// PositionGreek is a greek for the table: one decimal, "" (a dash) for
// none.
func PositionGreek(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if math.Abs(v) < 0.05 {
		v = 0 // not "-0.0"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
