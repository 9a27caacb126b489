package ui

import (
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// LadderView is what the strike ladder draws: one expiry's strikes, calls
// on the left, puts on the right, the strike in the middle.
type LadderView struct {
	Rows    []StrikeRow    // the strikes in the at-the-money window (model slices them; ascending strike)
	Offset  int            // first row drawn
	Cursor  int            // selected row (index into Rows)
	Side    api.OptionType // api.Call or api.Put: the selected side
	Spot    float64        // underlying price: ITM shading and the spot line; NaN unknown
	Set     ColumnSet
	Now     int64 // unix nanos, for flashes
	Flash   int64 // flash duration in nanos (e.g. 700ms)
	Focused bool
	Message string // shown centred instead of rows when non-empty ("loading SPY…", "no options listed", an error)
	// Root is the rows' option root when several roots list the expiry
	// (SPX, SPXW): the header names it where it says "Strike".
	Root string
}

// LadderRows is the number of strike rows a ladder of height lines shows:
// one line goes to the column titles and one is always kept for the spot
// line, so that the rows do not jump when the spot crosses in or out of
// the window. The model keeps the cursor within Offset..Offset+LadderRows.
func LadderRows(height int) int { return max(0, height-2) }

// Ladder draws v as exactly height lines of exactly width cells.
//
// It is the hottest renderer of the app (every frame, a keypress or a
// quote update away), so it touches only Rows[Offset:Offset+LadderRows]
// (plus a binary search for the spot's place): its cost does not depend
// on the size of the chain. Cells are formatted into one scratch buffer
// and wrapped in the Styles' pre-rendered spans, with one span per run of
// equally styled cells; the whole pane is one buffer the lines are sliced
// from (a fixed few allocations a frame, whatever the chain:
// BenchmarkLadderView).
func Ladder(v *LadderView, width, height int, st *theme.Styles) []string {
	lines := make([]string, max(height, 0))
	if height <= 0 || width <= 0 {
		return lines // no lines, or lines of no cells
	}
	var r ladderRenderer
	r.v, r.st, r.width = v, st, width
	r.layout()
	// One buffer for the pane, sized for the usual frame: the text, a few
	// span switches a row (two dozen bytes each) and the spot line's
	// 3-byte "─". Every cell flashing needs more and grows it once or twice;
	// sizing for that always would cost more in clearing and GC than it saves.
	r.w = spanWriter{buf: make([]byte, 0, height*(width+320)+2*width), st: st, cur: -1}

	var endsArr [96]int
	ends := endsArr[:0]
	if height > len(endsArr) {
		ends = make([]int, 0, height)
	}
	mark := func() { r.w.end(); ends = append(ends, len(r.w.buf)) }

	r.header()
	mark()

	if v.Message != "" {
		at := max(1, (height-1)/2)
		for y := 1; y < height; y++ {
			if y == at {
				r.message(v.Message)
			} else {
				r.w.spaces(width)
			}
			mark()
		}
	} else {
		first, last, spotAt, pin := r.window(height)
		r.sizeUnits(first, last)
		y := 1
		for i := first; i < last; i++ {
			if spotAt == i && y < height {
				r.spotLine(pin)
				mark()
				y++
			}
			r.row(&v.Rows[i], i == v.Cursor)
			mark()
			y++
		}
		if spotAt == last && y < height {
			r.spotLine(pin)
			mark()
			y++
		}
		for ; y < height; y++ {
			r.w.spaces(width)
			mark()
		}
	}

	s := string(r.w.buf)
	start := 0
	for i, e := range ends {
		lines[i] = s[start:e]
		start = e
	}
	return lines
}

// LadderHit reports which row of v.Rows the line y (0 = the pane's top)
// shows, for mouse clicks: not the title line, not the spot line.
func LadderHit(v *LadderView, height, y int) (row int, ok bool) {
	if v.Message != "" || y < 1 || y >= height {
		return 0, false
	}
	var r ladderRenderer
	r.v = v
	first, last, spotAt, _ := r.window(height)
	i := first + y - 1 // the row drawn at y when the spot line is below it
	if spotAt >= 0 && spotAt <= i {
		if spotAt == i {
			return 0, false // the spot line itself
		}
		i--
	}
	if i < first || i >= last {
		return 0, false
	}
	return i, true
}

// ladderRenderer is the state of one Ladder call: the fitted columns and
// the output, all on the stack (the buffer's bytes aside).
type ladderRenderer struct {
	v     *LadderView
	st    *theme.Styles
	width int
	w     spanWriter

	colW [NumCols]int // text width of each column, spare cells included
	// The columns of each side are the first nCols of these arrays:
	// slices into them stored in r would move r to the heap.
	callArr, putArr [NumCols]Col
	units           [NumCols]sizeUnit // the count columns' forms (sizeUnits)
	nCols           int
	side            int // cells of one side
	left, right     int // outer margins
	strikeW         int // the middle column: strikeWidth, or less on a sliver of a pane
	spotKnown       bool
	hasFlash        bool
	flashFrom       int64 // changes at or after this time still flash
}

// layout fits the columns to the width: the sides get equal room, spare
// cells widen the columns a little (up to 3 each, easier to read) and the
// rest is split into outer margins so the strike stays in the middle,
// where the model's click test expects it.
func (r *ladderRenderer) layout() {
	v := r.v
	widths(&r.colW, priceWidth(v.Spot))
	calls := fitColumns(v.Set, r.width, &r.colW, r.callArr[:0])
	r.nCols = len(calls)
	putOrder(calls, r.putArr[:0])
	r.strikeW = min(strikeWidth, r.width)
	r.side = sideWidth(calls, &r.colW, 0)
	if n := len(calls); n > 0 {
		if extra := min(3, (r.width-r.strikeW-2*r.side)/(2*n)); extra > 0 {
			for _, c := range calls {
				r.colW[c] += extra
			}
			r.side = sideWidth(calls, &r.colW, 0)
		}
	}
	rest := max(0, r.width-r.strikeW-2*r.side)
	r.left = rest / 2
	r.right = rest - r.left
	r.spotKnown = !math.IsNaN(v.Spot) && !math.IsInf(v.Spot, 0)
	if v.Flash > 0 {
		r.hasFlash = true
		r.flashFrom = v.Now - v.Flash
	}
}

// priceWidth is the width of the price columns for a chain whose
// underlying trades at spot. Option prices stay below the underlying
// (calls) or the strike (puts), so half again the spot bounds every
// price near the money, and a $40 stock's chain does not pay for SPX's
// "1234.56": those cells buy a column more on a narrow terminal. It
// depends on the spot only, never on the rows, so columns do not shift
// while scrolling. A price that still overflows loses decimals (appendFit).
func priceWidth(spot float64) int {
	if math.IsNaN(spot) || spot <= 0 || math.IsInf(spot, 0) {
		return maxPriceWidth
	}
	return min(max(digits(int64(spot*1.5))+3, minPriceWidth), maxPriceWidth+1)
}

// window returns the rows drawn, [first, last), and where the spot line
// goes: before row spotAt (last: after every drawn row), or -1 with no
// spot. pin is +1/-1 when the spot is really above/below the window and
// the line is pinned to its edge (so it is never out of sight), 0 when it
// is in its place. The spot's row is found by binary search: log n rows
// touched, not n.
func (r *ladderRenderer) window(height int) (first, last, spotAt, pin int) {
	v := r.v
	n := len(v.Rows)
	first = min(max(v.Offset, 0), n)
	last = min(first+LadderRows(height), n)
	spotAt = -1
	if math.IsNaN(v.Spot) || math.IsInf(v.Spot, 0) {
		return
	}
	spot := v.Spot
	// The first strike above the spot: the line goes between the last
	// strike at or below it and this one.
	k := sort.Search(n, func(i int) bool { return v.Rows[i].Strike > spot })
	switch {
	case k < first:
		spotAt, pin = first, -1
	case k > last:
		spotAt, pin = last, 1
	default:
		spotAt = k
	}
	return
}

// header draws the column titles on the header shade, the call side's
// mirrored by the put side's, and " C Strike P " in the middle so calls
// and puts are named, not just coloured. The focused ladder's first
// cell is a "▸", as the tape's and the calendar's titles have it, so the
// pane that takes the keys shows without colour.
func (r *ladderRenderer) header() {
	w := &r.w
	left, first := r.left, 0
	if c0 := r.callArr[0]; r.v.Focused && r.nCols > 0 && (left > 0 || len(cols[c0].title) < r.colW[c0]) {
		w.to(theme.ToneAccent, theme.ShadeHeader)
		w.buf = append(w.buf, "▸"...)
		if left > 0 {
			left--
		} else {
			first = 1 // the first title is right-aligned: its first cell is blank
		}
	}
	w.to(theme.ToneMuted, theme.ShadeHeader)
	w.spaces(left)
	for i, c := range r.callArr[:r.nCols] {
		if i > 0 {
			w.buf = append(w.buf, ' ')
		}
		w.buf = appendPadLeft(w.buf, cols[c].title, r.colW[c]-first)
		first = 0
	}
	w.to(theme.ToneBold, theme.ShadeHeader)
	switch root := r.v.Root; {
	case root != "" && len(root)+4 <= r.strikeW:
		// " C SPXW P ": the root of these rows, the sides still named.
		w.buf = append(w.buf, " C"...)
		w.buf = appendCenter(w.buf, root, r.strikeW-4)
		w.buf = append(w.buf, "P "...)
	case root != "":
		w.buf = appendCenter(w.buf, root, r.strikeW)
	case r.strikeW == strikeWidth:
		w.buf = append(w.buf, " C Strike P "...)
	default:
		w.buf = appendCenter(w.buf, "Strike", r.strikeW)
	}
	w.to(theme.ToneMuted, theme.ShadeHeader)
	for i, c := range r.putArr[:r.nCols] {
		if i > 0 {
			w.buf = append(w.buf, ' ')
		}
		w.buf = appendPadLeft(w.buf, cols[c].title, r.colW[c])
	}
	w.spaces(r.right)
}

// row draws one strike: calls, strike, puts.
func (r *ladderRenderer) row(row *StrikeRow, cursor bool) {
	v, w := r.v, &r.w
	callShade, putShade := theme.ShadeNone, theme.ShadeNone
	if r.spotKnown {
		if row.Strike < v.Spot {
			callShade = theme.ShadeITM
		} else if row.Strike > v.Spot {
			putShade = theme.ShadeITM
		}
	}
	onPut := v.Side == api.Put
	if cursor && v.Focused {
		if onPut {
			putShade = theme.ShadeCursor
		} else {
			callShade = theme.ShadeCursor
		}
	}

	w.spaces(r.left)
	r.contract(&row.Call, r.callArr[:r.nCols], callShade)

	// The strike: bold on the header shade, a spine down the middle; the
	// cursor row's strike is on the cursor shade with an arrow towards
	// the selected side, so the selection shows without colour.
	shade := theme.ShadeHeader
	if cursor {
		shade = theme.ShadeCursor
	}
	w.to(theme.ToneBold, shade)
	var num [24]byte
	txt := appendStrike(num[:0], row.Strike)
	if r.strikeW == strikeWidth {
		if cursor && !onPut {
			w.buf = append(w.buf, " ◀"...)
		} else {
			w.buf = append(w.buf, "  "...)
		}
		w.buf = appendCenter(w.buf, txt, strikeText)
		if cursor && onPut {
			w.buf = append(w.buf, "▶ "...)
		} else {
			w.buf = append(w.buf, "  "...)
		}
	} else {
		w.buf = appendCenter(w.buf, txt, r.strikeW)
	}

	r.contract(&row.Put, r.putArr[:r.nCols], putShade)
	w.end()
	w.spaces(r.right)
}

// contract draws one side's cells on a shade. A changed cell flashes
// (the up or down tone on the flash shade) for v.Flash after the change;
// a null is a muted dash; an unlisted contract is blank.
func (r *ladderRenderer) contract(c *Contract, cs []Col, shade theme.Shade) {
	w := &r.w
	if len(cs) == 0 {
		return
	}
	if !c.Listed() {
		w.to(theme.ToneText, shade)
		w.spaces(r.side)
		return
	}
	flash := r.hasFlash && c.Changed != 0 && c.ChangedAt >= r.flashFrom && c.ChangedAt <= r.v.Now
	text, muted := spanKey(theme.ToneText, shade), spanKey(theme.ToneMuted, shade)
	var num [32]byte
	prevFlash := false
	for i, col := range cs {
		cw := r.colW[col]
		var txt []byte
		if n, ok := countOf(c, col); ok {
			txt = appendSizeIn(num[:0], n, r.units[col])
		} else {
			txt = appendCell(num[:0], c, col, cw)
		}
		tone, sh := theme.ToneText, shade
		flashing := flash && c.Changed.Has(col)
		switch {
		case flashing:
			sh, tone = theme.ShadeFlash, theme.ToneDown
			if c.Rose.Has(col) {
				tone = theme.ToneUp
			}
		case len(txt) == 1 && txt[0] == '-':
			tone = theme.ToneMuted
		}
		if i > 0 {
			// The gap takes the side's shade, unless both neighbours
			// flash: then the flash is one bar, which the terminal gets
			// as one run instead of a style change around every gap
			// (on a moving market most rows flash bid, ask and size).
			if !(prevFlash && flashing) && w.cur != text && w.cur != muted {
				w.to(theme.ToneText, shade)
			}
			w.buf = append(w.buf, ' ')
		}
		prevFlash = flashing
		w.to(tone, sh)
		w.buf = appendPadLeft(w.buf, txt, cw)
	}
}

// sizeUnits chooses each count column's one form (sizeUnit) by its
// largest value on either side in rows [first, last), the rows drawn:
// "95028" over "102k" read as the smaller at a glance.
func (r *ladderRenderer) sizeUnits(first, last int) {
	var most [NumCols]int64
	for i := first; i < last; i++ {
		row := &r.v.Rows[i]
		for _, c := range [2]*Contract{&row.Call, &row.Put} {
			if !c.Listed() {
				continue
			}
			for _, col := range [...]Col{ColVolume, ColOI, ColBidSize, ColAskSize} {
				n, _ := countOf(c, col)
				most[col] = max(most[col], n)
			}
		}
	}
	for _, col := range [...]Col{ColVolume, ColOI, ColBidSize, ColAskSize} {
		r.units[col] = sizeUnitFor(most[col], r.colW[col])
	}
}

// countOf is a count column's value (a null is negative); ok false for a
// column that is no count.
func countOf(c *Contract, col Col) (int64, bool) {
	switch col {
	case ColVolume:
		return c.Volume, true
	case ColOI:
		return c.OI, true
	case ColBidSize:
		return c.BidSize, true
	case ColAskSize:
		return c.AskSize, true
	}
	return 0, false
}

// appendCell appends a contract's value for a column in at most w cells.
func appendCell(dst []byte, c *Contract, col Col, w int) []byte {
	switch col {
	case ColBid:
		return appendFit(dst, c.Bid, 2, w, false)
	case ColAsk:
		return appendFit(dst, c.Ask, 2, w, false)
	case ColMid:
		return appendFit(dst, c.Mid, 2, w, false)
	case ColLast:
		return appendFit(dst, c.Last, 2, w, false)
	case ColVolume:
		return appendSizeFit(dst, c.Volume, w)
	case ColOI:
		return appendSizeFit(dst, c.OI, w)
	case ColBidSize:
		return appendSizeFit(dst, c.BidSize, w)
	case ColAskSize:
		return appendSizeFit(dst, c.AskSize, w)
	case ColIV:
		// The number measured without its "%": 1.221 shows as "122%" in
		// 5 cells, not "122.1".
		if math.IsNaN(c.IV) || math.IsInf(c.IV, 0) {
			return append(dst, dash...)
		}
		return append(appendFit(dst, c.IV*100, 1, w-1, false), '%')
	case ColDelta:
		return appendFit(dst, c.Delta, 3, w, true)
	case ColGamma:
		return appendFit(dst, c.Gamma, 4, w, true)
	case ColTheta:
		return appendFit(dst, c.Theta, 3, w, true)
	case ColVega:
		return appendFit(dst, c.Vega, 3, w, true)
	case ColChange:
		if c.PrevClose <= 0 {
			break // no previous close (a new listing): no change to show
		}
		d := c.Last - c.PrevClose
		if d > 0 {
			return appendFit(append(dst, '+'), d, 2, w-1, false)
		}
		return appendFit(dst, d, 2, w, false)
	case ColVolOI:
		if c.OI <= 0 || c.Volume < 0 {
			break
		}
		return appendFit(dst, float64(c.Volume)/float64(c.OI), 2, w, false)
	}
	return append(dst, dash...)
}

// spotLine draws the underlying's price across the pane, centred on the
// strike column: "──── 452.37 ────". When the spot is off the window the
// line is pinned to its edge with an arrow ("── ▲ 452.37 ──": the spot is
// above the top row), so the price is always in sight.
func (r *ladderRenderer) spotLine(pin int) {
	w := &r.w
	var lab [48]byte
	l := append(lab[:0], ' ')
	labW := 0
	switch pin {
	case -1:
		l = append(l, "▲ "...)
		labW -= len("▲") - 1
	case 1:
		l = append(l, "▼ "...)
		labW -= len("▼") - 1
	}
	l = appendPrice(l, r.v.Spot)
	l = append(l, ' ')
	labW += len(l)
	w.to(theme.ToneAccent, theme.ShadeNone)
	if labW > r.width {
		w.rule(r.width)
		return
	}
	mid := r.left + r.side + r.strikeW/2
	lw := min(max(mid-labW/2, 0), r.width-labW)
	w.rule(lw)
	w.buf = append(w.buf, l...)
	w.rule(r.width - lw - labW)
}

// message draws a line of free text (it may hold "…" or a symbol's name)
// centred, measured in cells.
func (r *ladderRenderer) message(msg string) {
	w := &r.w
	msg = Cut(text.Clean(msg), r.width) // the text may come from a server
	mw := ansi.StringWidth(msg)
	left := (r.width - mw) / 2
	w.spaces(left)
	w.to(theme.ToneMuted, theme.ShadeNone)
	w.buf = append(w.buf, msg...)
	w.end()
	w.spaces(r.width - mw - left)
}

// spanWriter appends runs of styled text to a buffer: it opens a span
// only when the style changes, so a side of equally shaded cells costs
// one escape sequence pair instead of one per cell. It appends to a plain
// []byte (not a strings.Builder behind a pointer) so that the renderer
// and its buffer stay on the stack: no write barriers per append.
type spanWriter struct {
	buf   []byte
	st    *theme.Styles
	cur   int // spanKey of the open span; -1 none
	close string
}

func spanKey(t theme.Tone, s theme.Shade) int { return int(t)<<4 | int(s) }

// to switches the open span to tone t on shade s.
func (w *spanWriter) to(t theme.Tone, s theme.Shade) {
	k := spanKey(t, s)
	if k == w.cur {
		return
	}
	w.buf = append(w.buf, w.close...)
	sp := &w.st.Cell[t][s]
	w.buf = append(w.buf, sp.Open...)
	w.cur, w.close = k, sp.Close
}

// end closes the open span, if any.
func (w *spanWriter) end() {
	w.buf = append(w.buf, w.close...)
	w.cur, w.close = -1, ""
}

func (w *spanWriter) spaces(n int) { w.buf = appendSpaces(w.buf, n) }

// rule is a run of box-drawing "─" to slice the spot line from.
var rule = strings.Repeat("─", 256)

// rule appends n cells of "─".
func (w *spanWriter) rule(n int) {
	const cw = len("─")
	for n > 0 {
		k := min(n, len(rule)/cw)
		w.buf = append(w.buf, rule[:k*cw]...)
		n -= k
	}
}
