package ui

import (
	"math"
	"strconv"

	"chainwatch/theme"
	"chainwatch/vol"
)

// The vol page's two charts: the selected expiry's smile and the term
// structure of ATM IV. Glyphs tell the series apart without colour:
// ● call, ○ put (◐ both on one cell), ┊ spot; on the term structure ◆ the
// earnings expiry and ◉ the selected one.

const (
	glyphCall     = '●'
	glyphPut      = '○'
	glyphBoth     = '◐'
	glyphSpot     = '┊'
	glyphTerm     = '•'
	glyphEarnings = '◆'
	glyphSelected = '◉'
)

// ivLabel is an IV axis label in percent: "18.5".
func ivLabel(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) }

// smileChart is the smile of rows (the window to plot) with the
// underlying at spot: every side's IV in both mode, else the
// out-of-the-money side merged into one curve; the cursor's strike is a
// shaded column.
func smileChart(rows []vol.Row, spot, cursor float64, both bool, w, h int) chart {
	c := chart{W: w, H: h, XStep: 10, YStep: 2, LineTone: theme.ToneMuted, Column: cursor,
		MinX: math.Inf(1), MaxX: math.Inf(-1), MinY: math.Inf(1), MaxY: math.Inf(-1)}
	add := func(k, iv float64, put bool) {
		if !(iv > 0) || math.IsInf(iv, 0) {
			return
		}
		g, t := glyphCall, theme.ToneCall
		if put {
			g, t = glyphPut, theme.TonePut
		}
		c.Marks = append(c.Marks, chartMark{X: k, Y: iv, Glyph: g, Tone: t})
		c.MinY, c.MaxY = min(c.MinY, iv), max(c.MaxY, iv)
	}
	for i := range rows {
		r := &rows[i]
		c.MinX, c.MaxX = min(c.MinX, r.Strike), max(c.MaxX, r.Strike)
		if both {
			add(r.Strike, r.Call.IV, false)
			add(r.Strike, r.Put.IV, true)
			continue
		}
		// The out-of-the-money side only: a put below spot, a call at or
		// above it, as the legend reads left to right. A strike whose OTM
		// side has no IV is left out rather than filled with the other
		// side's (b shows both sides).
		iv, put := vol.OTM(r, spot)
		if put != (r.Strike < spot) {
			continue
		}
		add(r.Strike, iv, put)
		if iv > 0 {
			c.Line = append(c.Line, [2]float64{r.Strike, iv})
		}
	}
	c.overlap = func(a, b rune) rune {
		if a == glyphBoth || a != b {
			return glyphBoth
		}
		return a
	}
	if len(c.Marks) == 0 {
		c.MinY, c.MaxY = 0, 1
	}
	if !math.IsNaN(spot) {
		c.VLines = []chartVLine{{X: spot, Glyph: glyphSpot, Tone: theme.ToneAccent}}
	}
	c.MinY, c.MaxY = ivRange(c.MinY, c.MaxY)
	if pad := (c.MaxX - c.MinX) / 50; pad > 0 {
		// A strike on the edge is still a whole glyph; the rest is data.
		c.MinX, c.MaxX = c.MinX-pad, c.MaxX+pad
	} else {
		c.MinX, c.MaxX = niceRange(c.MinX, c.MaxX)
	}
	decimals := 0
	if c.MaxX-c.MinX < 10 {
		decimals = 1
	}
	c.XLabel = func(v float64) string { return strconv.FormatFloat(v, 'f', decimals, 64) }
	c.YLabel = ivLabel
	c.XTicks = func(lo, hi float64, n int) []chartTick { return niceTicks(lo, hi, 1, n) }
	c.YTicks = ivTicks
	return c
}

// ivRange is the IV axis's range for values lo..hi: a tenth of their
// spread either side, at least half a vol point, never below zero (a
// flat smile does not reach negative IVs).
func ivRange(lo, hi float64) (float64, float64) {
	e := chartExtent{lo, hi}
	lo, hi, ok := e.padded(0.005)
	if !ok {
		return 0, 1
	}
	return lo, hi
}

// ivTicks are an IV axis's labels, in percent.
func ivTicks(lo, hi float64, n int) []chartTick { return niceTicks(lo, hi, 100, n) }

// termTicks are the term structure's labels on its square-root axis:
// days a trader counts in (a week, a month, a quarter, a year), from the
// first that fits.
func termTicks(lo, hi float64, n int) []chartTick {
	var out []chartTick
	for _, d := range [...]int{0, 1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365, 540, 730, 1095, 1460, 1825, 2555, 3650} {
		if v := math.Sqrt(float64(d)); v >= lo && v <= hi {
			out = append(out, chartTick{V: v, Label: strconv.Itoa(d) + "d"})
		}
	}
	return out
}

// termChart is ATM IV by days to expiry, on a square-root time axis: the
// dailies of the first weeks get room, and the year out still fits. The
// expiry carrying the next earnings is marked ◆, the selected one ◉.
func termChart(figs []vol.Figures, selected int, earnings int, w, h int) chart {
	c := chart{W: w, H: h, XStep: 8, YStep: 2, LineTone: theme.ToneAccent, Column: math.NaN(),
		MinX: math.Inf(1), MaxX: math.Inf(-1), MinY: math.Inf(1), MaxY: math.Inf(-1)}
	for i := range figs {
		f := &figs[i]
		x := math.Sqrt(float64(max(f.DTE, 0)))
		c.MinX, c.MaxX = min(c.MinX, x), max(c.MaxX, x)
		if !(f.ATMIV > 0) {
			continue // no two-sided ATM market: no point, not a zero
		}
		g, t := glyphTerm, theme.ToneAccent
		switch i {
		case selected:
			g, t = glyphSelected, theme.ToneBold
		case earnings:
			g, t = glyphEarnings, theme.ToneWarn
		}
		c.Marks = append(c.Marks, chartMark{X: x, Y: f.ATMIV, Glyph: g, Tone: t})
		c.Line = append(c.Line, [2]float64{x, f.ATMIV})
		c.MinY, c.MaxY = min(c.MinY, f.ATMIV), max(c.MaxY, f.ATMIV)
	}
	if len(c.Marks) == 0 {
		c.MinY, c.MaxY = 0, 1
	}
	if len(figs) == 0 {
		c.MinX, c.MaxX = 0, 1
	}
	c.MinY, c.MaxY = ivRange(c.MinY, c.MaxY)
	c.MinX, c.MaxX = niceRange(c.MinX, c.MaxX)
	c.MinX = max(c.MinX, 0)
	c.XTicks, c.YTicks = termTicks, ivTicks
	c.XLabel = func(v float64) string {
		d := math.Round(max(v, 0) * max(v, 0))
		return strconv.Itoa(int(d)) + "d"
	}
	c.YLabel = ivLabel
	return c
}
