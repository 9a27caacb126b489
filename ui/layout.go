package ui

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

// The smallest terminal the watch screen is drawn on. Below it the panes
// would be cut into something unreadable, so the app shows TooSmallMessage
// instead.
const (
	minFrameW = 80
	minFrameH = 24
)

// Fixed parts of the frame and the pane sizes the layout is built from.
const (
	headerH   = 2
	tabsH     = 1
	statusH   = 1
	wideFrom  = 120 // from this width the panes sit in a right-hand column
	detailsWH = 8   // details pane in the wide layout
	detailsNH = 2   // details lines under the ladder in the narrow layout
	calendarH = 9   // calendar pane in the wide layout (at most)
	calendarW = 34  // calendar beside the tape in the narrow layout
	stripMinH = 7   // bottom strip of the narrow layout (at least)
)

// Rect is a pane's place in the frame, in cells. A Rect with no width or
// no height is a pane that is not shown.
type Rect struct{ X, Y, W, H int }

// Empty reports whether the rect is not shown.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Layout is where every part of the watch screen goes for one terminal
// size. The model computes it once per resize (or when a pane is toggled)
// and hands each pane its rect; a zero Rect is a pane not shown.
type Layout struct {
	Header, Tabs, Ladder, Details, Tape, Calendar, Status Rect
	Wide                                                  bool
}

// NewLayout lays the frame out for width x height. Wide terminals (at
// least 120 columns) keep the ladder on the left at full height and stack
// details, tape and calendar in a right-hand column, because a trader
// reads the chain and the tape side by side. Narrow ones put the ladder on
// top and the tape and calendar in a strip below it, which keeps the
// ladder wide enough for its bid/ask columns on 80 columns.
//
// Panes abut without border lines except for the one-cell vertical gap
// between columns, which Compose draws as "│": on 24 lines every line is
// worth a row of data.
func NewLayout(width, height int, tapeVisible, calendarVisible bool) Layout {
	width, height = max(width, 0), max(height, 0)
	var l Layout
	l.Header = Rect{0, 0, width, min(headerH, height)}
	if height > headerH {
		l.Tabs = Rect{0, headerH, width, tabsH}
	}
	if height > headerH+tabsH {
		l.Status = Rect{0, height - statusH, width, statusH}
	}
	bodyY := headerH + tabsH
	bodyH := height - headerH - tabsH - statusH
	if bodyH <= 0 || width <= 0 {
		return l
	}
	l.Wide = width >= wideFrom
	if l.Wide {
		rw := min(max(width*38/100, 52), 72)
		lw := width - rw - 1
		x := lw + 1
		l.Ladder = Rect{0, bodyY, lw, bodyH}
		detH := min(detailsWH, bodyH)
		rest := bodyH - detH
		y := bodyY + detH
		switch {
		case tapeVisible && calendarVisible:
			// The calendar changes a few times a day; the tape every
			// second. On short terminals the calendar gives way so the
			// tape keeps at least half of what is left.
			calH := min(calendarH, rest/2)
			l.Tape = Rect{x, y, rw, rest - calH}
			l.Calendar = Rect{x, y + rest - calH, rw, calH}
		case tapeVisible:
			l.Tape = Rect{x, y, rw, rest}
		case calendarVisible:
			l.Calendar = Rect{x, y, rw, rest}
		default:
			// Nothing below the details: they take the column rather
			// than leaving it blank or making the ladder jump.
			detH = bodyH
		}
		l.Details = Rect{x, bodyY, rw, detH}
		return l
	}
	stripH := 0
	if tapeVisible || calendarVisible {
		stripH = max(stripMinH, bodyH*40/100)
	}
	detH := detailsNH
	// Below 80x24 the strip and details still get their share; whatever is
	// left (maybe nothing) is the ladder's.
	ladderH := max(bodyH-detH-stripH, 0)
	if ladderH == 0 {
		stripH = min(stripH, bodyH)
		detH = min(detH, bodyH-stripH)
	}
	l.Ladder = Rect{0, bodyY, width, ladderH}
	l.Details = Rect{0, bodyY + ladderH, width, detH}
	y := bodyY + ladderH + detH
	switch {
	case tapeVisible && calendarVisible && width > calendarW+1:
		l.Tape = Rect{0, y, width - calendarW - 1, stripH}
		l.Calendar = Rect{width - calendarW, y, calendarW, stripH}
	case tapeVisible:
		l.Tape = Rect{0, y, width, stripH}
	case calendarVisible:
		l.Calendar = Rect{0, y, width, stripH}
	}
	return l
}

