package ui

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"

	"chainwatch/theme"
)

// Drawing a chart (chart.go says what one is): ntcharts lays out the axes
// and the line on its canvas, the vertical lines and marks go on top with
// a tone of their own, and the canvas is written out through the theme's
// spans, a row at a time.

// draw renders the chart in exactly W x H cells: the plot, the right-hand
// axis beside it and the legend beneath it.
func (c *chart) draw(st *theme.Styles) []string {
	pw, ph := c.plotSize()
	if pw < minChartCells || ph < minChartLines {
		// No room for axes and a plot: blank, not a broken drawing.
		return blankPane(c.W, c.H)
	}
	c.widenFlat()
	if !finite(c.MaxX-c.MinX) || !finite(c.MaxY-c.MinY) {
		// A range no float spans (a wild quote): nothing can be placed.
		return blankPane(c.W, c.H)
	}
	out := make([]string, c.H)
	p := c.newPlot(pw, ph)
	if p.lc.GraphWidth() < 1 || p.lc.GraphHeight() < 1 {
		// The axis labels (a wild quote's hundred digits) left no room
		// for the plot: blank, as when the pane is too small.
		return blankPane(c.W, c.H)
	}
	c.drawVLines(&p)
	c.drawMarks(&p)
	c.writePlot(&p, st, out)
	if c.Legend != nil {
		out[ph] = c.legendLine(st)
	}
	return out
}

// plotSize is the cells of the plot and its axes: W less the right-hand
// axis beside them, H less the legend's line beneath them.
func (c *chart) plotSize() (pw, ph int) {
	pw, ph = c.W, c.H
	if c.Right != nil {
		pw -= c.Right.Width
	}
	if c.Legend != nil {
		ph--
	}
	return pw, ph
}

// widenFlat gives a range without width (a single value, or NaN) a unit
// either side: the scale divides by the width.
func (c *chart) widenFlat() {
	if !(c.MaxX > c.MinX) {
		c.MinX, c.MaxX = c.MinX-1, c.MinX+1
	}
	if !(c.MaxY > c.MinY) {
		c.MinY, c.MaxY = c.MinY-1, c.MinY+1
	}
}

// chartPlot is the canvas being drawn: ntcharts' line chart, and the tone
// of each cell the chart set itself (noTone: the cell's rune decides, as
// for the axes and the line).
type chartPlot struct {
	lc          linechart.Model
	tones       []theme.Tone
	w, h        int
	top, bottom int // the rows of the plot area (plotRows)
}

// newPlot lays out the axes, their labels and the polyline on a canvas of
// pw x ph cells, no cell toned yet.
func (c *chart) newPlot(pw, ph int) chartPlot {
	xfmt := func(_ int, v float64) string { return c.XLabel(v) }
	yfmt := func(_ int, v float64) string { return c.YLabel(v) }
	var yt []chartTick
	if c.YTicks != nil {
		// The labels are drawn below; ntcharts only keeps their width.
		gh := ph
		if c.XStep > 0 {
			gh -= 2
		}
		yt = c.YTicks(c.MinY, c.MaxY, gh/max(c.YStep, 1)+1)
		w := 0
		for _, t := range yt {
			w = max(w, len(t.Label))
		}
		if len(yt) == 0 {
			w = len(c.YLabel(c.MinY))
		}
		blank := strings.Repeat(" ", w)
		yfmt = func(int, float64) string { return blank }
	}
	if c.XTicks != nil {
		xfmt = func(int, float64) string { return "" }
	}
	lc := linechart.New(pw, ph, c.MinX, c.MaxX, c.MinY, c.MaxY,
		linechart.WithXYSteps(c.XStep, c.YStep),
		linechart.WithXLabelFormatter(xfmt),
		linechart.WithYLabelFormatter(yfmt))
	lc.DrawXYAxisAndLabel()
	if c.YTicks != nil {
		c.drawYTicks(&lc, yt)
	}
	if c.XTicks != nil && c.XStep > 0 {
		c.drawXTicks(&lc, c.XTicks(c.MinX, c.MaxX, lc.GraphWidth()/max(c.XStep, 1)+1))
	}
	c.drawLine(&lc)
	p := chartPlot{lc: lc, tones: make([]theme.Tone, pw*ph), w: pw, h: ph}
	for i := range p.tones {
		p.tones[i] = noTone
	}
	p.top, p.bottom = c.plotRows(&p.lc)
	return p
}

// drawYTicks writes each Y label right-aligned left of the axis on the
// row a mark of its value takes; a label on a row already labelled, or
// off the plot, is left out.
func (c *chart) drawYTicks(lc *linechart.Model, ticks []chartTick) {
	o := lc.Origin()
	last := -1
	for _, t := range ticks {
		y := plotPoint(lc, c.MinX, t.V).Y
		if y < 0 || y >= o.Y || y == last || t.V < c.MinY || t.V > c.MaxY {
			continue
		}
		lc.Canvas.SetString(canvas.Point{X: o.X - len(t.Label), Y: y}, t.Label)
		last = y
	}
}

