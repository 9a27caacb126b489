package ui

import (
	"chainwatch/pricing"
	"math"
	"strconv"
	"strings"

	"chainwatch/strategy"
	"chainwatch/text"
	"chainwatch/theme"
)

// The strategy page: the ticket's legs with their NBBO, the figures (net
// price at mid and natural, position and dollar greeks, max profit and
// loss, breakevens, probability of profit) and the risk graph: P&L at
// expiry as a line, today as · and at the chosen date as ∘, with spot ┊,
// the strikes │ and the breakevens ╎ across it.

const (
	glyphToday     = '·'
	glyphAtDate    = '∘'
	glyphStrike    = '│'
	glyphBreakeven = '╎'
	glyphZero      = '┄'
)

// StrategyLeg is one leg's row.
type StrategyLeg struct {
	Text     string // "+1 C700 2026-12-18"
	Quote    strategy.Quote
	Selected bool
}

// StrategyData is what the strategy page draws.
type StrategyData struct {
	Title   string // "vertical · SPY · spot 698.75 · marked 10:02:13"
	Legs    []StrategyLeg
	Fig     strategy.Figures
	Spot    float64
	Strikes []float64
	// The risk graph: P&L at Xs at expiry, today and at the chosen date.
	Xs, Expiry, Today, AtDate []float64
	DateLabel                 string // the chosen date and the IV shift: "Dec04 IV +1"
	Message                   string // instead of the figures (an empty ticket)
}

// StrategyPage draws the page in exactly h lines of w cells.
func StrategyPage(d *StrategyData, w, h int, st *theme.Styles) []string {
	out := make([]string, 0, max(h, 0))
	if w <= 0 || h <= 0 {
		return make([]string, max(h, 0))
	}
	put := func(tone theme.Tone, s string) {
		if len(out) < h {
			out = append(out, st.Cell[tone][theme.ShadeNone].Wrap(Fit(text.Clean(s), w)))
		}
	}
	put(theme.ToneBold, d.Title)
	if d.Message != "" {
		// Whole words, centred, on as many lines as it takes.
		msg := wrapWords(text.Clean(d.Message), w)
		top := max((h-len(msg))/2, len(out))
		for len(out) < h {
			if i := len(out) - top; i >= 0 && i < len(msg) {
				out = append(out, centeredMessage(Cut(msg[i], w), w, st))
				continue
			}
			out = append(out, paneBlank(w))
		}
		return out
	}
	legW := legColumnsIn(w)
	put(theme.ToneMuted, strategyLegHead[:legW])
	for i := range d.Legs {
		tone := theme.ToneText
		if d.Legs[i].Selected {
			tone = theme.ToneAccent
		}
		put(tone, legLine(&d.Legs[i])[:legW])
	}
	f := &d.Fig
	net := "Net " + strategy.NetText(f.NetMid) + " at mid, " + strategy.NetText(f.NetNatural) + " natural"
	greeks := "Δ " + signedText(f.Delta, 1) + " (" + strategy.Money(f.DollarDelta) + ")  Γ " + signedText(f.Gamma, 2) +
		" (" + strategy.Money(f.DollarGamma) + "/1%)  Θ " + strategy.Money(f.Theta) + "/day  V " + strategy.Money(f.Vega) + "/pt"
	risk := "Max profit " + strategy.ProfitText(f.MaxProfit) + "  Max loss " + strategy.LossText(f.MaxLoss) +
		"  Breakevens " + strategy.BreakevensText(f.Breakevens)
	pop := "PoP " + strategy.PctText(f.PoP) + " (" + f.PoPBasis() + ")"
	if w >= 120 {
		put(theme.ToneText, net+"   "+greeks)
		put(theme.ToneText, CutWords(risk+"  "+pop, w))
	} else {
		// Narrow: a figure is never cut off the line's end; the PoP's
		// basis, last, is cut at a word.
		put(theme.ToneText, CutWords(net+"   "+pop, w))
		put(theme.ToneText, greeks)
		put(theme.ToneText, risk)
	}
	put(theme.ToneMuted, CutAtItems([]string{"Risk graph: ─ expiry " + f.Expiry.String(), string(glyphToday) + " today",
		string(glyphAtDate) + " " + d.DateLabel, string(glyphSpot) + " spot", string(glyphStrike) + " strikes",
		string(glyphBreakeven) + " breakevens"}, "  ", w))
	if rest := h - len(out); rest >= 5 {
		c := riskChart(d, w, rest)
		out = append(out, c.draw(st)...)
	}
	for len(out) < h {
		out = append(out, paneBlank(w))
	}
	return out[:h]
}

// legColumns are the widths of legLine's columns; legColumnsIn is how
// much of the line (ASCII: bytes are cells) the whole columns that fit in
// w take, so that a narrow page drops Vega, not half of it.
var legColumns = [...]int{24, 9, 9, 9, 7, 9, 8, 8}

