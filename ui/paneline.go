package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

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

// blankPane is a pane's height lines, each width blanks, for a drawing to
// fill in; empty lines when width is not positive, none when height is not.
func blankPane(width, height int) []string {
	out := make([]string, max(height, 0))
	blank := paneBlank(width)
	for i := range out {
		out[i] = blank
	}
	return out
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

// centeredMessage is a line of width cells with msg in the middle, muted:
// what a pane says in place of its data (an error, the want of any), so
// every pane says it alike.
func centeredMessage(msg string, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	l.blank((width - paneWidth(msg)) / 2)
	l.put(st.Span(theme.ToneMuted, theme.ShadeNone), msg)
	return l.line()
}

// paneBlock makes a rendered block exactly h lines of exactly w cells, for
// the overlays laid out with lipgloss.
func paneBlock(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
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

// putCells writes s in sp where its width is known to be cells (a run of
// one block or rule rune, which measuring would cost more than writing);
// it must fit the room left.
func (l *paneLine) putCells(sp theme.Span, s string, cells int) {
	if s == "" || cells <= 0 || cells > l.room() {
		return
	}
	l.open(sp)
	l.b = append(l.b, s...)
	l.close(sp)
	l.n += cells
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

// reset starts a new line of w cells on l's buffer: lines drawn one after
// another share one allocation.
func (l *paneLine) reset(w int, fill theme.Span) {
	*l = paneLine{b: l.b[:0], w: max(w, 0), fill: fill}
}

// bytes pads the rest and returns the line's bytes, l's own until the
// next reset: for a caller that joins it to more before making a string.
func (l *paneLine) bytes() []byte {
	l.blank(l.room())
	return l.b
}