// drawXTicks writes each X label under the axis, centred on the column a
// mark of its value takes; a label that would touch the one before it or
// run off the canvas is left out.
func (c *chart) drawXTicks(lc *linechart.Model, ticks []chartTick) {
	o := lc.Origin()
	end := -2 // the column after the last label written
	for _, t := range ticks {
		if t.V < c.MinX || t.V > c.MaxX {
			continue
		}
		x := plotPoint(lc, t.V, c.MinY).X - (len(t.Label)-1)/2
		if x < end+2 || x < 0 || x+len(t.Label) > lc.Canvas.Width() {
			continue
		}
		lc.Canvas.SetString(canvas.Point{X: x, Y: o.Y + 1}, t.Label)
		end = x + len(t.Label)
	}
}

// set puts glyph r in tone t at pt; a point off the canvas (a mark beyond
// the range) is left out rather than drawn on an edge.
func (p *chartPlot) set(pt canvas.Point, r rune, t theme.Tone) {
	if pt.X < 0 || pt.Y < 0 || pt.X >= p.w || pt.Y >= p.h {
		return
	}
	p.lc.Canvas.SetCell(pt, canvas.NewCell(r))
	p.tones[pt.Y*p.w+pt.X] = t
}

// drawVLines draws each vertical line in the X range down the plot area,
// over the polyline but not over an axis, a label or another vertical
// line: the cells it may take are the empty and braille ones.
func (c *chart) drawVLines(p *chartPlot) {
	for _, v := range c.VLines {
		if v.X < c.MinX || v.X > c.MaxX {
			continue
		}
		x := plotPoint(&p.lc, v.X, c.MinY).X
		for y := p.top; y <= p.bottom; y++ {
			pt := canvas.Point{X: x, Y: y}
			if r := p.lc.Canvas.Cell(pt).Rune; r == 0 || runes.IsBraillePattern(r) {
				p.set(pt, v.Glyph, v.Tone)
			}
		}
	}
}

// drawMarks draws the marks last, in order, so they are on top: a mark on
// the right-hand axis is placed on the left-hand scale, one without a
// value is left out, and two on one cell become c.overlap's glyph.
func (c *chart) drawMarks(p *chartPlot) {
	placed := make(map[canvas.Point]rune, len(c.Marks))
	for _, m := range c.Marks {
		y := m.Y
		if m.Right {
			y = c.onLeft(y)
		}
		if math.IsNaN(m.X) || math.IsNaN(y) {
			continue
		}
		pt := plotPoint(&p.lc, m.X, y)
		g := m.Glyph
		if prev, ok := placed[pt]; ok && c.overlap != nil && prev != g {
			g = c.overlap(prev, g)
		}
		placed[pt] = g
		p.set(pt, g, m.Tone)
	}
}

// writePlot writes the canvas into out, a line per row through one span
// writer (a run of cells in one tone costs one escape sequence), each row
// followed by its right-hand axis cell.
func (c *chart) writePlot(p *chartPlot, st *theme.Styles, out []string) {
	col := c.cursorColumn(&p.lc)
	var right []string
	if c.Right != nil {
		right = c.rightLabels(&p.lc, p.h)
	}
	w := spanWriter{buf: make([]byte, 0, c.W*4+32), st: st, cur: -1}
	for y := range p.h {
		w.buf = w.buf[:0]
		for x := range p.w {
			r, tone := p.cell(x, y, c.LineTone)
			w.to(tone, p.shade(x, y, col))
			w.buf = utf8.AppendRune(w.buf, r)
		}
		if c.Right != nil {
			w.to(c.Right.Tone, theme.ShadeNone)
			w.buf = append(w.buf, right[y]...)
		}
		w.end()
		out[y] = string(w.buf)
	}
}

// cursorColumn is the canvas column of c.Column, -1 when there is none or
// it is off the X range.
func (c *chart) cursorColumn(lc *linechart.Model) int {
	if math.IsNaN(c.Column) || c.Column < c.MinX || c.Column > c.MaxX {
		return -1
	}
	return plotPoint(lc, c.Column, c.MinY).X
}

// cell is the rune at (x, y), a blank for an empty cell, and its tone: the
// one it was set in, else the line's for braille and muted for the rest
// (axes and tick labels).
func (p *chartPlot) cell(x, y int, line theme.Tone) (rune, theme.Tone) {
	r := p.lc.Canvas.Cell(canvas.Point{X: x, Y: y}).Rune
	tone := p.tones[y*p.w+x]
	if tone == noTone {
		tone = theme.ToneMuted
		if runes.IsBraillePattern(r) {
			tone = line
		}
	}
	if r == 0 {
		r = ' '
	}
	return r, tone
}

