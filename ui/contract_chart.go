package ui

import (
	"math"
	"strings"

	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"

	"chainwatch/api"
	"chainwatch/theme"
)

// ChartPoint is a value at a time of day: the NBBO mid at each change.
type ChartPoint struct {
	T api.TimeOfDay
	V float64
}

// ChartTrade is a print on the chart: its price, its IV (a fraction, NaN
// none) and the side it printed on, which picks its glyph.
type ChartTrade struct {
	T     api.TimeOfDay
	Price float64
	IV    float64
	At    api.TradeAt
}

// ChartData is the contract page's intraday chart: the NBBO mid as a line
// and the trades as marks on the price axis (left), and each trade's IV
// on its own axis (right). From and To are the time axis: the session's
// open to the data's clock (or the close, for a finished day).
type ChartData struct {
	From, To api.TimeOfDay
	Mid      []ChartPoint // time order
	Trades   []ChartTrade // time order
	Message  string       // instead of the chart when there is nothing to draw
}

// Chart marks: shapes, so the sides read without colour.
const (
	chartAskMark  = '▲' // bought: at or above the ask
	chartBidMark  = '▼' // sold: at or below the bid
	chartMidMark  = '◆' // between
	chartNoneMark = '•' // crossed, no market
	chartIVMark   = '·'
	chartIVAxisW  = 6 // " 22.1%"
)

// Chart draws the chart in width x height: the plot over height-1 lines
// and a legend line beneath it. The plot is ntcharts' line chart: its
// axes and labels, a braille line of the mid (one grid, so the segments
// join), the trades' marks over it, and the IV as dots scaled to the
// right-hand axis, whose labels are drawn beside the plot. Not a hot
// path: the page draws it again only when its data or size changed.
func Chart(d *ChartData, width, height int, st *theme.Styles) []string {
	out := make([]string, max(height, 0))
	if height <= 0 || width <= 0 {
		return out
	}
	blank := paneBlank(width)
	for i := range out {
		out[i] = blank
	}
	plotH := height - 1
	lo, hi, ok := chartPriceRange(d)
	if d.Message != "" || !ok || plotH < 4 || width < 30 || d.To <= d.From {
		msg := d.Message
		if msg == "" {
			msg = "no quotes or trades to chart yet"
		}
		l := newPaneLine(width, theme.Span{})
		l.blank((width - paneWidth(msg)) / 2)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), msg)
		out[(height-1)/2] = l.line()
		return out
	}
	ivLo, ivHi, hasIV := chartIVRange(d)
	plotW := width
	if hasIV {
		plotW -= chartIVAxisW
	}
	minX, maxX := float64(d.From), float64(d.To)
	lc := linechart.New(plotW, plotH, minX, maxX, lo, hi,
		linechart.WithXYSteps(chartXStep(plotW), 2),
		linechart.WithStyles(st.Style(theme.ToneMuted), st.Style(theme.ToneMuted), st.Style(theme.ToneText)),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return chartClock(api.TimeOfDay(v)) }),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return fmtPrice(v) }),
	)
	lc.DrawXYAxisAndLabel()

	// The mid: one braille grid for the whole line, a segment between
	// each change held flat until the next (a quote stands until it moves).
	if len(d.Mid) > 0 {
		bg := graph.NewBrailleGrid(lc.GraphWidth(), lc.GraphHeight(), minX, maxX, lo, hi)
		prev := canvas.Float64Point{X: math.NaN()}
		for _, p := range d.Mid {
			if math.IsNaN(p.V) {
				prev.X = math.NaN()
				continue
			}
			cur := canvas.Float64Point{X: float64(p.T), Y: p.V}
			if !math.IsNaN(prev.X) {
				chartSegment(bg, prev, canvas.Float64Point{X: cur.X, Y: prev.Y})
				chartSegment(bg, canvas.Float64Point{X: cur.X, Y: prev.Y}, cur)
			} else {
				bg.Set(bg.GridPoint(cur))
			}
			prev = cur
		}
		if !math.IsNaN(prev.X) && float64(d.To) > prev.X {
			chartSegment(bg, prev, canvas.Float64Point{X: maxX, Y: prev.Y})
		}
		graph.DrawBraillePatterns(&lc.Canvas, canvas.Point{X: lc.Origin().X + 1, Y: 0}, bg.BraillePatterns(), st.Style(theme.ToneAccent))
	}

	// IV dots first, so a trade's own mark wins where they meet.
	if hasIV {
		ivStyle := st.Style(theme.ToneCaution)
		for _, t := range d.Trades {
			if math.IsNaN(t.IV) {
				continue
			}
			y := lo + (t.IV-ivLo)/(ivHi-ivLo)*(hi-lo)
			lc.DrawRuneWithStyle(canvas.Float64Point{X: float64(t.T), Y: y}, chartIVMark, ivStyle)
		}
	}
	for _, t := range d.Trades {
		if math.IsNaN(t.Price) {
			continue
		}
		mark, tone := tradeMark(t.At)
		lc.DrawRuneWithStyle(canvas.Float64Point{X: float64(t.T), Y: t.Price}, mark, st.Style(tone))
	}

	plot := strings.Split(lc.View(), "\n")
	for i := 0; i < plotH; i++ {
		line := ""
		if i < len(plot) {
			line = plot[i]
		}
		line = Fit(line, plotW)
		if hasIV {
			line += chartIVLabel(i, lc, ivLo, ivHi, st)
		}
		out[i] = line
	}
	out[plotH] = chartLegend(hasIV, width, st)
	return out
}

