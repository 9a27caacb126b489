package ui

import (
	"math"
	"strings"

	"chainwatch/positioning"
	"chainwatch/theme"
)

// The positioning page's bars: a line per strike, puts to the left of the
// strike and calls to the right, and the spot and zero-gamma lines
// between the strikes they fall between.

// posBars is the columns' heads and the strikes in height lines of w
// cells: puts to the left of the strike, calls to the right, one scale
// for both (the largest open interest in sight), the spot and the
// zero-gamma level as lines between the strikes they fall between. Each
// line goes to emit as bytes on one buffer, valid during the call: the
// caller joins it to the panel beside it before it makes a string, so a
// line costs one allocation, not three.
func posBars(v *PositioningView, w, height int, st *theme.Styles, emit func([]byte)) {
	c := posLayout(w)
	l := paneLine{b: make([]byte, 0, 8*w+256)} // bars are 3-byte runes, and spans
	nums := paneNums{b: make([]byte, 0, 128)}
	n := height - 1
	first, last := posWindow(v, n)
	scale := int64(0)
	for i := first; i < last; i++ {
		scale = max(scale, v.Rows[i].CallOI, v.Rows[i].PutOI)
	}
	lines := 0
	put := func(b []byte) {
		if lines < height {
			emit(b)
			lines++
		}
	}
	put(posHead(&l, c, w, scale, v.Greek, st))
	// The spot and zero-gamma lines, in the order of their prices: each
	// goes above the first strike at or over it (not above the first
	// row drawn: the window's edge is no place between two strikes).
	marks := [2]struct {
		at   float64
		what string
		tone theme.Tone
	}{{v.Spot, "spot", theme.ToneAccent}, {v.Flip.Level, "zero gamma", theme.ToneWarn}}
	if marks[1].at < marks[0].at {
		marks[0], marks[1] = marks[1], marks[0]
	}
	next := 0
	for i := first; i < last && lines < height; i++ {
		k := v.Rows[i].Strike
		for ; next < len(marks) && !(marks[next].at > k); next++ { // NaN: never drawn
			if i > first && !math.IsNaN(marks[next].at) {
				put(posRule(&l, c, w, marks[next].what, marks[next].at, marks[next].tone, st))
			}
		}
		if lines < height {
			put(posRow(&l, &nums, v, &v.Rows[i], c, w, scale, st))
		}
	}
	for lines < height {
		l.reset(w, theme.Span{})
		put(l.bytes())
	}
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
func posHead(l *paneLine, c posCols, w int, scale int64, greek positioning.Greek, st *theme.Styles) []byte {
	l.reset(w, theme.Span{})
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
	var arena [48]byte
	call := string(append(appendSize(append(arena[:0], "full bar "...), scale), "  calls ▶"...))
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
	l.put(m, padLeft(greek.Short(), c.gex))
	if c.tag > 0 {
		l.blank(1)
		l.put(m, padRight("mark", c.tag))
	}
	return l.bytes()
}

// posRow is one strike: its puts' volume, open interest and bar, the
// strike, its calls' bar, open interest and volume, its dealer exposure
// in the greek shown (GEX, VEX or CEX), and its marks (call wall, put wall, max pain).
func posRow(l *paneLine, nums *paneNums, v *PositioningView, r *positioning.StrikeRow, c posCols, w int, scale int64, st *theme.Styles) []byte {
	l.reset(w, theme.Span{})
	// One scratch buffer for the rows' figures, the caller's: written in
	// place, no string made for a number.
	nums.b = nums.b[:0]
	cell := func(width int, right bool, app func([]byte) []byte) []byte {
		s := len(nums.b)
		nums.b = app(nums.b)
		n := len(nums.b) - s
		if n >= width {
			nums.b = nums.b[:s+width]
			return nums.cut(s)
		}
		if !right {
			nums.b = appendSpaces(nums.b, width-n)
			return nums.cut(s)
		}
		// Right-aligned: the figure moves right by the padding.
		nums.b = appendSpaces(nums.b, width-n)
		copy(nums.b[s+width-n:], nums.b[s:s+n])
		for i := s; i < s+width-n; i++ {
			nums.b[i] = ' '
		}
		return nums.cut(s)
	}
	size := func(x int64, width int) []byte {
		return cell(width, true, func(b []byte) []byte { return appendSizeFit(b, x, width) })
	}
	muted, put, call := st.Span(theme.ToneMuted, theme.ShadeNone), st.Span(theme.TonePut, theme.ShadeNone), st.Span(theme.ToneCall, theme.ShadeNone)
	if c.vol > 0 {
		l.blank(1)
		l.putASCII(muted, size(r.PutVolume, c.vol))
	}
	l.blank(1)
	l.putASCII(put, size(r.PutOI, c.oi))
	l.blank(1)
	pb := barCells(r.PutOI, scale, c.bar)
	l.blank(c.bar - pb)
	l.putCells(put, blocks(pb), pb)
	var kb [24]byte
	k := appendStrike(kb[:0], r.Strike)
	l.putASCII(st.Span(theme.ToneBold, theme.ShadeNone), cell(c.strike, false, func(b []byte) []byte {
		return append(appendSpaces(b, (c.strike-len(k))/2), k...)
	}))
	cb := barCells(r.CallOI, scale, c.bar)
	l.putCells(call, blocks(cb), cb)
	l.blank(c.bar - cb + 1)
	l.putASCII(call, size(r.CallOI, c.oi))
	if c.vol > 0 {
		l.blank(1)
		l.putASCII(muted, size(r.CallVolume, c.vol))
	}
	gc, gp := r.Of(v.Greek)
	g := gc + gp
	l.blank(1)
	l.putASCII(st.Span(signTone(g), theme.ShadeNone), cell(c.gex, true, func(b []byte) []byte { return appendGEX(b, g) }))
	if c.tag > 0 {
		l.blank(1)
		l.putASCII(st.Span(theme.ToneAccent, theme.ShadeNone), cell(c.tag, false, func(b []byte) []byte { return appendTags(b, v, r.Strike) }))
	}
	return l.bytes()
}

// appendTags marks a strike: MP the nearest expiry's max pain, CW the
// call wall, PW the put wall (at most two).
func appendTags(b []byte, v *PositioningView, k float64) []byte {
	n := 0
	add := func(s string) {
		if n == 2 {
			return
		}
		if n > 0 {
			b = append(b, ' ')
		}
		b = append(b, s...)
		n++
	}
	if len(v.Figs.MaxPain) > 0 && v.Figs.MaxPain[0].Strike == k {
		add("MP")
	}
	if v.Figs.CallWall == k {
		add("CW")
	}
	if v.Figs.PutWall == k {
		add("PW")
	}
	return b
}

// posRule is a line between strikes: the spot or the zero-gamma level,
// its price on the strike column.
func posRule(l *paneLine, c posCols, w int, what string, at float64, tone theme.Tone, st *theme.Styles) []byte {
	var arena [48]byte
	lab := append(appendPrice(append(append(append(arena[:0], ' '), what...), ' '), at), ' ')
	left := 1 + c.oi + 1 + c.bar + c.strike/2 - len(lab)/2
	if c.vol > 0 {
		left += 1 + c.vol
	}
	left = min(max(left, 0), max(w-len(lab), 0))
	l.reset(w, theme.Span{})
	sp := st.Span(tone, theme.ShadeNone)
	l.putCells(sp, ruleCells(left), left)
	l.putASCII(sp, lab)
	l.putCells(sp, ruleCells(w-left-len(lab)), w-left-len(lab))
	return l.bytes()
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

// blocks is n full blocks: sliced from fullBlocks, made past it (a bar
// wider than 256 cells, on a very wide terminal) rather than cut short.
func blocks(n int) string { return runOf(fullBlocks, "█", n) }

// ruleCells is n cells of the ladder's spot rule.
func ruleCells(n int) string { return runOf(rule, "─", n) }

// runOf is n cells of glyph, sliced from run (a run of it) when it is
// long enough, else repeated.
func runOf(run, glyph string, n int) string {
	n = max(n, 0)
	if n*len(glyph) <= len(run) {
		return run[:n*len(glyph)]
	}
	return strings.Repeat(glyph, n)
}