// shade is the cursor's shade in column col of the plot area, none
// elsewhere: the axis and its labels beneath stay unshaded.
func (p *chartPlot) shade(x, y, col int) theme.Shade {
	if x == col && y >= p.top && y <= p.bottom {
		return theme.ShadeCursor
	}
	return theme.ShadeNone
}

// legendLine is the legend beneath the plot, a cell in from the left, its
// items fitted as a bar's are.
func (c *chart) legendLine(st *theme.Styles) string {
	l := newPaneLine(c.W, theme.Span{})
	l.blank(1)
	fitSegs(c.Legend, c.W-1, 2)
	putSegs(&l, c.Legend, 2, st, theme.ShadeNone)
	return l.line()
}

// drawLine sets the polyline's braille dots on one grid, so segments that
// meet in a cell join rather than each costing a grid of its own.
func (c *chart) drawLine(lc *linechart.Model) {
	if len(c.Line) == 0 || lc.GraphWidth() < 1 || lc.GraphHeight() < 1 {
		return
	}
	bg := graph.NewBrailleGrid(lc.GraphWidth(), lc.GraphHeight(), c.MinX, c.MaxX, c.MinY, c.MaxY)
	var prev [2]float64
	joined := false
	for _, v := range c.Line {
		if !finite(v[0]) || !finite(v[1]) {
			joined = false
			continue
		}
		// Only what lies inside the plot becomes dots: a point far off
		// it (a wild quote) would otherwise be a line of as many dots
		// as its distance.
		switch {
		case joined:
			if a, b, ok := c.clip(prev, v); ok {
				for _, q := range graph.GetLinePoints(c.dot(bg, a), c.dot(bg, b)) {
					bg.Set(q)
				}
			}
		case c.inside(v):
			bg.Set(c.dot(bg, v))
		}
		prev, joined = v, true
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

// finite is a number that is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// inside says whether v is on the plot.
func (c *chart) inside(v [2]float64) bool {
	return v[0] >= c.MinX && v[0] <= c.MaxX && v[1] >= c.MinY && v[1] <= c.MaxY
}

// dot is the braille grid's point of v, on the plot.
func (c *chart) dot(bg *graph.BrailleGrid, v [2]float64) canvas.Point {
	return bg.GridPoint(canvas.Float64Point{X: v[0], Y: v[1]})
}

// clip is the part of the segment a-b inside the plot (Liang-Barsky),
// ok false when none of it is.
func (c *chart) clip(a, b [2]float64) (ca, cb [2]float64, ok bool) {
	dx, dy := b[0]-a[0], b[1]-a[1]
	if !finite(dx) || !finite(dy) || !(c.MaxX > c.MinX) || !(c.MaxY > c.MinY) {
		return a, b, false // ends further apart than a float holds, or no plot
	}
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, a[0] - c.MinX}, {dx, c.MaxX - a[0]}, {-dy, a[1] - c.MinY}, {dy, c.MaxY - a[1]}} {
		p, q := e[0], e[1]
		switch {
		case p == 0:
			if q < 0 {
				return a, b, false // parallel to this edge and outside it
			}
		case p < 0:
			t0 = max(t0, q/p)
		default:
			t1 = min(t1, q/p)
		}
	}
	if !(t0 <= t1) {
		return a, b, false
	}
	at := func(t float64) [2]float64 {
		v := [2]float64{a[0] + t*dx, a[1] + t*dy}
		// Rounding can leave an end a hair outside.
		return [2]float64{min(max(v[0], c.MinX), c.MaxX), min(max(v[1], c.MinY), c.MaxY)}
	}
	return at(t0), at(t1), true
}

// onLeft is a right-hand axis value on the left-hand scale.
func (c *chart) onLeft(v float64) float64 {
	r := c.Right
	if !(r.Max > r.Min) {
		return math.NaN()
	}
	return c.MinY + (v-r.Min)/(r.Max-r.Min)*(c.MaxY-c.MinY)
}

// rightLabels are the right-hand axis cells of each plot line: the
// axis's round values (Right.Ticks, at most one a YStep lines), each on
// the line a mark of its value takes, so no two read the same and each
// stands where its value is; a value on a line already labelled, or off
// the plot, is left out; other lines are blanks.
func (c *chart) rightLabels(lc *linechart.Model, lines int) []string {
	r := c.Right
	out := make([]string, lines)
	blank := paneBlank(r.Width)
	for i := range out {
		out[i] = blank
	}
	if r.Ticks == nil || !(r.Max > r.Min) {
		return out
	}
	gh := lc.GraphHeight()
	top, bottom := c.plotRows(lc)
	for _, t := range r.Ticks(r.Min, r.Max, gh/max(c.YStep, 1)+1) {
		y := plotPoint(lc, c.MinX, c.onLeft(t.V)).Y
		if y < top || y > bottom || y >= lines || t.V < r.Min || t.V > r.Max || out[y] != blank {
			continue
		}
		out[y] = padLeft(t.Label, r.Width)
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
