package ui

import (
	"math"
	"strconv"

	"chainwatch/theme"
)

// A chart is drawn by ntcharts' line chart (axes, tick labels, scaling,
// braille lines) on its canvas, and then written out through the theme's
// spans rather than the canvas's own View: that renders every cell with
// a lipgloss style of its own, where a run of cells in one tone should
// cost one escape sequence, and the screen's colours (and NO_COLOR, and
// the colour-blind palette) live in theme/ only. Series are told apart by
// glyph first, colour second. The vol page's smile and term structure and
// the contract page's intraday chart are all drawn here.

// chartMark is a glyph at a data point.
type chartMark struct {
	X, Y  float64
	Glyph rune
	Tone  theme.Tone
	Right bool // Y is on the right-hand axis
}

// chartVLine is a vertical line across the plot at X (spot).
type chartVLine struct {
	X     float64
	Glyph rune
	Tone  theme.Tone
}

// chartAxis is a right-hand axis: a second series on a scale of its own
// (the contract's IV beside its price), labelled beside the plot on the
// left-hand labels' lines.
type chartAxis struct {
	Min, Max float64
	// Ticks chooses the labels: the values (at most n) between lo and hi
	// and their text, as chart.YTicks.
	Ticks func(lo, hi float64, n int) []chartTick
	Width int // cells, the labels right-aligned in them
	Tone  theme.Tone
}

// chart is one chart's data and its frame.
type chart struct {
	W, H                   int
	MinX, MaxX, MinY, MaxY float64
	XLabel, YLabel         func(v float64) string
	XStep, YStep           int          // cells between tick labels
	Line                   [][2]float64 // a braille polyline through these points; a NaN point breaks it
	LineTone               theme.Tone   // its tone
	VLines                 []chartVLine // drawn under the marks
	Marks                  []chartMark  // drawn last, in order, on top
	Column                 float64      // x whose column is shaded as the cursor; NaN none
	Right                  *chartAxis   // a right-hand axis, Right.Width cells of W; nil none
	Legend                 []paneSeg    // a line beneath the plot, the last of H; nil none
	// XTicks and YTicks, when set, choose the axis labels: the values
	// (at most n) to label between lo and hi, each then drawn where a mark
	// of that value is drawn; nil: a label every XStep / YStep cells.
	XTicks, YTicks func(lo, hi float64, n int) []chartTick
	overlap        func(a, b rune) rune // the glyph of two marks on one cell; nil: the later wins
}

// chartTick is an axis label and the value it stands at.
type chartTick struct {
	V     float64
	Label string
}

// niceTicks are the round values between lo and hi, at most n of them
// (at least one), labelled in the axis's units times scale: steps of 1, 2
// or 5 times a power of ten, each label with the decimals its step needs,
// so no two labels read the same and they rise with the values.
func niceTicks(lo, hi, scale float64, n int) []chartTick {
	lo, hi = lo*scale, hi*scale
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	n = max(n, 1)
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range [...]float64{1, 2, 5} {
		if m*mag >= raw*(1-1e-9) {
			step = m * mag
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	first := math.Ceil(lo/step - 1e-9)
	if first+1 == first {
		// Values so large that one step is below a float's precision
		// (a wild quote): i++ would never move, and the loop never end.
		return nil
	}
	var out []chartTick
	// A step of at least (hi-lo)/n fits n+1 ticks at most; the count
	// bounds the loop whatever rounding does.
	for k := 0; k <= n+1; k++ {
		i := first + float64(k)
		if i*step > hi+step*1e-9 || math.IsInf(i*step, 0) {
			break // past hi (whose slack can round to Inf at the top of the floats)
		}
		v := i * step
		if v == 0 {
			v = 0 // not -0
		}
		out = append(out, chartTick{V: v / scale, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return out
}

// The smallest chart drawn: the axis labels and a few cells of plot.
const (
	minChartCells = 12
	minChartLines = 4
)

// noTone marks a cell whose tone comes from its rune.
const noTone = theme.NumTones

// chartExtent is the extent of a series' values, NaN and infinities
// left out.
type chartExtent struct{ lo, hi float64 }

func newChartExtent() chartExtent { return chartExtent{math.Inf(1), math.Inf(-1)} }

func (e *chartExtent) see(v float64) {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		e.lo, e.hi = math.Min(e.lo, v), math.Max(e.hi, v)
	}
}

// padded is the extent with a tenth of it (at least least) either side,
// kept off negatives: prices and IVs. ok false without a value.
func (e chartExtent) padded(least float64) (lo, hi float64, ok bool) {
	if e.lo > e.hi {
		return 0, 0, false
	}
	pad := math.Max((e.hi-e.lo)/10, least)
	return math.Max(e.lo-pad, 0), e.hi + pad, true
}

// niceRange pads [lo, hi] by a tenth either side (a point on the edge
// of a plot reads as cut off), and gives a single value some room.
func niceRange(lo, hi float64) (float64, float64) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 1
	}
	pad := (hi - lo) / 10
	if pad <= 0 {
		pad = math.Max(math.Abs(lo)/20, 0.5)
	}
	return lo - pad, hi + pad
}