// TooSmall reports whether the terminal is below the 80x24 the watch
// screen needs.
func TooSmall(width, height int) bool { return width < minFrameW || height < minFrameH }

// TooSmallMessage is the whole screen when the terminal is too small: a
// centred sentence saying what is needed and what there is, so the user
// knows to resize rather than wonder where the chain went. Not a hot path.
func TooSmallMessage(width, height int, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	msg := "chainwatch needs at least 80x24 (now " + strconv.Itoa(width) + "x" + strconv.Itoa(height) + ")"
	body := st.Warn.Width(min(width, len(msg))).Align(lipgloss.Center).Render(msg) + "\n" +
		st.Muted.Width(min(width, len(msg))).Align(lipgloss.Center).Render("enlarge the terminal window")
	placed := lipgloss.Place(width, height, lipgloss.Center, lipgloss.Center, body)
	return strings.Join(paneBlock(placed, width, height), "\n")
}

// Pane is one pane's lines at its place in the frame: exactly R.H lines of
// exactly R.W cells each.
type Pane struct {
	R     Rect
	Lines []string
}

// Compose draws panes into a width x height frame, joined with "\n". Cells
// no pane covers are blank, except a gap between two panes on a line, which
// is a "│", and a run of cells with panes directly above and below it,
// which is a "─" rule (ending in "┤" against a vertical border), all in the
// Border style. It trusts the panes' sizes (every
// renderer returns exact widths) and only concatenates strings: it runs
// every frame, and measuring each line again would cost more than drawing
// it. A pane with fewer lines than its height gets blanks; panes that
// overlap one already drawn on a line are skipped there.
func Compose(width, height int, panes []Pane, st *theme.Styles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	bs := borderSpans(st)
	// Panes in order of X, on the stack for any sane frame.
	var idxBuf [16]int
	idx := idxBuf[:0]
	size := height
	for i := range panes {
		if panes[i].R.Empty() {
			continue
		}
		idx = append(idx, i)
		for _, ln := range panes[i].Lines {
			size += len(ln)
		}
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && panes[idx[j]].R.X < panes[idx[j-1]].R.X; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	var b strings.Builder
	b.Grow(size + width*2)
	for y := 0; y < height; y++ {
		if y > 0 {
			b.WriteByte('\n')
		}
		x := 0
		left := false
		for _, i := range idx {
			r := panes[i].R
			if y < r.Y || y >= r.Y+r.H || r.X < x || r.X >= width {
				continue
			}
			if r.X > x {
				composeGap(&b, panes, idx, bs, x, r.X, y, left, true)
			}
			if ln := y - r.Y; ln < len(panes[i].Lines) {
				b.WriteString(panes[i].Lines[ln])
			} else {
				b.WriteString(paneBlank(min(r.W, width-r.X)))
			}
			x = r.X + r.W
			left = true
		}
		if x < width {
			composeGap(&b, panes, idx, bs, x, width, y, left, false)
		}
	}
	return b.String()
}

// composeGap fills the cells [from, to) of line y that no pane covers.
func composeGap(b *strings.Builder, panes []Pane, idx []int, bs *borderCache, from, to, y int, left, right bool) {
	n := to - from
	switch {
	case n == 1 && left && right:
		b.WriteString(bs.vert)
	case y > 0 && covers(panes, idx, from, y-1) && covers(panes, idx, from, y+1):
		// A rule between stacked panes; where it meets the vertical
		// border of the column beside it, a junction.
		end := ""
		if right && !covers(panes, idx, to-1, y-1) {
			end, n = "┤", n-1
		}
		b.WriteString(bs.span.Open)
		for range n {
			b.WriteString("─")
		}
		b.WriteString(end)
		b.WriteString(bs.span.Close)
	default:
		b.WriteString(paneBlank(n))
	}
}

// covers reports whether a pane covers the cell (x, y).
func covers(panes []Pane, idx []int, x, y int) bool {
	for _, i := range idx {
		r := panes[i].R
		if x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H {
			return true
		}
	}
	return false
}

// borderCache is the Border style rendered once per Styles: Compose runs
// every frame and lipgloss rendering is what the frame budget cannot
// afford.
type borderCache struct {
	st   *theme.Styles
	span theme.Span
	vert string
}

var lastBorder atomic.Pointer[borderCache]

func borderSpans(st *theme.Styles) *borderCache {
	if c := lastBorder.Load(); c != nil && c.st == st {
		return c
	}
	const mark = "\u2063"
	out := st.Border.Render(mark)
	c := &borderCache{st: st}
	if i := strings.Index(out, mark); i >= 0 {
		c.span = theme.Span{Open: out[:i], Close: out[i+len(mark):]}
	}
	c.vert = c.span.Wrap("│")
	lastBorder.Store(c)
	return c
}

// paneBlank is n blanks, without allocating for any width a terminal has.
func paneBlank(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// paneWidth is the width of s in cells: its length when it is plain ASCII
// (numbers, codes, most labels), else what ansi measures (wide runes,
// escape sequences).
func paneWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == 0x1b {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// paneClean makes free text from outside (an error body, a filter, a
// message) safe to draw: control characters, ESC among them, become
// blanks, so a server's reply cannot move the cursor or restyle the
// terminal, and a width measured is the width drawn.
func paneClean(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == 0xc2 { // 0xc2: maybe a C1 control
			return strings.Map(func(r rune) rune {
				if unicode.IsControl(r) {
					return ' '
				}
				return r
			}, s)
		}
	}
	return s
}

// paneCut cuts s to at most w cells.
func paneCut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if paneWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "")
}

