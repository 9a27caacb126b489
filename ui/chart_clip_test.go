package ui

import (
	"math"
	"strings"
	"testing"
)

// TestChartLineFarOffThePlot: a point no quote can have (1e300, -1e300,
// Inf) on the line does not make the chart allocate a line of that many
// dots (it panicked: makeslice: len out of range); the part of each
// segment inside the plot is drawn, the rest is not.
func TestChartLineFarOffThePlot(t *testing.T) {
	for _, far := range []float64{1e300, -1e300, math.Inf(1), math.Inf(-1), 1e18} {
		c := chart{W: 40, H: 12, MinX: 0, MaxX: 10, MinY: 0, MaxY: 10, XStep: 10, YStep: 4,
			XLabel: fmtStrike, YLabel: fmtStrike,
			Line: [][2]float64{{0, 5}, {5, far}, {10, 5}, {far, far}, {far, 5}, {2, 2}}}
		cells := plotCells(c)
		if len(cells) != 12 {
			t.Fatalf("%g: %d lines", far, len(cells))
		}
		dots := 0
		for _, row := range cells {
			if len([]rune(string(row))) != 40 {
				t.Fatalf("%g: a line of %d cells", far, len(row))
			}
			for _, r := range row {
				if r > 0x2800 && r <= 0x28ff {
					dots++
				}
			}
		}
		if dots == 0 {
			t.Errorf("%g: the segments inside the plot are not drawn:\n%s", far, joinRunes(cells))
		}
	}
}

func joinRunes(cells [][]rune) string {
	var b strings.Builder
	for _, r := range cells {
		b.WriteString(string(r) + "\n")
	}
	return b.String()
}

// TestChartWithoutRoomForItsPlot: labels of a wild quote (hundreds of
// digits) or a range no float spans leave a blank chart of the pane's
// size, not a plot of negative width (it panicked in ntcharts'
// NewBrailleGrid: makeslice: len out of range).
func TestChartWithoutRoomForItsPlot(t *testing.T) {
	for _, r := range [][2]float64{{0, 1e300}, {-1e300, 1e300}, {-math.MaxFloat64, math.MaxFloat64}, {0, math.Inf(1)}} {
		c := chart{W: 60, H: 10, MinX: 0, MaxX: 10, MinY: r[0], MaxY: r[1], XStep: 10, YStep: 4,
			XLabel: fmtStrike, YLabel: fmtPrice, Line: [][2]float64{{0, r[0]}, {10, r[1]}}}
		lines := c.draw(noColorStyles)
		pxCheck(t, "chart", lines, 60, 10)
	}
}

// TestNiceTicksOfWildRanges: ticks between values so large that a step
// is below a float's precision end (the loop never did, and filled the
// memory), and never number more than n+1.
func TestNiceTicksOfWildRanges(t *testing.T) {
	for _, r := range [][2]float64{{1e300, 1e300 * (1 + 1e-15)}, {1e17, 1e17 + 64}, {-1e300, 1e300}, {0, 1e-300}, {1e300, math.MaxFloat64}} {
		for _, n := range []int{1, 5, 40} {
			ticks := niceTicks(r[0], r[1], 1, n)
			if len(ticks) > n+1 {
				t.Errorf("%g..%g n %d: %d ticks", r[0], r[1], n, len(ticks))
			}
			for _, tk := range ticks {
				if tk.V < r[0]-math.Abs(r[0])*1e-9 || tk.V > r[1]+math.Abs(r[1])*1e-9 {
					t.Errorf("%g..%g: tick %g outside", r[0], r[1], tk.V)
				}
			}
		}
	}
}