// chartSegment sets the braille dots of a line between two data points.
func chartSegment(bg *graph.BrailleGrid, a, b canvas.Float64Point) {
	for _, p := range graph.GetLinePoints(bg.GridPoint(a), bg.GridPoint(b)) {
		bg.Set(p)
	}
}

// chartMark is a print's glyph and tone by its side.
func tradeMark(at api.TradeAt) (rune, theme.Tone) {
	switch at {
	case api.OnAsk, api.AboveAsk:
		return chartAskMark, theme.ToneAskSide
	case api.OnBid, api.BelowBid:
		return chartBidMark, theme.ToneBidSide
	case api.MidMarket:
		return chartMidMark, theme.ToneMidSide
	}
	return chartNoneMark, theme.ToneMuted
}

// chartPriceRange is the price axis: every mid and print, with a margin
// of a tenth so nothing sits on the frame; a flat day gets a cent each way.
func chartPriceRange(d *ChartData) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	see := func(v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, p := range d.Mid {
		see(p.V)
	}
	for _, t := range d.Trades {
		see(t.Price)
	}
	if lo > hi {
		return 0, 0, false
	}
	pad := math.Max((hi-lo)/10, 0.01)
	return math.Max(lo-pad, 0), hi + pad, true
}

// chartIVRange is the IV axis, as the price axis; ok false without IV.
func chartIVRange(d *ChartData) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, t := range d.Trades {
		if !math.IsNaN(t.IV) && t.IV > 0 {
			lo, hi = math.Min(lo, t.IV), math.Max(hi, t.IV)
		}
	}
	if lo > hi {
		return 0, 0, false
	}
	pad := math.Max((hi-lo)/10, 0.0005)
	return math.Max(lo-pad, 0), hi + pad, true
}

// chartIVLabel is the right-hand axis cell of plot line i: an IV label
// on every other line of the graph, level with the price labels.
func chartIVLabel(i int, lc linechart.Model, ivLo, ivHi float64, st *theme.Styles) string {
	gh := lc.GraphHeight()
	step := i - (lc.Origin().Y - gh) // rows from the top of the graph
	up := lc.Origin().Y - i          // rows above the X axis
	if i >= lc.Origin().Y || up%2 != 0 || gh <= 0 || step < 0 {
		return paneBlank(chartIVAxisW)
	}
	v := ivLo + (ivHi-ivLo)*float64(up)/float64(gh)
	return st.Span(theme.ToneCaution, theme.ShadeNone).Wrap(padLeft(fmtPct(v, 1), chartIVAxisW))
}

// chartXStep spaces the time labels (HH:MM, 5 cells) about 12 apart.
func chartXStep(w int) int { return max(min(12, w/4), 6) }

// chartClock is a time label: "10:30".
func chartClock(t api.TimeOfDay) string {
	b := appendClock(nil, t, false)
	if len(b) >= 5 {
		b = b[:5]
	}
	return string(b)
}

// chartLegend says what each mark is, in its tone, as much as fits.
func chartLegend(hasIV bool, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	muted := st.Span(theme.ToneMuted, theme.ShadeNone)
	items := []struct {
		mark, text string
		tone       theme.Tone
	}{
		{"⠒⠒", "mid", theme.ToneAccent},
		{string(chartAskMark), "bought", theme.ToneAskSide},
		{string(chartBidMark), "sold", theme.ToneBidSide},
		{string(chartMidMark), "mid print", theme.ToneMidSide},
	}
	if hasIV {
		items = append(items, struct {
			mark, text string
			tone       theme.Tone
		}{string(chartIVMark), "IV (right axis)", theme.ToneCaution})
	}
	l.blank(1)
	for i, it := range items {
		need := paneWidth(it.mark) + 1 + len(it.text) + 2
		if need > l.room() {
			break
		}
		if i > 0 {
			l.blank(2)
		}
		l.put(st.Span(it.tone, theme.ShadeNone), it.mark)
		l.blank(1)
		l.put(muted, it.text)
	}
	return l.line()
}
