package ui

import (
	"math"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/tas"
	"chainwatch/text"
	"chainwatch/theme"
)

// ContractHeaderData is the top of the contract page: the option, its
// quote and greeks from the last snapshot, the underlying, a theoretical
// value set against the mid, and how fresh it all is.
type ContractHeaderData struct {
	OSI        string
	Type       api.OptionType
	Strike     float64
	Expiry     api.Date
	DTE        int
	Underlying string
	Quote      Contract // bid, ask, sizes, mid, last, volume, OI, IV, greeks; NaN or < 0 unknown
	Spot       float64  // the underlying's price now; NaN unknown
	Theo       float64  // the last print carried by its greeks to now (tas.Theo); NaN unknown
	Status     string   // "live · 3s ago", "Fri Nov 20 · closed", "loading…"
	Stale      bool     // the status is a warning: the last refresh failed or is late
}

// ContractHeader draws the page's three header lines in width cells: the
// option and the status; the quote; IV, greeks and the theo. The second
// and third lines flow: at 80 cells the last fields of each give way.
func ContractHeader(h *ContractHeaderData, width int, st *theme.Styles) []string {
	out := make([]string, 3)
	if width <= 0 {
		return out
	}
	sp := func(t theme.Tone) theme.Span { return st.Span(t, theme.ShadeHeader) }
	typeTone, typeWord := theme.ToneCall, "CALL"
	if h.Type == api.Put {
		typeTone, typeWord = theme.TonePut, "PUT"
	}
	status := text.Clean(h.Status)
	statusTone := theme.ToneMuted
	if h.Stale {
		statusTone, status = theme.ToneWarn, "! "+status
	}
	exp := dash
	if h.Expiry.Valid() {
		exp = h.Expiry.String()
	}
	what := typeWord + " " + fmtStrike(h.Strike)
	dte := " · " + strconv.Itoa(h.DTE) + " DTE"
	und := ""
	if h.Underlying != "" {
		und = text.Clean(h.Underlying) + " " + fmtPrice(h.Spot)
	}
	// The status says which day and how fresh: it stays, and the
	// underlying's price gives way to it on a narrow screen.
	need := 1 + paneWidth(h.OSI) + 2 + len(what) + 1 + len(exp) + len(dte) + 2 + paneWidth(status) + 1
	if und != "" && need+3+paneWidth(und) > width {
		und = ""
	}
	title := newPaneLine(width, sp(theme.ToneText))
	title.blank(1)
	title.put(sp(theme.ToneBold), text.Clean(h.OSI))
	title.blank(2)
	title.put(sp(typeTone), what)
	title.blank(1)
	title.put(sp(theme.ToneText), exp)
	title.put(sp(theme.ToneMuted), dte)
	if und != "" {
		title.put(sp(theme.ToneMuted), " · ")
		title.put(sp(theme.ToneText), und)
	}
	if gap := title.room() - paneWidth(status) - 1; gap >= 2 && status != "" {
		title.blank(gap)
		title.put(sp(statusTone), status)
	}
	out[0] = title.line()

	c := &h.Quote
	mid := c.Mid
	if math.IsNaN(mid) && !math.IsNaN(c.Bid) && !math.IsNaN(c.Ask) {
		mid = (c.Bid + c.Ask) / 2
	}
	lastVal := fmtPrice(c.Last)
	if chg := c.Last - c.PrevClose; !math.IsNaN(chg) {
		lastVal += " " + fmtSigned(chg, 2)
	}
	theo := fmtPrice(h.Theo)
	if edge := h.Theo - mid; !math.IsNaN(edge) {
		// "vs mid 0.00" read as a mid of nothing: the edge says which side.
		switch e := fmtPrice(math.Abs(edge)); {
		case e == fmtPrice(0):
			theo += " (at mid)"
		case edge > 0:
			theo += " (" + e + " over mid)"
		default:
			theo += " (" + e + " under mid)"
		}
	}
	quote := []detailField{
		{"Bid", string(appendQuote(nil, c.Bid, c.BidSize)), theme.ToneBidSide},
		{"Ask", string(appendQuote(nil, c.Ask, c.AskSize)), theme.ToneAskSide},
		{"Mid", fmtPrice(mid), theme.ToneText},
		{"Last", lastVal, signTone(c.Last - c.PrevClose)},
		{"Vol", fmtSize(c.Volume), theme.ToneText},
		{"OI", fmtSize(c.OI), theme.ToneText},
		{"Trades", fmtSize(c.Trades), theme.ToneText},
	}
	greeks := []detailField{
		{"IV", fmtPct(c.IV, 1), theme.ToneCaution},
		{"Delta", fmtGreek(c.Delta, 3), theme.ToneText},
		{"Theo", theo, theme.ToneAccent},
		{"Gamma", fmtGreek(c.Gamma, 4), theme.ToneText},
		{"Theta", fmtGreek(c.Theta, 3), theme.ToneText},
		{"Vega", fmtGreek(c.Vega, 3), theme.ToneText},
	}
	out[1] = fieldLine(quote, width, st)
	out[2] = fieldLine(greeks, width, st)
	return out
}