// paneFit pads or cuts s (which may be styled) to exactly w cells.
func paneFit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := paneWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = ansi.StringWidth(s)
	}
	return s + paneBlank(w-n)
}

// paneBlock makes a rendered block exactly h lines of exactly w cells, for
// the overlays laid out with lipgloss.
func paneBlock(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = paneFit(lines[i], w)
		} else {
			out[i] = paneBlank(w)
		}
	}
	return out
}

// paneLine builds one line of exactly w cells from plain text written in
// pre-rendered spans: the header, status, details and calendar all draw
// this way, so no line measures styled text or calls lipgloss.
type paneLine struct {
	b    []byte
	w, n int
	fill theme.Span // for the blanks: a shaded bar stays shaded

	// Where the span written last opened and closed: text put next in
	// the same span joins it instead of closing and reopening. Offsets,
	// not the Span: ints cost no GC write barrier on every put.
	lastOpen, lastOpenEnd, lastEnd int
}

func newPaneLine(w int, fill theme.Span) paneLine {
	return paneLine{b: make([]byte, 0, w+128), w: max(w, 0), fill: fill}
}

// room is the cells left on the line.
func (l *paneLine) room() int { return l.w - l.n }

// put writes plain text s in sp, cut to the room left.
func (l *paneLine) put(sp theme.Span, s string) {
	if s == "" || l.n >= l.w {
		return
	}
	cw := paneWidth(s)
	if cw > l.room() {
		s = paneCut(s, l.room())
		cw = paneWidth(s)
	}
	l.open(sp)
	l.b = append(l.b, s...)
	l.close(sp)
	l.n += cw
}

// open starts text in sp, reopening the last span if sp is the same.
func (l *paneLine) open(sp theme.Span) {
	if l.lastEnd > 0 && len(l.b) == l.lastEnd &&
		string(l.b[l.lastOpen:l.lastOpenEnd]) == sp.Open &&
		string(l.b[len(l.b)-len(sp.Close):]) == sp.Close {
		l.b = l.b[:len(l.b)-len(sp.Close)]
		return
	}
	l.lastOpen = len(l.b)
	l.b = append(l.b, sp.Open...)
	l.lastOpenEnd = len(l.b)
}

func (l *paneLine) close(sp theme.Span) {
	l.b = append(l.b, sp.Close...)
	l.lastEnd = len(l.b)
}

// putASCII writes ASCII bytes in sp, cut to the room left; the byte count
// is the width, so nothing is measured.
func (l *paneLine) putASCII(sp theme.Span, s []byte) {
	if len(s) == 0 || l.n >= l.w {
		return
	}
	s = s[:min(len(s), l.room())]
	l.open(sp)
	l.b = append(l.b, s...)
	l.close(sp)
	l.n += len(s)
}

