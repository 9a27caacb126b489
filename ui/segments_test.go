package ui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

// drawRow fits and draws a row's segments in width cells, plain.
func drawRow(r *segRow, width int) string {
	fitSegs(r.list(), width, 1)
	l := newPaneLine(width, theme.Span{})
	putSegs(&l, r.list(), 1, pxNoColor, theme.ShadeNone)
	return ansi.Strip(l.line())
}

// TestSegRowGrowsPastItsArray: a bar with more segments than its array
// draws them all when they fit, and when they do not it drops by
// priority alone, whether a segment lives in the array or past it.
func TestSegRowGrowsPastItsArray(t *testing.T) {
	n := rowSegs + 4
	build := func() *segRow {
		var r segRow
		for i := range n {
			// Priorities fall along the row except the last, which
			// outranks all: a segment past the array can be the one kept.
			prio := 100 - i
			if i == n-1 {
				prio = 1000
			}
			r.seg(prio, false).add(theme.ToneText, "s"+strconv.Itoa(i))
		}
		return &r
	}
	var words []string
	for i := range n {
		words = append(words, "s"+strconv.Itoa(i))
	}
	all := strings.Join(words, " ")
	if got := drawRow(build(), len(all)); got != all {
		t.Fatalf("wide: %q, want %q", got, all)
	}
	// Room for three: the top priority (the last) and the first two.
	got := drawRow(build(), 2+1+2+1+3)
	if want := "s0 s1 s" + strconv.Itoa(n-1); got != want {
		t.Errorf("narrow: %q, want %q", got, want)
	}
	for _, w := range []int{0, 1, 5, len(all) - 1, len(all) + 10} {
		if got := drawRow(build(), w); ansi.StringWidth(got) != w {
			t.Errorf("width %d: %d cells %q", w, ansi.StringWidth(got), got)
		}
	}
}

// TestPaneSegGrowsPastItsParts: a segment with more parts than its array
// keeps every one, in order, and a cut segment is cut past the array too.
func TestPaneSegGrowsPastItsParts(t *testing.T) {
	var r segRow
	s := r.seg(50, false)
	var want strings.Builder
	var nums paneNums
	for i := range segParts + 5 {
		if i%2 == 0 {
			s.add(theme.ToneText, "p"+strconv.Itoa(i))
			want.WriteString("p" + strconv.Itoa(i))
		} else {
			s.addB(theme.ToneText, nums.int(int64(i)))
			want.WriteString(strconv.Itoa(i))
		}
	}
	if s.n != segParts+5 || s.w != want.Len() {
		t.Fatalf("%d parts %d cells, want %d and %d", s.n, s.w, segParts+5, want.Len())
	}
	if got := drawRow(&r, want.Len()); got != want.String() {
		t.Errorf("drawn %q, want %q", got, want.String())
	}
	s.shrink, s.yield = 4, 1
	if got := drawRow(&r, want.Len()-3); got != want.String()[:want.Len()-4]+"…" {
		t.Errorf("cut: %q", got)
	}
}

// TestBarsWithinTheirArraysAllocateNothing: a full row of full segments
// (the common case, the header's eleven included) is built, fitted and
// listed without an allocation; the arrays only ever grow past that.
func TestBarsWithinTheirArraysAllocateNothing(t *testing.T) {
	var words [segParts]string
	for i := range words {
		words[i] = "w" + strconv.Itoa(i)
	}
	allocs := testing.AllocsPerRun(50, func() {
		var r segRow
		for i := range rowSegs {
			s := r.seg(i, i%2 == 0)
			for _, w := range words {
				s.add(theme.ToneText, w)
			}
		}
		fitSegs(r.list(), 80, 2)
	})
	if allocs != 0 {
		t.Errorf("%v allocations for a row within its arrays", allocs)
	}
}
