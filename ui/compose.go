package ui

import (
	"strings"

	"chainwatch/theme"
)

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
	bs := st.BorderSpan
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
	// The panes' bytes, blanks, and a border between panes on each line
	// with its style (the 32 a line reserved below): one allocation a frame.
	b.Grow(size + width*2 + height*32)
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
func composeGap(b *strings.Builder, panes []Pane, idx []int, bs theme.Span, from, to, y int, left, right bool) {
	n := to - from
	switch {
	case n == 1 && left && right:
		bs.Append(b, "│")
	case y > 0 && covers(panes, idx, from, y-1) && covers(panes, idx, from, y+1):
		// A rule between stacked panes; where it meets the vertical
		// border of the column beside it, a junction.
		end := ""
		if right && !covers(panes, idx, to-1, y-1) {
			end, n = "┤", n-1
		}
		b.WriteString(bs.Open)
		for range n {
			b.WriteString("─")
		}
		b.WriteString(end)
		b.WriteString(bs.Close)
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
