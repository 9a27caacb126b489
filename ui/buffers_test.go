package ui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The drawing buffers kept on the stack for the usual frame grow past
// their arrays rather than drop or index past them: the ladder's line
// ends (96), the tape's row ends (64), Compose's pane order (16). Each is
// drawn here past its array.

func TestLadderTallerThanItsLineArray(t *testing.T) {
	v := benchView(400, ColumnSets[0])
	for _, h := range []int{95, 96, 97, 250} {
		v.Offset = 0
		checkFrame(t, Ladder(v, 120, h, darkStyles), 120, h)
	}
}

func TestTapeTallerThanItsRowArray(t *testing.T) {
	v := pxTrades()
	base := v.Trades
	for len(v.Trades) < 300 {
		v.Trades = append(v.Trades, base...)
	}
	for _, h := range []int{63, 64, 65, 66, 200} {
		pxCheck(t, "tape "+strconv.Itoa(h), Tape(v, 90, h, pxColor), 90, h)
	}
}

func TestComposeMorePanesThanItsArray(t *testing.T) {
	// Twenty panes side by side, two cells each: every one is drawn, in
	// order of X, whatever order they are given in.
	var panes []Pane
	for i := 19; i >= 0; i-- {
		panes = append(panes, Pane{R: Rect{X: i * 3, W: 2, H: 2}, Lines: []string{strconv.Itoa(i%10) + "x", "--"}})
	}
	out := ansi.Strip(Compose(60, 2, panes, pxNoColor))
	first := []rune(strings.Split(out, "\n")[0])
	for i := range 20 {
		if got := string(first[i*3 : i*3+2]); got != strconv.Itoa(i%10)+"x" {
			t.Fatalf("pane %d reads %q: %q", i, got, first)
		}
	}
}

// TestRunsPastTheirPrecomputedLength: the positioning bars and rules are
// sliced from a run of 256 glyphs; a wider one is made, not cut short
// (a bar of n cells that drew fewer left its row short).
func TestRunsPastTheirPrecomputedLength(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 255, 256, 257, 1000} {
		want := max(n, 0)
		if got := ansi.StringWidth(blocks(n)); got != want {
			t.Errorf("blocks(%d) is %d cells", n, got)
		}
		if got := ansi.StringWidth(ruleCells(n)); got != want {
			t.Errorf("ruleCells(%d) is %d cells", n, got)
		}
	}
}
