package ui

import (
	"math"
	"strconv"
	"unicode/utf8"

	"chainwatch/theme"
)

// Expiry tabs: one line of "Nov21 0d W" tabs, the selected one bracketed
// ("[Nov21 0d W]") on the cursor shade, so it shows without colour. The
// marks are words, not colours: W weekly, M monthly, Q quarterly (dailies
// have none), E an expiry after the next earnings report, and the root
// where several roots list the expiry ("Dec18 24d M SPX", "Dec18 24d M
// SPXW": the AM-settled monthly and the PM weekly). When the tabs
// do not fit, the bar scrolls so the selected tab and the one after it
// are in sight, with "‹" / "›" at the edges saying more are off screen.
//
// Under the tabs, the expiry strip (ExpiryStrip) gives each tab its ATM
// IV and expected move, "20.1% ±4.31", and from 120 columns the move as a
// share of spot too, "20.1% ±4.31 0.72%". A tab is as wide as its strip
// cell, so the two lines stay aligned whatever the figures are.

// kindMark is the tab's mark for an expiry kind.
var kindMark = [...]string{ExpiryDaily: "", ExpiryWeekly: "W", ExpiryMonthly: "M", ExpiryQuarterly: "Q"}

// appendTab appends the tab's text without its brackets: "Nov21 0d W E".
func appendTab(dst []byte, t *ExpiryTab) []byte {
	dst = appendDate(dst, t.Date)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(t.DTE), 10)
	dst = append(dst, 'd')
	if int(t.Kind) < len(kindMark) && kindMark[t.Kind] != "" {
		dst = append(dst, ' ')
		dst = append(dst, kindMark[t.Kind]...)
	}
	if t.Earnings {
		dst = append(dst, " E"...)
	}
	if t.Root != "" {
		dst = append(dst, ' ')
		dst = append(dst, t.Root...)
	}
	return dst
}

// tabWidth is a tab's cells: its text or its strip cell, whichever is
// wider, and a bracket (or blank) each side.
func tabWidth(t *ExpiryTab, long bool) int {
	var buf [32]byte
	return max(len(appendTab(buf[:0], t)), stripCellW(long)) + 2
}

// stripLongFrom is the bar width from which the strip adds the move as a
// share of spot.
const stripLongFrom = 120

// stripCellW is the strip's text per tab: the IV and the move in 5 cells
// each, a blank between, and the share of spot in 5 more when long.
func stripCellW(long bool) int {
	if long {
		return 17
	}
	return 11
}

// appendStripCell appends a tab's strip text, exactly stripCellW cells:
// its figures right-aligned in columns, a dash for each one not known.
func appendStripCell(dst []byte, t *ExpiryTab, long bool) []byte {
	var buf [16]byte
	iv := buf[:0]
	switch {
	case !(t.ATMIV > 0) || math.IsInf(t.ATMIV, 0):
		iv = append(iv, dash...)
	case t.ATMIV >= 1:
		iv = appendPct(iv, t.ATMIV, 0) // "120%": a meme stock's IV still fits
	default:
		iv = appendPct(iv, t.ATMIV, 1)
	}
	dst = appendPadLeft(dst, iv, 5)
	dst = append(dst, ' ')
	mv := appendMove(buf[:0], t.Move)
	// "±" is two bytes in one cell.
	dst = appendPadLeft(dst, mv, 5+len(mv)-utf8.RuneCount(mv))
	if long {
		dst = append(dst, ' ')
		dst = appendPadLeft(dst, appendMovePct(buf[:0], t.MovePct), 5)
	}
	return dst
}

// appendMove appends an expected move in points with a "±" and four
// significant figures at most: "±4.31", "±25.3", "±250"; "-" unknown.
func appendMove(dst []byte, v float64) []byte {
	if !(v > 0) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	dst = append(dst, "±"...)
	switch {
	case v < 9.995:
		return appendFixed(dst, v, 2)
	case v < 99.95:
		return appendFixed(dst, v, 1)
	}
	return appendFixed(dst, v, 0)
}

// appendMovePct appends a move's share of spot: "0.72%" below one
// percent, "1.5%" above; "-" unknown.
func appendMovePct(dst []byte, v float64) []byte {
	if !(v > 0) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	if v < 0.00995 {
		return appendPct(dst, v, 2)
	}
	return appendPct(dst, v, 1)
}

// tabBar is where the tabs go on a bar of some width.
type tabBar struct {
	first, last int  // tabs drawn: [first, last)
	more, less  bool // tabs off screen to the right / left: an arrow cell each
	selected    int
}

// layoutTabs picks the tabs shown. The bar is a pure function of the
// selection (the model keeps no scroll state for it): it starts at the
// first tab when the selected one and the next fit from there, and
// otherwise starts at the latest tab that keeps them both in sight.
func layoutTabs(tabs []ExpiryTab, selected, width int) tabBar {
	n := len(tabs)
	long := width >= stripLongFrom
	var bar tabBar
	if n == 0 || width <= 0 {
		return bar
	}
	selected = min(max(selected, 0), n-1)
	bar.selected = selected
	target := min(selected+1, n-1) // keep one tab of what comes next in sight
	// Room for the tabs given the arrow cells.
	fits := func(first, last int) bool {
		w := 0
		if first > 0 {
			w++
		}
		if last < n {
			w++
		}
		for i := first; i < last; i++ {
			w += tabWidth(&tabs[i], long)
		}
		return w <= width
	}
	first := 0
	for first < selected && !fits(first, target+1) {
		first++
	}
	if !fits(first, target+1) {
		target = selected // not even the next one fits: the selected alone
	}
	last := first
	for last < n && fits(first, last+1) {
		last++
	}
	if last <= selected { // too narrow for the selected tab: show it cut
		first, last = selected, selected+1
	}
	bar.first, bar.last = first, last
	// A bar of one or two cells has no room for arrows.
	bar.less, bar.more = first > 0 && width >= 3, last < n && width >= 3
	return bar
}

