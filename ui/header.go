package ui

import (
	"math"
	"strconv"
	"time"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// HeaderData is what the header shows: the underlying's quote from the
// last snapshot, filled by the chain pane, and where the data comes from
// and how fresh it is, filled by the app.
type HeaderData struct {
	Symbol, Source string // Source: "SANDBOX", "LOCAL" or "PRODUCTION" (a badge)

	Mode       api.Mode
	Date       api.Date // the session shown
	Historical bool     // a past day the user chose
	Closed     bool     // the session shown is over (after the close, before the open, a weekend or holiday)
	NoData     bool     // nothing has loaded yet and the last try failed
	View       string   // the ladder's column set and strike window: "quotes · 40 strikes"

	Last, PrevClose, Bid, Ask, Open, High, Low float64
	BidSize, AskSize, Volume                   int64
	IV30, IV30Change                           float64 // percentage points
	// The symbol against its stored year (HasPast: a store of past days
	// answered): IV rank and percentile 0-100, HV30 and IV30/HV30.
	HasPast              bool
	IVRank, IVPercentile float64
	HV30, IVHV           float64

	ImpliedBid, ImpliedAsk, ImpliedMid float64
	Indicator                          api.Indicator // "" unknown (historical: implied fields are null)

	AsOf    api.TimeOfDay // the snapshot's timestamp; < 0 unknown
	Age     time.Duration // since the last successful chain fetch
	Stale   bool          // the last fetch failed or the data is too old: say "STALE 42s"
	Loading bool
}

// DayLabel names a session for a title: "Fri Nov 20".
func DayLabel(d api.Date) string { return string(appendDayLabel(nil, d)) }

// appendDayLabel is DayLabel without an allocation, for the header, which
// draws it on every frame while the market is closed.
func appendDayLabel(b []byte, d api.Date) []byte {
	b = append(b, d.Weekday().String()[:3]...)
	b = append(b, ' ')
	b = append(b, d.Month().String()[:3]...)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(d.Day()), 10)
}