func legColumnsIn(w int) int {
	n := 0
	for _, c := range legColumns {
		if n+c > w {
			break
		}
		n += c
	}
	return n
}

// strategyLegHead is the legs' heading, in legLine's columns.
var strategyLegHead = padRight("Leg", 24) + padLeft("Bid", 9) + padLeft("Ask", 9) + padLeft("Mid", 9) +
	padLeft("IV", 7) + padLeft("Delta", 9) + padLeft("Theta", 8) + padLeft("Vega", 8)

// legLine is a leg's row under strategyLegHead.
func legLine(l *StrategyLeg) string {
	q := &l.Quote
	var b strings.Builder
	b.WriteString(padRight(l.Text, 24))
	for _, v := range []float64{q.Bid, q.Ask, q.MidPrice()} {
		b.WriteString(padLeft(fixedText(v, 2), 9))
	}
	iv := ""
	if !math.IsNaN(q.IV) {
		iv = strconv.FormatFloat(q.IV*100, 'f', 1, 64) + "%"
	}
	b.WriteString(padLeft(iv, 7))
	g := q.Greeks
	if !q.HasGreeks {
		g = pricing.Greeks{Delta: math.NaN(), Theta: math.NaN(), Vega: math.NaN()}
	}
	b.WriteString(padLeft(fixedText(g.Delta, 3), 9))
	b.WriteString(padLeft(fixedText(g.Theta, 3), 8))
	b.WriteString(padLeft(fixedText(g.Vega, 3), 8))
	return b.String()
}

func signedText(v float64, decimals int) string {
	s := fixedText(v, decimals)
	if v >= 0 && s != dash {
		s = "+" + s
	}
	return s
}

// riskChart is the risk graph: the expiry curve as the line, today and
// the chosen date as marks, spot, strikes and breakevens as columns.
func riskChart(d *StrategyData, w, h int) chart {
	c := chart{W: w, H: h, XStep: 12, YStep: 3, LineTone: theme.ToneAccent, Column: math.NaN()}
	if len(d.Xs) == 0 {
		c.MinX, c.MaxX, c.MinY, c.MaxY = 0, 1, -1, 1
		return c
	}
	c.MinX, c.MaxX = d.Xs[0], d.Xs[len(d.Xs)-1]
	ext := newChartExtent()
	for i, x := range d.Xs {
		c.Line = append(c.Line, [2]float64{x, d.Expiry[i]})
		ext.see(d.Expiry[i])
		if i < len(d.Today) {
			ext.see(d.Today[i])
		}
		if i < len(d.AtDate) {
			ext.see(d.AtDate[i])
		}
	}
	ext.see(0)
	c.MinY, c.MaxY = niceRange(ext.lo, ext.hi)
	step := max(len(d.Xs)/max(w/2, 1), 1)
	for i := 0; i < len(d.Xs); i += step {
		c.Marks = append(c.Marks, chartMark{X: d.Xs[i], Y: 0, Glyph: glyphZero, Tone: theme.ToneMuted})
	}
	for i := 0; i < len(d.Xs); i += step {
		if i < len(d.AtDate) {
			c.Marks = append(c.Marks, chartMark{X: d.Xs[i], Y: d.AtDate[i], Glyph: glyphAtDate, Tone: theme.ToneCaution})
		}
		if i < len(d.Today) {
			c.Marks = append(c.Marks, chartMark{X: d.Xs[i], Y: d.Today[i], Glyph: glyphToday, Tone: theme.ToneText})
		}
	}
	in := func(x float64) bool { return x >= c.MinX && x <= c.MaxX }
	for _, k := range d.Strikes {
		if in(k) {
			c.VLines = append(c.VLines, chartVLine{X: k, Glyph: glyphStrike, Tone: theme.ToneMuted})
		}
	}
	for _, b := range d.Fig.Breakevens {
		if in(b) {
			c.VLines = append(c.VLines, chartVLine{X: b, Glyph: glyphBreakeven, Tone: theme.ToneGood})
		}
	}
	if in(d.Spot) {
		c.VLines = append(c.VLines, chartVLine{X: d.Spot, Glyph: glyphSpot, Tone: theme.ToneAccent})
	}
	c.XLabel = func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	c.YLabel = func(v float64) string { return strategy.Money(v) }
	c.XTicks = func(lo, hi float64, n int) []chartTick { return niceTicks(lo, hi, 1, n) }
	c.YTicks = func(lo, hi float64, n int) []chartTick {
		ts := niceTicks(lo, hi, 1, n)
		for i := range ts {
			ts[i].Label = strategy.Money(ts[i].V)
		}
		return ts
	}
	return c
}
