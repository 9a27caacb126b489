package ui

import (
	"math"
	"strconv"

	"chainwatch/api"
	"chainwatch/theme"
	"chainwatch/vol"
)

// The vol page's table: one row per expiry, its figures in the columns a
// trader reads first, dropped from the right on a narrow terminal.

// appendVolPoints appends a spread of IVs (fractions) in vol points with
// a sign: -0.0312 is "-3.1". The sign is the figure: a negative risk
// reversal is puts over calls.
func appendVolPoints(dst []byte, v float64) []byte {
	return appendSigned(dst, v*100, 1)
}

// appendRatio appends a put/call ratio, "1.25"; "-" unknown.
func appendRatio(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	return appendFixed(dst, v, 2)
}

// volColumn is a column of the per-expiry table.
type volColumn struct {
	title string
	w     int
	cell  func(dst []byte, f *vol.Figures) []byte
}

// volColumns in order of what a trader reads first: the table drops them
// from the right when the terminal is narrow.
var volColumns = []volColumn{
	{"DTE", 5, func(b []byte, f *vol.Figures) []byte { return append(strconv.AppendInt(b, int64(f.DTE), 10), 'd') }},
	{"ATM", 8, func(b []byte, f *vol.Figures) []byte { return appendStrike(b, f.ATMStrike) }},
	{"ATM IV", 8, func(b []byte, f *vol.Figures) []byte { return appendPct(b, f.ATMIV, 1) }},
	{"Move", 8, func(b []byte, f *vol.Figures) []byte { return appendMove(b, f.Move) }},
	{"Move%", 7, func(b []byte, f *vol.Figures) []byte { return appendMovePct(b, f.MovePct) }},
	{"RR25", 7, func(b []byte, f *vol.Figures) []byte { return appendVolPoints(b, f.RR25) }},
	{"BF25", 7, func(b []byte, f *vol.Figures) []byte { return appendVolPoints(b, f.BF25) }},
	{"P/C vol", 9, func(b []byte, f *vol.Figures) []byte { return appendRatio(b, f.PCVolume) }},
	{"P/C OI", 8, func(b []byte, f *vol.Figures) []byte { return appendRatio(b, f.PCOI) }},
}

// volExpiryW is the table's first column: the selection mark, the date
// and the earnings mark, "▶ Nov21 E".
const volExpiryW = 10

// volTable is the per-expiry table in h lines (a header and the rows),
// scrolled so the selected expiry is in sight, on the cursor shade and
// marked ▶; the expiries that carry the next earnings are marked E.
func volTable(d *VolData, sel, width, h int, st *theme.Styles) []string {
	if h <= 0 {
		return nil
	}
	cols, used := 0, volExpiryW
	for cols < len(volColumns) && used+volColumns[cols].w <= width {
		used += volColumns[cols].w
		cols++
	}
	out := make([]string, 0, h)
	head := newPaneLine(width, theme.Span{})
	hs := st.Span(theme.ToneMuted, theme.ShadeNone)
	head.put(hs, padRight("  Expiry", volExpiryW))
	for _, c := range volColumns[:cols] {
		head.put(hs, padLeft(c.title, c.w))
	}
	out = append(out, head.line())
	n := h - 1
	first := 0
	if sel >= n {
		first = sel - n + 1
	}
	first = max(min(first, len(d.Figures)-n), 0)
	var buf [32]byte
	for i := first; i < len(d.Figures) && len(out) < h; i++ {
		f := &d.Figures[i]
		shade, tone := theme.ShadeNone, theme.ToneText
		mark := "  "
		if i == sel {
			shade, tone, mark = theme.ShadeCursor, theme.ToneBold, "▶ "
		}
		l := newPaneLine(width, st.Span(theme.ToneText, shade))
		l.put(st.Span(tone, shade), mark)
		l.put(st.Span(tone, shade), fmtDate(f.Date))
		if d.Earnings >= 0 && i >= d.Earnings {
			l.put(st.Span(theme.ToneWarn, shade), " E")
		}
		l.blank(volExpiryW - 2 - 5 - earnW(d, i))
		for _, c := range volColumns[:cols] {
			cell := string(c.cell(buf[:0], f)) // measured: "±" is two bytes in one cell
			l.blank(c.w - paneWidth(cell))
			l.put(st.Span(tone, shade), cell)
		}
		out = append(out, l.line())
	}
	for len(out) < h {
		out = append(out, paneBlank(width))
	}
	return out
}

func earnW(d *VolData, i int) int {
	if d.Earnings >= 0 && i >= d.Earnings {
		return 2
	}
	return 0
}

// EarningsIndex is the index of the first of figs on or after the
// earnings report on day; -1 when there is none or day is 0.
func EarningsIndex(figs []vol.Figures, day api.Date) int {
	if day == 0 {
		return -1
	}
	for i := range figs {
		if figs[i].Date >= day {
			return i
		}
	}
	return -1
}
