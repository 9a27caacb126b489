package ui

import (
	"math"

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
// and a legend line beneath it, by the one chart drawer (chart.go): the
// mid as its line, held flat from each change to the next (a quote stands
// until it moves), the trades as marks by side, and the IV as dots on the
// right-hand axis, drawn first so a trade's own mark wins where they meet.
// Not a hot path: the page draws it again only when its data or size
// changed.
func Chart(d *ChartData, width, height int, st *theme.Styles) []string {
	lo, hi, ok := chartPriceRange(d)
	if d.Message != "" || !ok || height-1 < 4 || width < 30 || d.To <= d.From {
		return chartMessage(d.Message, width, height, st)
	}
	c := chart{W: width, H: height, MinX: float64(d.From), MaxX: float64(d.To), MinY: lo, MaxY: hi,
		XLabel: func(v float64) string { return chartClock(api.TimeOfDay(v)) },
		YLabel: fmtPrice, YStep: 2, LineTone: theme.ToneAccent, Column: math.NaN()}
	plotW := width
	ivLo, ivHi, hasIV := chartIVRange(d)
	if hasIV {
		c.Right = &chartAxis{Min: ivLo, Max: ivHi, Width: chartIVAxisW, Tone: theme.ToneCaution,
			Ticks: pctTicks}
		plotW -= chartIVAxisW
	}
	c.XStep = chartXStep(plotW)
	c.Line = chartMidLine(d.Mid, c.MaxX)
	c.Marks = make([]chartMark, 0, 2*len(d.Trades))
	for _, t := range d.Trades {
		if hasIV && t.IV > 0 {
			c.Marks = append(c.Marks, chartMark{X: float64(t.T), Y: t.IV, Glyph: chartIVMark, Tone: theme.ToneCaution, Right: true})
		}
	}
	for _, t := range d.Trades {
		if !math.IsNaN(t.Price) {
			mark, tone := tradeMark(t.At)
			c.Marks = append(c.Marks, chartMark{X: float64(t.T), Y: t.Price, Glyph: mark, Tone: tone})
		}
	}
	c.Legend = chartLegend(hasIV)
	return c.draw(st)
}

// chartMidLine is the mid as the chart's line: each value held flat to
// the next change (a quote stands until it moves), the last to the end
// of the axis; a NaN mid (no two-sided market) breaks it.
func chartMidLine(mid []ChartPoint, end float64) [][2]float64 {
	nan := [2]float64{math.NaN(), math.NaN()}
	line := make([][2]float64, 0, 2*len(mid)+1)
	prev := nan
	for _, p := range mid {
		if math.IsNaN(p.V) {
			line, prev = append(line, nan), nan
			continue
		}
		cur := [2]float64{float64(p.T), p.V}
		if !math.IsNaN(prev[0]) {
			line = append(line, [2]float64{cur[0], prev[1]})
		}
		line, prev = append(line, cur), cur
	}
	if !math.IsNaN(prev[0]) && end > prev[0] {
		line = append(line, [2]float64{end, prev[1]})
	}
	return line
}

// chartMessage is the chart's room with msg (or the want of data) said
// in the middle.
func chartMessage(msg string, width, height int, st *theme.Styles) []string {
	out := blankPane(width, height)
	if height <= 0 || width <= 0 {
		return out
	}
	if msg == "" {
		msg = "no quotes or trades to chart yet"
	}
	out[(height-1)/2] = centeredMessage(msg, width, st)
	return out
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

// chartPriceRange is the price axis: every mid and print, a tenth over
// either side so nothing sits on the frame; a flat day gets a cent each way.
func chartPriceRange(d *ChartData) (lo, hi float64, ok bool) {
	e := newChartExtent()
	for _, p := range d.Mid {
		e.see(p.V)
	}
	for _, t := range d.Trades {
		e.see(t.Price)
	}
	return e.padded(0.01)
}

// chartIVRange is the IV axis, as the price axis, a quarter point either
// side at least so a steady IV still gets a few labels; ok false
// without IV.
func chartIVRange(d *ChartData) (lo, hi float64, ok bool) {
	e := newChartExtent()
	for _, t := range d.Trades {
		if t.IV > 0 {
			e.see(t.IV)
		}
	}
	return e.padded(0.0025)
}

// pctTicks are a fraction axis's round values labelled in percent
// ("15.8%"), a tenth of a point apart at least so one decimal tells
// every label from the next and the label fits the axis's cells.
func pctTicks(lo, hi float64, n int) []chartTick {
	n = max(min(n, int((hi-lo)*1000)), 1)
	ticks := niceTicks(lo, hi, 100, n)
	for i := range ticks {
		ticks[i].Label += "%"
	}
	return ticks
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

// chartLegend says what each mark is, in its tone; the chart keeps as
// many as fit, the first first.
func chartLegend(hasIV bool) []paneSeg {
	items := []struct {
		mark, text string
		tone       theme.Tone
	}{
		{"⠒⠒", "mid", theme.ToneAccent},
		{string(chartAskMark), "bought", theme.ToneAskSide},
		{string(chartBidMark), "sold", theme.ToneBidSide},
		{string(chartMidMark), "mid print", theme.ToneMidSide},
		{string(chartIVMark), "IV (right axis)", theme.ToneCaution},
	}
	if !hasIV {
		items = items[:4]
	}
	segs := make([]paneSeg, len(items))
	for i, it := range items {
		segs[i].prio = 100 - i
		segs[i].add(it.tone, it.mark).add(theme.ToneMuted, " ").add(theme.ToneMuted, it.text)
	}
	return segs
}
