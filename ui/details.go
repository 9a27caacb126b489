package ui

import (
	"math"
	"strconv"

	"chainwatch/api"
	"chainwatch/theme"
)

// DetailsData is the contract selected in the ladder.
type DetailsData struct {
	Contract *Contract // nil: nothing selected
	Strike   float64
	Type     api.OptionType
	Expiry   api.Date
	DTE      int
	Root     string
}

// detailField is one label and value of the details pane.
type detailField struct {
	label, value string
	tone         theme.Tone
}

// Details draws the selected contract in width x height: a title line
// (OSI symbol, call or put, strike, expiry, days to expiry), then NBBO
// with sizes, mid, last and its change, volume, open interest, iv and the
// greeks. With room (the wide layout's 8 lines) the fields sit in a grid
// of aligned labels; in the narrow layout's 2 lines they flow after the
// title. Fields are in order of what a trader checks first, so a short
// pane loses the least useful ones.
func Details(d *DetailsData, width, height int, st *theme.Styles) []string {
	out := blankPane(width, height)
	if height <= 0 || width <= 0 {
		return out
	}
	if d == nil || d.Contract == nil {
		l := newPaneLine(width, theme.Span{})
		msg := "no contract selected"
		l.blank((width - len(msg)) / 2)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), msg)
		out[(height-1)/2] = l.line()
		return out
	}
	c := d.Contract
	typeTone, typeWord := theme.ToneCall, "CALL"
	if d.Type == api.Put {
		typeTone, typeWord = theme.TonePut, "PUT"
	}

	// Title.
	title := newPaneLine(width, theme.Span{})
	if c.Listed() {
		title.put(st.Span(theme.ToneBold, theme.ShadeNone), c.OSI)
		title.blank(2)
	}
	title.put(st.Span(typeTone, theme.ShadeNone), typeWord)
	title.blank(1)
	title.put(st.Span(typeTone, theme.ShadeNone), fmtStrike(d.Strike))
	title.blank(1)
	exp := "-"
	if d.Expiry.Valid() {
		exp = d.Expiry.String()
	}
	title.put(st.Span(theme.ToneText, theme.ShadeNone), exp)
	title.put(st.Span(theme.ToneMuted, theme.ShadeNone), " · "+strconv.Itoa(d.DTE)+"d")
	if !c.Listed() {
		title.blank(2)
		title.put(st.Span(theme.ToneMuted, theme.ShadeNone), "not listed")
		out[0] = title.line()
		return out
	}

	chg := c.Last - c.PrevClose
	chgTone := signTone(chg)
	lastVal := fmtPrice(c.Last)
	if !math.IsNaN(chg) {
		lastVal += " " + fmtSigned(chg, 2)
	}
	fields := [...]detailField{
		{"Bid", string(appendQuote(nil, c.Bid, c.BidSize)), theme.ToneBidSide},
		{"Ask", string(appendQuote(nil, c.Ask, c.AskSize)), theme.ToneAskSide},
		{"Mid", fmtPrice(c.Mid), theme.ToneText},
		{"Last", lastVal, chgTone},
		{"Vol", fmtSize(c.Volume), theme.ToneText},
		{"OI", fmtSize(c.OI), theme.ToneText},
		{"IV", fmtPct(c.IV, 1) + noIVReason(c), theme.ToneText},
		{"Delta", fmtGreek(c.Delta, 3), theme.ToneText},
		{"Gamma", fmtGreek(c.Gamma, 4), theme.ToneText},
		{"Theta", fmtGreek(c.Theta, 3), theme.ToneText},
		{"Vega", fmtGreek(c.Vega, 3), theme.ToneText},
		{"Rho", fmtGreek(c.Rho, 3), theme.ToneText},
		{"Trades", fmtSize(c.Trades), theme.ToneText},
		{"Range", fmtPrice(c.Low) + " - " + fmtPrice(c.High), theme.ToneText},
	}
	label := st.Span(theme.ToneMuted, theme.ShadeNone)

	if height >= 3 {
		// Grid: columns of at least 24 cells, row by row.
		out[0] = title.line()
		cols := max(1, width/24)
		colW := width / cols
		f := 0
		for row := 1; row < height && f < len(fields); row++ {
			l := newPaneLine(width, theme.Span{})
			for col := 0; col < cols && f < len(fields); col++ {
				start := l.n
				l.put(label, padRight(fields[f].label, 7))
				l.put(st.Span(fields[f].tone, theme.ShadeNone), fields[f].value)
				if col < cols-1 {
					l.blank(colW - (l.n - start))
				}
				f++
			}
			out[row] = l.line()
		}
		return out
	}

	// Flow: fields after the title, then on the next line.
	l := title
	row := 0
	for _, fd := range fields {
		w := len(fd.label) + 1 + paneWidth(fd.value)
		if l.n > 0 && l.room() < w+2 {
			out[row] = l.line()
			row++
			if row >= height {
				return out
			}
			l = newPaneLine(width, theme.Span{})
		}
		if l.n > 0 {
			l.blank(2)
		}
		l.put(label, fd.label+" ")
		l.put(st.Span(fd.tone, theme.ShadeNone), fd.value)
	}
	out[row] = l.line()
	return out
}

// noIVReason says why a contract has no IV (and so no greeks), after the
// dash: a trader seeing "-" deep in the wings should know whether the
// market or the data is missing. "" when it has one.
func noIVReason(c *Contract) string {
	switch {
	case !math.IsNaN(c.IV):
		return ""
	case math.IsNaN(c.Bid) || math.IsNaN(c.Ask):
		return " no market"
	case c.Bid <= 0:
		return " no bid"
	case c.Ask-c.Bid > 0.10 && c.Ask-c.Bid > 0.25*(c.Bid+c.Ask):
		return " too wide"
	}
	return " none given"
}
