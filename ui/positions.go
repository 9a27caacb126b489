package ui

import (
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
	Status                string // open, closed 2026-11-25, rolled to 3, or why it is not marked
	Value, Today, SinceOp string // money, "" a dash
	Selected, Open        bool
}

// PositionsData is what the positions page draws.
type PositionsData struct {
	Summary string // the header: open positions, P&L today and since open, realized
	Rows    []PositionRow
	Message string // instead of the table: no positions, a file that does not load
}

// positionsHead is the table's heading; narrower than wideTable the
// name and the opening time are left out (positionLine).
func positionsHead(wide bool) string {
	r := PositionRow{Name: "Name", Legs: "Legs", Opened: "Opened", Status: "Status", Value: "Value", Today: "Today", SinceOp: "Since open"}
	return strings.Replace(positionLine(&r, wide), "   0", "  ID", 1)
}

// wideTable is the width from which every column shows.
const wideTable = 120

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
	if d.Message != "" {
		put(theme.ToneMuted, theme.ShadeNone, "")
		put(theme.ToneMuted, theme.ShadeNone, d.Message)
	} else {
		put(theme.ToneMuted, theme.ShadeNone, positionsHead(w >= wideTable))
		sel := 0
		for i := range d.Rows {
			if d.Rows[i].Selected {
				sel = i
			}
		}
		room := max(h-2, 1)
		first := max(min(sel-room/2, len(d.Rows)-room), 0)
		for i := first; i < len(d.Rows) && len(out) < h; i++ {
			r := &d.Rows[i]
			tone, shade := theme.ToneText, theme.ShadeNone
			if !r.Open {
				tone = theme.ToneMuted
			}
			if r.Selected {
				shade = theme.ShadeCursor
			}
			put(tone, shade, positionLine(r, w >= wideTable))
		}
	}
	for len(out) < h {
		out = append(out, paneBlank(w))
	}
	return out[:h]
}

func positionLine(r *PositionRow, wide bool) string {
	var b strings.Builder
	b.WriteString(padLeft(strconv.Itoa(r.ID), 4) + "  ")
	if wide {
		b.WriteString(padRight(r.Name, 12) + "  ")
	}
	b.WriteString(padRight(r.Legs, 28) + "  ")
	if wide {
		b.WriteString(padRight(r.Opened, 16) + "  ")
	}
	b.WriteString(padRight(r.Status, 11))
	for _, v := range []string{r.Value, r.Today, r.SinceOp} {
		if v == "" {
			v = dash
		}
		b.WriteString(padLeft(v, 10))
	}
	return b.String()
}

// PositionsSummary is the header: what is open and its P&L.
func PositionsSummary(open, closed int, today, since, realized float64) string {
	return "Positions · " + strconv.Itoa(open) + " open · today " + strategy.Money(today) + " · since open " + strategy.Money(since) +
		" · " + strconv.Itoa(closed) + " closed, realized " + strategy.Money(realized)
}
