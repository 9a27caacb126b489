package ui

import (
	"math"
	"unicode/utf8"

	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"

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
	Label    func(v float64) string
	Width    int // cells, the labels right-aligned in them
	Tone     theme.Tone
}

// chart is one chart's data and its frame.
type chart struct {
	W, H                   int
	MinX, MaxX, MinY, MaxY float64
	XLabel, YLabel         func(v float64) string
	XStep, YStep           int                  // cells between tick labels
	Line                   [][2]float64         // a braille polyline through these points; a NaN point breaks it
	LineTone               theme.Tone           // its tone
	VLines                 []chartVLine         // drawn under the marks
	Marks                  []chartMark          // drawn last, in order, on top
	Column                 float64              // x whose column is shaded as the cursor; NaN none
	Right                  *chartAxis           // a right-hand axis, Right.Width cells of W; nil none
	Legend                 []paneSeg            // a line beneath the plot, the last of H; nil none
	overlap                func(a, b rune) rune // the glyph of two marks on one cell; nil: the later wins
}

// The smallest chart drawn: the axis labels and a few cells of plot.
const (
	minChartCells = 12
	minChartLines = 4
)

// noTone marks a cell whose tone comes from its rune.
const noTone = theme.NumTones

// draw renders the chart in exactly W x H cells: the plot, the right-hand
// axis beside it and the legend beneath it.
func (c *chart) draw(st *theme.Styles) []string {
	out := make([]string, max(c.H, 0))
	pw, ph := c.W, c.H
	if c.Right != nil {
		pw -= c.Right.Width
	}
	if c.Legend != nil {
		ph--
	}
	if pw < minChartCells || ph < minChartLines {
		// No room for axes and a plot: blank, not a broken drawing.
		for i := range out {
			out[i] = paneBlank(c.W)
		}
		return out
	}
	if !(c.MaxX > c.MinX) {
		c.MinX, c.MaxX = c.MinX-1, c.MinX+1
	}
	if !(c.MaxY > c.MinY) {
		c.MinY, c.MaxY = c.MinY-1, c.MinY+1
	}
	lc := linechart.New(pw, ph, c.MinX, c.MaxX, c.MinY, c.MaxY,
		linechart.WithXYSteps(c.XStep, c.YStep),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return c.XLabel(v) }),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return c.YLabel(v) }))
	lc.DrawXYAxisAndLabel()
	c.drawLine(&lc)
	tones := make([]theme.Tone, pw*ph)
	for i := range tones {
		tones[i] = noTone
	}
	set := func(p canvas.Point, r rune, t theme.Tone) {
		if p.X < 0 || p.Y < 0 || p.X >= pw || p.Y >= ph {
			return
		}
		lc.Canvas.SetCell(p, canvas.NewCell(r))
		tones[p.Y*pw+p.X] = t
	}
	top, bottom := c.plotRows(&lc)
	for _, v := range c.VLines {
		if v.X < c.MinX || v.X > c.MaxX {
			continue
		}
		x := plotPoint(&lc, v.X, c.MinY).X
		for y := top; y <= bottom; y++ {
			if r := lc.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune; r == 0 || runes.IsBraillePattern(r) {
				set(canvas.Point{X: x, Y: y}, v.Glyph, v.Tone)
			}
		}
	}
	placed := make(map[canvas.Point]rune, len(c.Marks))
	for _, m := range c.Marks {
		y := m.Y
		if m.Right {
			y = c.onLeft(y)
		}
		if math.IsNaN(m.X) || math.IsNaN(y) {
			continue
		}
		p := plotPoint(&lc, m.X, y)
		g := m.Glyph
		if prev, ok := placed[p]; ok && c.overlap != nil && prev != g {
			g = c.overlap(prev, g)
		}
		placed[p] = g
		set(p, g, m.Tone)
	}
	col := -1
	if !math.IsNaN(c.Column) && c.Column >= c.MinX && c.Column <= c.MaxX {
		col = plotPoint(&lc, c.Column, c.MinY).X
	}
	w := spanWriter{buf: make([]byte, 0, c.W*4+32), st: st, cur: -1}
	for y := range ph {
		w.buf = w.buf[:0]
		for x := range pw {
			r := lc.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune
			tone := tones[y*pw+x]
			if tone == noTone {
				tone = theme.ToneMuted // axes and tick labels
				if runes.IsBraillePattern(r) {
					tone = c.LineTone
				}
			}
			shade := theme.ShadeNone
			if x == col && y >= top && y <= bottom {
				shade = theme.ShadeCursor
			}
			if r == 0 {
				r = ' '
			}
			w.to(tone, shade)
			w.buf = utf8.AppendRune(w.buf, r)
		}
		if c.Right != nil {
			w.to(c.Right.Tone, theme.ShadeNone)
			w.buf = append(w.buf, c.rightLabel(&lc, y)...)
		}
		w.end()
		out[y] = string(w.buf)
	}
	if c.Legend != nil {
		l := newPaneLine(c.W, theme.Span{})
		l.blank(1)
		fitSegs(c.Legend, c.W-1, 2)
		putSegs(&l, c.Legend, 2, st, theme.ShadeNone)
		out[ph] = l.line()
	}
	return out
}

