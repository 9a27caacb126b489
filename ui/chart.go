package ui

import (
	"math"
	"unicode/utf8"

	"github.com/NimbleMarkets/ntcharts/v2/canvas"
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
// glyph first, colour second.

// chartMark is a glyph at a data point.
type chartMark struct {
	X, Y  float64
	Glyph rune
	Tone  theme.Tone
}

// chartVLine is a vertical line across the plot at X (spot).
type chartVLine struct {
	X     float64
	Glyph rune
	Tone  theme.Tone
}

// chart is one chart's data and its frame.
type chart struct {
	W, H                   int
	MinX, MaxX, MinY, MaxY float64
	XLabel, YLabel         func(v float64) string
	XStep, YStep           int                  // cells between tick labels
	Line                   [][2]float64         // a braille polyline through these points
	LineTone               theme.Tone           // its tone
	VLines                 []chartVLine         // drawn under the marks
	Marks                  []chartMark          // drawn last, on top
	Column                 float64              // x whose column is shaded as the cursor; NaN none
	overlap                func(a, b rune) rune // the glyph of two marks on one cell; nil: the later wins
}

// The smallest chart drawn: the axis labels and a few cells of plot.
const (
	minChartCells = 12
	minChartLines = 4
)

// noTone marks a cell whose tone comes from its rune.
const noTone = theme.NumTones

// draw renders the chart in exactly W x H cells.
func (c *chart) draw(st *theme.Styles) []string {
	out := make([]string, max(c.H, 0))
	if c.W < minChartCells || c.H < minChartLines {
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
	lc := linechart.New(c.W, c.H, c.MinX, c.MaxX, c.MinY, c.MaxY,
		linechart.WithXYSteps(c.XStep, c.YStep),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return c.XLabel(v) }),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return c.YLabel(v) }))
	lc.DrawXYAxisAndLabel()
	for i := 1; i < len(c.Line); i++ {
		a, b := c.Line[i-1], c.Line[i]
		lc.DrawBrailleLine(canvas.Float64Point{X: a[0], Y: a[1]}, canvas.Float64Point{X: b[0], Y: b[1]})
	}
	tones := make([]theme.Tone, c.W*c.H)
	for i := range tones {
		tones[i] = noTone
	}
	set := func(p canvas.Point, r rune, t theme.Tone) {
		if p.X < 0 || p.Y < 0 || p.X >= c.W || p.Y >= c.H {
			return
		}
		lc.Canvas.SetCell(p, canvas.NewCell(r))
		tones[p.Y*c.W+p.X] = t
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
		if math.IsNaN(m.X) || math.IsNaN(m.Y) {
			continue
		}
		p := plotPoint(&lc, m.X, m.Y)
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
	for y := range c.H {
		w.buf = w.buf[:0]
		for x := range c.W {
			r := lc.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune
			tone := tones[y*c.W+x]
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
		w.end()
		out[y] = string(w.buf)
	}
	return out
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
