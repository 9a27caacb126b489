package ui

import (
	"chainwatch/pricing"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/strategy"
	"chainwatch/theme"
)

// condorData is an iron condor at fixed quotes, as the strategy page
// makes it ready: figures, and the curves over 200 prices.
func condorData(tb testing.TB) *StrategyData {
	tb.Helper()
	st, err := strategy.Parse("SPY 2026-12-18 +P660 -P680 -C720 +C740")
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)
	m := strategy.Market{Spot: 700, Now: now}
	for i, mid := range []float64{2.1, 4.3, 3.9, 1.7} {
		m.Quotes = append(m.Quotes, strategy.Quote{Bid: mid - 0.05, Ask: mid + 0.05, Mid: mid, PrevClose: math.NaN(), IV: 0.16 + 0.01*float64(i%2),
			Greeks: pricing.Greeks{Delta: 0.1 * float64(i+1), Gamma: 0.01, Theta: -0.2, Vega: 0.5}, HasGreeks: true})
	}
	f := st.Analyze(&m)
	d := &StrategyData{Title: "Strategy · SPY · " + st.Name(), Fig: f, Spot: m.Spot, DateLabel: "Dec04"}
	for i := range st.Legs {
		d.Legs = append(d.Legs, StrategyLeg{Text: st.Legs[i].String(), Quote: m.Quotes[i], Selected: i == 1})
		d.Strikes = append(d.Strikes, st.Legs[i].Strike)
	}
	lo, hi := strategy.Range(m.Spot, f.Move, &st)
	for i := range 200 {
		d.Xs = append(d.Xs, lo+(hi-lo)*float64(i)/199)
	}
	p := st.Pricer(&m, 0)
	d.Expiry = p.Curve(d.Xs, f.At, nil)
	d.Today = p.Curve(d.Xs, now, nil)
	d.AtDate = p.Curve(d.Xs, now.Add(10*24*time.Hour), nil)
	return d
}

// TestGoldenStrategyPage snapshots the page at the sizes a trader uses:
// every line exactly the width, the figures, the graph's legend and axes.
func TestGoldenStrategyPage(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	for _, sz := range [][2]int{{160, 48}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			lines := StrategyPage(condorData(t), sz[0], sz[1], st)
			if len(lines) != sz[1] {
				t.Fatalf("%d lines", len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("line %d is %d cells: %q", i, w, ansi.Strip(l))
				}
			}
			plain := ansi.Strip(strings.Join(lines, "\n"))
			golden.RequireEqual(t, []byte(plain))
			for _, want := range []string{"iron condor", "credit at mid", "Max profit", "Max loss", "Breakevens", "PoP", "┊", "╎"} {
				if !strings.Contains(plain, want) {
					t.Errorf("no %q in\n%s", want, plain)
				}
			}
		})
	}
}

// BenchmarkRiskGraph is the strategy page drawn for a 4-leg strategy:
// the curves over 200 prices at 3 dates computed (package strategy) and
// the risk graph drawn by ntcharts.
func BenchmarkRiskGraph(b *testing.B) {
	st := theme.New(theme.Dark(), false)
	d := condorData(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = condorData(b)
		_ = StrategyPage(d, 160, 48, st)
	}
}

func TestPositionsPageFits(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	d := &PositionsData{Summary: PositionsSummary(1, 1, 12, 34, -5)}
	d.Rows = []PositionRow{{ID: 1, Name: "vertical", Legs: "SPY +1 C700 Dec18, -1 C710 Dec18", Opened: "2026-11-24 10:00", Status: "open",
		Value: "+$512", Today: "+$12", SinceOp: "+$34", Open: true, Selected: true},
		{ID: 2, Name: "straddle", Legs: "SPY +1 C700 Dec18, +1 P700 Dec18", Status: "rolled to 3", SinceOp: "-$5"}}
	for _, w := range []int{80, 160} {
		lines := PositionsPage(d, w, 10, st)
		plain := ansi.Strip(strings.Join(lines, "\n"))
		for i, l := range lines {
			if ansi.StringWidth(l) != w {
				t.Fatalf("%d: line %d: %q", w, i, ansi.Strip(l))
			}
		}
		for _, want := range []string{"1 open", "today +$12", "realized -$5", "Since open", "+$34", "rolled to 3"} {
			if !strings.Contains(plain, want) {
				t.Errorf("%d: no %q in\n%s", w, want, plain)
			}
		}
	}
}

// TestStrategyPageCutsNoFigure: at every width from 60 columns the
// page's text lines (title to the graph's legend) hold whole words and
// figures, a line cut ending in "…": not the legs' "Vega" as "V" and
// "0.", nor "drift r-q 4", nor "breakeve" (the 80-column page).
func TestStrategyPageCutsNoFigure(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	d := condorData(t)
	whole := map[string]bool{}
	for _, l := range StrategyPage(d, 400, 60, st)[:10] {
		for _, w := range strings.Fields(ansi.Strip(l)) {
			whole[w] = true
		}
	}
	for w := 60; w <= 200; w++ {
		lines := StrategyPage(d, w, 30, st)
		for i, l := range lines[:10] {
			for _, word := range strings.Fields(ansi.Strip(l)) {
				if !whole[word] && !strings.HasSuffix(word, "…") {
					t.Errorf("%d columns, line %d: %q cut in %q", w, i, word, ansi.Strip(l))
				}
			}
		}
	}
}