// Header draws the two header lines, width cells each.
//
// Line 1, on the header shade: symbol, last, change (absolute and percent,
// signed, in the up/down tone), bid x size / ask x size on the left; mode,
// source badge and freshness on the right. Line 2: the implied underlying
// with its indicator badge, IV30 and its change, volume, OHLC.
//
// When the width runs out, items go by priority, not position: the symbol,
// price, a STALE warning and the implied badge are the last to go, because
// a trader glances at the header to know what they are looking at and
// whether to trust it. Every state is spelled in words ("● GREEN",
// "⚠ STALE 42s", "LIVE"), so nothing depends on colour.
func Header(h *HeaderData, width int, st *theme.Styles) []string {
	out := make([]string, 2)
	if width <= 0 {
		return out
	}
	var arena [320]byte
	nums := paneNums{b: arena[:0]}
	// Line 1.
	var row segRow
	sym := text.Clean(h.Symbol)
	if sym == "" {
		sym = dash
	}
	row.seg(100, false).add(theme.ToneBold, sym)
	row.seg(90, false).addB(theme.ToneBold, nums.price(h.Last))
	chg := h.Last - h.PrevClose
	if !math.IsNaN(chg) && h.PrevClose != 0 {
		s := row.seg(80, false)
		tone := signTone(chg)
		s.addB(tone, nums.signed(chg, 2))
		s.add(tone, " ")
		s.addB(tone, nums.signed(chg/h.PrevClose*100, 2))
		s.add(tone, "%")
	}
	if !math.IsNaN(h.Bid) || !math.IsNaN(h.Ask) {
		s := row.seg(40, false)
		s.addB(theme.ToneBidSide, nums.with(func(b []byte) []byte { return appendQuote(b, h.Bid, h.BidSize) }))
		s.add(theme.ToneMuted, " / ")
		s.addB(theme.ToneAskSide, nums.with(func(b []byte) []byte { return appendQuote(b, h.Ask, h.AskSize) }))
	}
	// Right group: mode, source, freshness.
	modeBadge{source: h.Source, mode: h.Mode, date: h.Date, historical: h.Historical, closed: h.Closed}.add(&row, &nums)
	if h.Loading {
		row.seg(85, true).add(theme.ToneMuted, "loading…")
	}
	if h.AsOf >= 0 && !h.Loading {
		row.seg(30, true).add(theme.ToneMuted, "as of ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendClock(b, h.AsOf, false) }))
	}
	switch {
	case h.NoData:
		row.seg(95, true).add(theme.ToneError, "⚠ no data yet")
	case h.Stale:
		row.seg(95, true).add(theme.ToneError, "⚠ STALE ").addB(theme.ToneError, nums.dur(h.Age))
	case !h.Loading && !h.Historical && !h.Closed:
		// A historical day never changes: its age says nothing.
		row.seg(35, true).addB(theme.ToneMuted, nums.dur(h.Age)).add(theme.ToneMuted, " ago")
	}
	fitSegs(row.list(), width, 2)
	l := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	putSegs(&l, row.list(), 2, st, theme.ShadeHeader)
	out[0] = l.line()

	// Line 2.
	row = segRow{}
	im := row.seg(80, false)
	im.add(theme.ToneMuted, "implied ")
	im.addB(theme.ToneBidSide, nums.price(h.ImpliedBid))
	im.add(theme.ToneMuted, " / ")
	im.addB(theme.ToneAskSide, nums.price(h.ImpliedAsk))
	row.seg(75, false).add(theme.ToneMuted, "mid ").addB(theme.ToneText, nums.price(h.ImpliedMid))
	word, meaning, tone := indicatorBadge(h.Indicator)
	row.seg(90, false).add(tone, word)
	if meaning != "" {
		row.seg(15, false).add(theme.ToneMuted, meaning)
	}
	iv := row.seg(60, false)
	iv.add(theme.ToneMuted, "IV30 ")
	iv.addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPlainPct(b, h.IV30) }))
	if !math.IsNaN(h.IV30Change) {
		iv.add(theme.ToneText, " ")
		iv.addB(signTone(h.IV30Change), nums.signed(h.IV30Change, 2))
	}
	if h.HasPast {
		pastSegs(&row, &nums, h)
	}
	row.seg(30, false).add(theme.ToneMuted, "Vol ").addB(theme.ToneText, nums.size(underlyingVolume(h.Volume)))
	ohlc := row.seg(20, false)
	ohlc.add(theme.ToneMuted, "O ").addB(theme.ToneText, nums.price(h.Open))
	ohlc.add(theme.ToneMuted, " H ").addB(theme.ToneText, nums.price(h.High))
	ohlc.add(theme.ToneMuted, " L ").addB(theme.ToneText, nums.price(h.Low))
	row.seg(10, false).add(theme.ToneMuted, "prev ").addB(theme.ToneText, nums.price(h.PrevClose))
	if h.View != "" {
		row.seg(25, true).add(theme.ToneMuted, h.View)
	}
	fitSegs(row.list(), width, 2)
	l = newPaneLine(width, theme.Span{})
	putSegs(&l, row.list(), 2, st, theme.ShadeNone)
	out[1] = l.line()
	return out
}

// modeBadge is the session shown and where its data comes from, as the
// badges on the right of a title bar say them.
type modeBadge struct {
	source     string // "SANDBOX", "LOCAL" or "PRODUCTION"; "" no badge
	mode       api.Mode
	date       api.Date // the session shown
	historical bool     // a past day the user chose
	closed     bool     // the session shown is over
}