// raw writes already styled text of a known width (cut if it overflows).
func (l *paneLine) raw(s string, w int) {
	if s == "" || l.n >= l.w {
		return
	}
	if w > l.room() {
		s = ansi.Truncate(s, l.room(), "")
		w = ansi.StringWidth(s)
	}
	l.b = append(l.b, s...)
	l.n += w
}

// blank writes n blanks in the fill span.
func (l *paneLine) blank(n int) {
	n = min(n, l.room())
	if n <= 0 {
		return
	}
	l.open(l.fill)
	l.b = appendSpaces(l.b, n)
	l.close(l.fill)
	l.n += n
}

// line pads the rest and returns the line.
func (l *paneLine) line() string {
	l.blank(l.room())
	return string(l.b)
}

// panePart is a piece of a segment in one tone: text, or ASCII bytes
// formatted into a paneNums buffer (no string made for a number).
type panePart struct {
	tone theme.Tone
	text string
	raw  []byte
}

// paneNums formats the numbers of a line into one buffer and hands out
// slices of it, so a bar of twenty figures costs no allocation per
// figure. Each slice is capped: a later append never writes into it.
type paneNums struct{ b []byte }

func (n *paneNums) cut(start int) []byte { return n.b[start:len(n.b):len(n.b)] }

func (n *paneNums) price(v float64) []byte {
	s := len(n.b)
	n.b = appendPrice(n.b, v)
	return n.cut(s)
}

func (n *paneNums) signed(v float64, decimals int) []byte {
	s := len(n.b)
	n.b = appendSigned(n.b, v, decimals)
	return n.cut(s)
}

func (n *paneNums) size(v int64) []byte {
	s := len(n.b)
	n.b = appendSize(n.b, v)
	return n.cut(s)
}

func (n *paneNums) int(v int64) []byte {
	s := len(n.b)
	n.b = strconv.AppendInt(n.b, v, 10)
	return n.cut(s)
}

func (n *paneNums) dur(d time.Duration) []byte {
	s := len(n.b)
	n.b = appendDur(n.b, d)
	return n.cut(s)
}

// with formats through any appender.
func (n *paneNums) with(app func([]byte) []byte) []byte {
	s := len(n.b)
	n.b = app(n.b)
	return n.cut(s)
}

// paneSeg is an item of a bar (header, status): a few toned parts that
// are shown or dropped whole. The bar keeps the highest priorities that
// fit; a shrinkable segment (free text, like an error) is cut with "…"
// down to shrink cells before anything is dropped for it.
type paneSeg struct {
	parts  [8]panePart
	n      int
	w      int
	prio   int
	right  bool // right-aligned group
	shrink int  // > 0: may be cut down to this many cells
	yield  int  // segments below this priority go before it is cut
	drop   bool
	allow  int // cells granted when shrinkable
}

func (s *paneSeg) add(t theme.Tone, text string) *paneSeg {
	if s.n < len(s.parts) && text != "" {
		s.parts[s.n] = panePart{tone: t, text: text}
		s.n++
		s.w += paneWidth(text)
	}
	return s
}

// addB adds ASCII bytes (a formatted number).
func (s *paneSeg) addB(t theme.Tone, b []byte) *paneSeg {
	if s.n < len(s.parts) && len(b) > 0 {
		s.parts[s.n] = panePart{tone: t, raw: b}
		s.n++
		s.w += len(b)
	}
	return s
}

// fitSegs drops the lowest-priority segments until the kept ones, gap
// cells apart, fit in width; takes back any dropped one that fits again
// (a long low item may have gone first); then, rather than cut a
// shrinkable segment, drops kept ones below its yield priority; and
// grants shrinkable segments the room left.
func fitSegs(segs []paneSeg, width, gap int) {
	for {
		need, kept := segsNeed(segs, gap)
		if need <= width || kept == 0 {
			break
		}
		segs[lowestKept(segs, 1<<30)].drop = true
	}
	for {
		best := -1
		for i := range segs {
			if segs[i].drop && (best < 0 || segs[i].prio > segs[best].prio) {
				segs[i].drop = false
				if need, _ := segsNeed(segs, gap); need <= width {
					best = i
				}
				segs[i].drop = true
			}
		}
		if best < 0 {
			break
		}
		segs[best].drop = false
	}
	for i := range segs {
		s := &segs[i]
		if s.drop || s.shrink <= 0 || s.yield <= 0 {
			continue
		}
		for {
			need, _ := segsNeed(segs, gap)
			if need-min(s.w, s.shrink)+s.w <= width {
				break
			}
			low := lowestKept(segs, s.yield)
			if low < 0 {
				break
			}
			segs[low].drop = true
		}
	}
	need, _ := segsNeed(segs, gap)
	spare := max(width-need, 0)
	for i := range segs {
		s := &segs[i]
		if s.drop || s.shrink <= 0 {
			s.allow = s.w
			continue
		}
		base := min(s.w, s.shrink)
		s.allow = min(s.w, base+spare)
		spare -= s.allow - base
	}
}

