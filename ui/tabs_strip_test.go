package ui

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// stripTabs is fixtureTabs with figures: the IV rising 0.5 points a tab,
// the move growing with the square root of time; every fifth expiry has
// no two-sided ATM market (NaN: a dash).
func stripTabs() []ExpiryTab {
	tabs := fixtureTabs()
	for i := range tabs {
		if i%5 == 4 {
			tabs[i].ATMIV, tabs[i].Move, tabs[i].MovePct = math.NaN(), math.NaN(), math.NaN()
			continue
		}
		tabs[i].ATMIV = 0.15 + 0.005*float64(i)
		tabs[i].Move = 4.31 * math.Sqrt(float64(tabs[i].DTE+1))
		tabs[i].MovePct = tabs[i].Move / 600
	}
	return tabs
}

// TestExpiryStripUnderItsTabs: each tab's figures sit under it, starting
// where its text starts, at every width and selection; a figure the chain
// cannot tell is a dash, and the share of spot comes from 120 columns.
func TestExpiryStripUnderItsTabs(t *testing.T) {
	tabs := stripTabs()
	for _, w := range []int{1, 12, 40, 80, 119, 120, 160, 400} {
		for _, sel := range []int{0, 4, 17, 31} {
			bar := []rune(ansi.Strip(ExpiryTabs(tabs, sel, w, darkStyles)))
			strip := ExpiryStrip(tabs, sel, w, darkStyles)
			if got := ansi.StringWidth(strip); got != w {
				t.Fatalf("width %d sel %d: strip is %d cells", w, sel, got)
			}
			plain := []rune(ansi.Strip(strip))
			for x := 0; x < w; x++ {
				i, ok := ExpiryHit(tabs, sel, w, x)
				if !ok || (x > 0 && func() bool { j, ok := ExpiryHit(tabs, sel, w, x-1); return ok && j == i }()) {
					continue
				}
				// x is the first cell of tab i: the bracket or blank.
				cw := tabWidth(&tabs[i], w >= stripLongFrom)
				if x+cw > w-1 {
					continue // cut at the edge
				}
				want := " " + string(appendStripCell(nil, &tabs[i], w >= stripLongFrom)) + " "
				if got := string(plain[x : x+len([]rune(want))]); got != want {
					t.Errorf("w %d sel %d: under tab %d %q: %q, want %q", w, sel, i, string(bar[x:x+cw]), got, want)
				}
			}
		}
	}
	plain := ansi.Strip(ExpiryStrip(tabs, 0, 100, darkStyles))
	for _, want := range []string{" 15.0% ±4.31 ", " 15.5% ±6.10 ", "     -     - "} {
		if !strings.Contains(plain, want) {
			t.Errorf("strip lacks %q: %q", want, plain)
		}
	}
	if strings.Contains(plain, "0.72%") {
		t.Errorf("the share of spot needs 120 columns: %q", plain)
	}
	plain = ansi.Strip(ExpiryStrip(tabs, 0, 140, darkStyles))
	for _, want := range []string{" 15.0% ±4.31 0.72% ", " 15.5% ±6.10  1.0% "} {
		if !strings.Contains(plain, want) {
			t.Errorf("wide strip lacks %q: %q", want, plain)
		}
	}
	if got := ExpiryStrip(nil, 0, 30, darkStyles); ansi.StringWidth(got) != 30 {
		t.Errorf("no tabs: %q", got)
	}
}

// TestStripFigures formats the strip's numbers in their fixed cells.
func TestStripFigures(t *testing.T) {
	for _, c := range []struct {
		iv, move, pct float64
		long          bool
		want          string
	}{
		{0.2012, 4.314, 0.0072, false, "20.1% ±4.31"},
		{0.2012, 4.314, 0.0072, true, "20.1% ±4.31 0.72%"},
		{1.205, 25.34, 0.153, true, " 121% ±25.3 15.3%"},
		{0.18, 250.4, 0.042, true, "18.0%  ±250  4.2%"},
		{0.18, 1250.4, 0.21, false, "18.0% ±1250"},
		{math.NaN(), math.NaN(), math.NaN(), true, "    -     -     -"},
		{0, 0, 0, false, "    -     -"},
		{0.3, 9.996, 0.00996, true, "30.0% ±10.0  1.0%"},
	} {
		tab := ExpiryTab{ATMIV: c.iv, Move: c.move, MovePct: c.pct}
		if got := string(appendStripCell(nil, &tab, c.long)); got != c.want || ansi.StringWidth(got) != stripCellW(c.long) {
			t.Errorf("%v %v %v: %q, want %q", c.iv, c.move, c.pct, got, c.want)
		}
	}
}