// add adds the mode badge ("LIVE", "DELAYED 15m", "CLOSED Fri Nov 20",
// "HIST 2026-11-18") and the source badge ("[SANDBOX]") to a bar's right
// group. The watch screen's header and the watchlist page both draw them
// here, so the same state reads the same on both. A date that is not
// valid is left out rather than spelled as nonsense.
func (b modeBadge) add(row *segRow, nums *paneNums) {
	mode := row.seg(70, true)
	switch {
	case b.historical:
		mode.add(theme.ToneAccent, "HIST")
		if b.date.Valid() {
			mode.add(theme.ToneAccent, " ").add(theme.ToneAccent, b.date.String())
		}
	case b.closed:
		mode.add(theme.ToneAccent, "CLOSED")
		if b.date.Valid() {
			mode.add(theme.ToneAccent, " ").addB(theme.ToneAccent, nums.with(func(d []byte) []byte { return appendDayLabel(d, b.date) }))
		}
	case b.mode == api.Delayed:
		mode.add(theme.ToneAccent, "DELAYED 15m")
	default:
		mode.add(theme.ToneAccent, "LIVE")
	}
	if b.source != "" {
		tone := theme.ToneAccent
		if b.source == "SANDBOX" {
			tone = theme.ToneWarn // simulated prices: make it hard to miss
		}
		row.seg(50, true).add(tone, "[").add(tone, b.source).add(tone, "]")
	}
}

// indicatorBadge is the implied-underlying indicator as a word and a dot:
// the word carries the meaning, the colour only repeats it.
func indicatorBadge(ind api.Indicator) (word, meaning string, tone theme.Tone) {
	switch ind {
	case api.Green:
		return "● GREEN", "tight", theme.ToneGood
	case api.Yellow:
		return "● YELLOW", "fair", theme.ToneCaution
	case api.Red:
		return "● RED", "wide", theme.ToneBad
	}
	return "○ n/a", "", theme.ToneMuted
}

// signTone is up for a rise, down for a fall, plain text for none (or
// null): the sign printed beside it says the same without colour.
func signTone(v float64) theme.Tone {
	switch {
	case v > 0:
		return theme.ToneUp
	case v < 0:
		return theme.ToneDown
	}
	return theme.ToneText
}

// appendQuote appends "452.36 x 12": a price and its size ("-" for null).
func appendQuote(dst []byte, price float64, size int64) []byte {
	dst = appendPrice(dst, price)
	dst = append(dst, " x "...)
	return appendSize(dst, size)
}

// appendPlainPct appends a value already in percent ("22.08%"), as IV30
// comes from the service; "-" for null.
func appendPlainPct(dst []byte, v float64) []byte {
	if math.IsNaN(v) {
		return append(dst, dash...)
	}
	return appendPct(dst, v/100, 2)
}

// appendClock appends an Eastern time of day "11:30:05" (with ms
// ".123"); "-" when unknown.
func appendClock(dst []byte, t api.TimeOfDay, ms bool) []byte {
	if t < 0 || t >= api.DayMillis {
		return append(dst, dash...)
	}
	v := int(t)
	h, m, s := v/3_600_000, v/60_000%60, v/1000%60
	dst = append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if ms {
		f := v % 1000
		dst = append(dst, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	}
	return dst
}

// pastSegs are the header's figures from the store of past days: "IVR 31
// 25%ile" (where IV30 stands in its year) and "HV30 14.0% IV/HV 1.03".
func pastSegs(row *segRow, nums *paneNums, h *HeaderData) {
	r := row.seg(58, false).add(theme.ToneMuted, "IVR ")
	r.addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendRound(b, h.IVRank) }))
	r.add(theme.ToneMuted, " ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendRound(b, h.IVPercentile) })).add(theme.ToneMuted, "%ile")
	hv := row.seg(40, false).add(theme.ToneMuted, "HV30 ")
	hv.addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPlainPct(b, h.HV30*100) }))
	if !math.IsNaN(h.IVHV) {
		hv.add(theme.ToneMuted, " IV/HV ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return strconv.AppendFloat(b, h.IVHV, 'f', 2, 64) }))
	}
}

// appendRound appends v rounded to a whole number; "-" for NaN and for
// a value no int64 holds (a broken store's Inf).
func appendRound(dst []byte, v float64) []byte {
	if math.IsNaN(v) || !(math.Abs(v) < 1<<62) {
		return append(dst, dash...)
	}
	return strconv.AppendInt(dst, int64(math.Round(v)), 10)
}
