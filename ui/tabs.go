package ui

import (
	"strconv"

	"chainwatch/theme"
)

// Expiry tabs: one line of "Nov21 0d W" tabs, the selected one bracketed
// ("[Nov21 0d W]") on the cursor shade, so it shows without colour. The
// marks are words, not colours: W weekly, M monthly, Q quarterly (dailies
// have none), E an expiry after the next earnings report. When the tabs
// do not fit, the bar scrolls so the selected tab and the one after it
// are in sight, with "‹" / "›" at the edges saying more are off screen.

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
	return dst
}

// tabWidth is a tab's cells: its text and a bracket (or blank) each side.
func tabWidth(t *ExpiryTab) int {
	var buf [32]byte
	return len(appendTab(buf[:0], t)) + 2
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
			w += tabWidth(&tabs[i])
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
	var buf, cellBuf [44]byte
	for i := bar.first; i < bar.last; i++ {
		t := &tabs[i]
		txt := appendTab(buf[:0], t)
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
		used += min(len(cell), room)
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
	for i := bar.first; i < bar.last; i++ {
		w := tabWidth(&tabs[i])
		if x >= pos && x < pos+w {
			return i, true
		}
		pos += w
	}
	return 0, false
}