// drawLine sets the polyline's braille dots on one grid, so segments that
// meet in a cell join rather than each costing a grid of its own.
func (c *chart) drawLine(lc *linechart.Model) {
	if len(c.Line) == 0 {
		return
	}
	bg := graph.NewBrailleGrid(lc.GraphWidth(), lc.GraphHeight(), c.MinX, c.MaxX, c.MinY, c.MaxY)
	prev, joined := canvas.Point{}, false
	for _, v := range c.Line {
		if math.IsNaN(v[0]) || math.IsNaN(v[1]) {
			joined = false
			continue
		}
		p := bg.GridPoint(canvas.Float64Point{X: v[0], Y: v[1]})
		if joined {
			for _, q := range graph.GetLinePoints(prev, p) {
				bg.Set(q)
			}
		} else {
			bg.Set(p)
		}
		prev, joined = p, true
	}
	x0 := 0
	if c.YStep > 0 {
		x0 = lc.Origin().X + 1
	}
	for y, row := range bg.BraillePatterns() {
		for x, r := range row {
			if r != runes.BrailleBlockOffset {
				lc.Canvas.SetCell(canvas.Point{X: x0 + x, Y: y}, canvas.NewCell(r))
			}
		}
	}
}

// onLeft is a right-hand axis value on the left-hand scale.
func (c *chart) onLeft(v float64) float64 {
	r := c.Right
	if !(r.Max > r.Min) {
		return math.NaN()
	}
	return c.MinY + (v-r.Min)/(r.Max-r.Min)*(c.MaxY-c.MinY)
}

// rightLabel is the right-hand axis cell of plot line y: a label on the
// lines the left-hand axis labels (every YStep up from the X axis, the
// axis's own line left to the time labels beneath it), else blanks.
func (c *chart) rightLabel(lc *linechart.Model, y int) string {
	gh, up := lc.GraphHeight(), lc.Origin().Y-y
	if up <= 0 || up > gh || c.YStep <= 0 || up%c.YStep != 0 {
		return paneBlank(c.Right.Width)
	}
	r := c.Right
	return padLeft(r.Label(r.Min+(r.Max-r.Min)*float64(up)/float64(gh)), r.Width)
}

// plotRows are the canvas rows of the plot area: above the X axis.
func (c *chart) plotRows(lc *linechart.Model) (top, bottom int) {
	bottom = lc.Origin().Y
	if c.XStep > 0 {
		bottom--
	}
	return 0, bottom
}

// plotPoint is the canvas cell of a data point, as linechart's DrawRune
// places it: scaled into the graph, off the axes.
func plotPoint(lc *linechart.Model, x, y float64) canvas.Point {
	p := canvas.CanvasPointFromFloat64Point(lc.Origin(), lc.ScaleFloat64Point(canvas.Float64Point{X: x, Y: y}))
	if lc.YStep() > 0 {
		p.X++
	}
	if lc.XStep() > 0 {
		p.Y--
	}
	return p
}

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