// ExpiryTabs draws the expiry tab bar: exactly width cells.
func ExpiryTabs(tabs []ExpiryTab, selected int, width int, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	w := spanWriter{buf: make([]byte, 0, width*3+64*min(len(tabs), width/8+2)), st: st, cur: -1}
	if len(tabs) == 0 {
		w.to(theme.ToneMuted, theme.ShadeNone)
		w.buf = appendPadRight(w.buf, "no expiries", width)
		w.end()
		return string(w.buf)
	}
	bar := layoutTabs(tabs, selected, width)
	used := 0
	if bar.less {
		w.to(theme.ToneAccent, theme.ShadeNone)
		w.buf = append(w.buf, "‹"...)
		used++
	}
	right := 0
	if bar.more {
		right = 1
	}
	long := width >= stripLongFrom
	var buf, cellBuf [44]byte
	for i := bar.first; i < bar.last; i++ {
		t := &tabs[i]
		txt := appendTab(buf[:0], t)
		cw := tabWidth(t, long)
		room := width - right - used
		if room <= 0 {
			break
		}
		tone, shade := theme.ToneText, theme.ShadeNone
		switch {
		case i == bar.selected:
			tone, shade = theme.ToneBold, theme.ShadeCursor
		case t.DTE < 0:
			tone = theme.ToneMuted // expired: a historical date's past
		case t.Kind == ExpiryMonthly || t.Kind == ExpiryQuarterly:
			tone = theme.ToneAccent
		}
		w.to(tone, shade)
		cell := cellBuf[:0]
		if i == bar.selected {
			cell = append(cell, '[')
			cell = append(cell, txt...)
			cell = append(cell, ']')
		} else {
			cell = append(cell, ' ')
			cell = append(cell, txt...)
			cell = append(cell, ' ')
		}
		if t.Earnings && i != bar.selected && len(cell) <= room {
			// The earnings mark in the warning tone, the rest as the tab.
			w.buf = append(w.buf, cell[:len(cell)-3]...)
			w.to(theme.ToneWarn, shade)
			w.buf = append(w.buf, cell[len(cell)-3:]...)
		} else {
			w.buf = appendPadRight(w.buf, cell, min(len(cell), room))
		}
		if pad := min(cw, room) - min(len(cell), room); pad > 0 {
			// Up to the strip cell's width, unshaded: the bracket shows
			// the selection.
			w.end()
			w.spaces(pad)
		}
		used += min(cw, room)
	}
	w.end()
	w.spaces(width - right - used)
	if bar.more {
		w.to(theme.ToneAccent, theme.ShadeNone)
		w.buf = append(w.buf, "›"...)
		w.end()
	}
	return string(w.buf)
}

// ExpiryHit reports the tab under column x of the bar ExpiryTabs draws
// for the same arguments; the arrow cells and blank space are no tab.
func ExpiryHit(tabs []ExpiryTab, selected, width, x int) (int, bool) {
	if x < 0 || x >= width {
		return 0, false
	}
	bar := layoutTabs(tabs, selected, width)
	if bar.last == bar.first {
		return 0, false
	}
	pos := 0
	if bar.less {
		pos++
	}
	long := width >= stripLongFrom
	for i := bar.first; i < bar.last; i++ {
		w := tabWidth(&tabs[i], long)
		if x >= pos && x < pos+w {
			return i, true
		}
		pos += w
	}
	return 0, false
}

// ExpiryStrip draws the strip under the tab bar ExpiryTabs draws for the
// same arguments: under each tab its ATM IV and expected move (and share
// of spot when the bar is wide), the selected one on the cursor shade,
// a dash for what the chain cannot tell. Exactly width cells.
func ExpiryStrip(tabs []ExpiryTab, selected int, width int, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	w := spanWriter{buf: make([]byte, 0, width*3+64), st: st, cur: -1}
	bar := layoutTabs(tabs, selected, width)
	long := width >= stripLongFrom
	used := 0
	if bar.less {
		w.spaces(1)
		used++
	}
	right := 0
	if bar.more {
		right = 1
	}
	var buf [32]byte
	for i := bar.first; i < bar.last; i++ {
		t := &tabs[i]
		room := width - right - used
		if room <= 0 {
			break
		}
		cw := min(tabWidth(t, long), room)
		tone, shade := theme.ToneMuted, theme.ShadeNone
		if i == bar.selected {
			tone, shade = theme.ToneText, theme.ShadeCursor
		}
		cell := append(buf[:0], ' ')
		cell = appendStripCell(cell, t, long)
		cell = append(cell, ' ')
		n := utf8.RuneCount(cell) // one cell each: ASCII and "±"
		for n > cw {              // cut at the bar's edge
			_, size := utf8.DecodeLastRune(cell)
			cell = cell[:len(cell)-size]
			n--
		}
		w.to(tone, shade)
		w.buf = append(w.buf, cell...)
		w.end()
		w.spaces(cw - n)
		used += cw
	}
	w.end()
	w.spaces(width - used)
	return string(w.buf)
}