// fieldLine puts labelled fields on one line, two blanks apart, as many as
// fit whole.
func fieldLine(fields []detailField, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	label := st.Span(theme.ToneMuted, theme.ShadeNone)
	l.blank(1)
	for i, f := range fields {
		need := len(f.label) + 1 + paneWidth(f.value)
		if i > 0 {
			need += 2
		}
		if need > l.room() {
			break
		}
		if i > 0 {
			l.blank(2)
		}
		l.put(label, f.label+" ")
		l.put(st.Span(f.tone, theme.ShadeNone), f.value)
	}
	return l.line()
}

// ContractSummary draws the day's figures in width x height, flowed over
// the lines, most wanted first: who traded on which side and the
// premium, then the prints that stand out; the cost of the page's
// refreshes on the last line.
func ContractSummary(s *tas.Summary, cost string, width, height int, st *theme.Styles) []string {
	out := make([]string, max(height, 0))
	if height <= 0 {
		return out
	}
	pct := func(part int64) string {
		if s.Volume == 0 {
			return ""
		}
		return " " + strconv.Itoa(int(math.Round(100*float64(part)/float64(s.Volume)))) + "%"
	}
	flow := []detailField{
		{"Vol", fmtSize(s.Volume), theme.ToneBold},
		{"bid", fmtSize(s.VolBid) + pct(s.VolBid), theme.ToneBidSide},
		{"mid", fmtSize(s.VolMid) + pct(s.VolMid), theme.ToneMidSide},
		{"ask", fmtSize(s.VolAsk) + pct(s.VolAsk), theme.ToneAskSide},
		{"Premium", fmtMoney(s.Premium), theme.ToneBold},
	}
	largest := dash
	if s.HasLargest {
		t := &s.Largest
		code, _ := TradeAtCode(t.At)
		largest = strconv.FormatInt(t.Size, 10) + " @" + fmtPrice(t.Price) + " " + code + " " +
			string(appendClock(nil, t.Time, false)) + " " + fmtMoney(t.Premium())
	}
	marks := []detailField{
		{"Largest", largest, theme.ToneBlock},
		{"Blocks", strconv.Itoa(s.Blocks) + " (" + fmtSize(s.BlockVolume) + ")", theme.ToneBlock},
		{"Sweeps", strconv.Itoa(s.Sweeps) + " (" + fmtSize(s.SweepVolume) + ")", theme.ToneAccent},
		{"IV traded", fmtPct(s.VWIV, 1), theme.ToneCaution},
		{"VWAP", fmtPrice(s.VWAP), theme.ToneText},
		{"Premium at ask", fmtMoney(s.PremiumAsk), theme.ToneAskSide},
		{"at bid", fmtMoney(s.PremiumBid), theme.ToneBidSide},
	}
	rows := height
	if cost != "" && height > 1 {
		rows--
		l := newPaneLine(width, theme.Span{})
		l.blank(1)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), "Cost ")
		// Cut at a clause, never inside one: the total and any pause come
		// first, the breakdown by feed gives way.
		l.put(st.Span(theme.ToneText, theme.ShadeNone), CutAtItems(strings.Split(text.Clean(cost), " · "), " · ", l.room()-1))
		out[height-1] = l.line()
	}
	copy(out, flowFields(append(flow, marks...), width, rows, st))
	return out
}

// flowFields puts labelled fields on up to height lines of width cells,
// two blanks apart, a field never split; what does not fit is left off.
func flowFields(fields []detailField, width, height int, st *theme.Styles) []string {
	out := make([]string, max(height, 0))
	label := st.Span(theme.ToneMuted, theme.ShadeNone)
	row := 0
	l := newPaneLine(width, theme.Span{})
	l.blank(1)
	for _, f := range fields {
		need := len(f.label) + 1 + paneWidth(f.value)
		if l.n > 1 && need+2 > l.room() {
			if row >= height {
				break
			}
			out[row] = l.line()
			row++
			l = newPaneLine(width, theme.Span{})
			l.blank(1)
		}
		if row >= height || need > l.room() {
			continue
		}
		if l.n > 1 {
			l.blank(2)
		}
		l.put(label, f.label+" ")
		l.put(st.Span(f.tone, theme.ShadeNone), f.value)
	}
	if row < height {
		out[row] = l.line()
		row++
	}
	for ; row < height; row++ {
		out[row] = paneBlank(width)
	}
	return out
}

// fmtMoney is dollars as a trader reads a premium: "$950", "$18.0k",
// "$1.2M"; "-" unknown.
func fmtMoney(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return dash
	}
	return "$" + string(appendSize(nil, int64(math.Round(v))))
}