// lowestKept is the kept segment of the lowest priority below limit, or -1.
func lowestKept(segs []paneSeg, limit int) int {
	low := -1
	for i := range segs {
		if !segs[i].drop && segs[i].prio < limit && (low < 0 || segs[i].prio < segs[low].prio) {
			low = i
		}
	}
	return low
}

// segsNeed is the width the kept segments need at least, and how many
// there are.
func segsNeed(segs []paneSeg, gap int) (need, kept int) {
	for i := range segs {
		if segs[i].drop {
			continue
		}
		w := segs[i].w
		if segs[i].shrink > 0 {
			w = min(w, segs[i].shrink)
		}
		if kept > 0 {
			need += gap
		}
		need += w
		kept++
	}
	return need, kept
}

// putSegs writes the kept segments: the left group from the start, the
// right group against the end, gap blanks between neighbours.
func putSegs(l *paneLine, segs []paneSeg, gap int, st *theme.Styles, shade theme.Shade) {
	rightW, nRight := 0, 0
	for i := range segs {
		if !segs[i].drop && segs[i].right {
			if nRight > 0 {
				rightW += gap
			}
			rightW += segs[i].allow
			nRight++
		}
	}
	first := true
	for i := range segs {
		if s := &segs[i]; !s.drop && !s.right {
			if !first {
				l.blank(gap)
			}
			first = false
			putSeg(l, s, st, shade)
		}
	}
	l.blank(l.room() - rightW)
	first = true
	for i := range segs {
		if s := &segs[i]; !s.drop && s.right {
			if !first {
				l.blank(gap)
			}
			first = false
			putSeg(l, s, st, shade)
		}
	}
}

// putSeg writes one segment in at most its allowed cells, ending with "…"
// when it had to be cut.
func putSeg(l *paneLine, s *paneSeg, st *theme.Styles, shade theme.Shade) {
	left := s.allow
	cut := s.allow < s.w
	if cut {
		left-- // for the ellipsis
	}
	last := s.parts[0].tone
	for i := 0; i < s.n && left > 0; i++ {
		p := &s.parts[i]
		last = p.tone
		if p.raw != nil {
			r := p.raw[:min(len(p.raw), left)]
			l.putASCII(st.Span(p.tone, shade), r)
			left -= len(r)
			continue
		}
		t := p.text
		if w := paneWidth(t); w > left {
			t = paneCut(t, left)
		}
		l.put(st.Span(p.tone, shade), t)
		left -= paneWidth(t)
	}
	if cut && s.allow > 0 {
		l.put(st.Span(last, shade), "…")
	}
}

// appendDur appends a short age: "42s", "3m05s", "2h07m", "3d04h".
// Rounded down to the second: "ago" never runs ahead of the clock.
func appendDur(dst []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	two := func(dst []byte, v int64) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }
	switch {
	case s < 60:
		dst = strconv.AppendInt(dst, s, 10)
		return append(dst, 's')
	case s < 3600:
		dst = strconv.AppendInt(dst, s/60, 10)
		dst = append(dst, 'm')
		dst = two(dst, s%60)
		return append(dst, 's')
	case s < 86400:
		dst = strconv.AppendInt(dst, s/3600, 10)
		dst = append(dst, 'h')
		dst = two(dst, s%3600/60)
		return append(dst, 'm')
	default:
		dst = strconv.AppendInt(dst, s/86400, 10)
		dst = append(dst, 'd')
		dst = two(dst, s%86400/3600)
		return append(dst, 'h')
	}
}
