package ui

import (
	"math"
	"strconv"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// The watchlist's rows and the selected symbol's details line.

// watchRow draws one symbol: its cells on the row's shade, the price on
// the flash shade for a moment after it moved.
func watchRow(v *WatchlistView, r *WatchRow, cursor bool, width int, st *theme.Styles) string {
	shade := theme.ShadeNone
	if cursor {
		shade = theme.ShadeCursor
	}
	l := newPaneLine(width, st.Span(theme.ToneText, shade))
	lay := &v.layout
	var b [48]byte
	for _, c := range lay.cols {
		l.blank(lay.x[c] - l.n)
		w := lay.w[c]
		if c != WColSymbol && !r.Loaded {
			if c == WColLast {
				msg := "…"
				if r.Missing {
					msg = "no such symbol"
				}
				l.put(st.Span(theme.ToneMuted, shade), msg)
				if r.Missing {
					break
				}
			}
			continue
		}
		txt, tone := watchCell(b[:0], r, c, w, v.Today, lay.vol)
		sh := shade
		if c == WColLast && v.flashing(r) {
			sh, tone = theme.ShadeFlash, signTone(boolSign(r.Rose))
		}
		if len(txt) == 1 && txt[0] == '-' {
			tone = theme.ToneMuted
		}
		sp := st.Span(tone, sh)
		switch {
		case c == WColImplied:
			word, _, _ := indicatorBadge(r.Indicator)
			l.put(sp, word)
		case c.numeric():
			l.blank(w - len(txt) - 1)
			l.putASCII(sp, txt)
		case c == WColSymbol:
			// A symbol may be any text the config file holds: cut by
			// cells, not bytes.
			l.put(sp, paneCut(text.Clean(r.Symbol), w))
		default:
			l.putASCII(sp, txt[:min(len(txt), w)])
		}
	}
	if lay.sparkW > 0 && len(r.Spark) > 1 {
		l.blank(lay.sparkX - l.n)
		tone := signTone(r.Spark[len(r.Spark)-1] - r.Spark[0])
		var sb [maxSpark * 3]byte
		l.put(st.Span(tone, shade), string(appendSpark(sb[:0], r.Spark, lay.sparkW)))
	}
	return l.line()
}

// flashing reports whether r's price moved within the flash's moment.
func (v *WatchlistView) flashing(r *WatchRow) bool {
	return v.Flash > 0 && r.MovedAt > 0 && v.Now >= r.MovedAt && v.Now-r.MovedAt < v.Flash
}

// boolSign is +1 for a rise, -1 for a fall: the sign signTone colours.
func boolSign(rose bool) float64 {
	if rose {
		return 1
	}
	return -1
}

// watchCell is a row's value in column c, at most w-1 cells (a cell is
// kept for the gap the sort mark takes in the heading), and its tone;
// vol is the volume column's one form.
func watchCell(dst []byte, r *WatchRow, c WatchCol, w int, today api.Date, vol sizeUnit) ([]byte, theme.Tone) {
	room := w - 1
	switch c {
	case WColSymbol:
		return append(dst, text.Clean(r.Symbol)...), theme.ToneBold
	case WColLast:
		if r.Implied && !math.IsNaN(r.Price) {
			dst = append(dst, '~')
			room--
		}
		return appendFit(dst, r.Price, 2, room, false), theme.ToneText
	case WColChange:
		return appendSignedFit(dst, r.Change, 2, room), signTone(r.Change)
	case WColChangePct:
		dst = appendSignedFit(dst, r.ChangePct, 2, room-1)
		if !math.IsNaN(r.ChangePct) {
			dst = append(dst, '%')
		}
		return dst, signTone(r.ChangePct)
	case WColBid:
		return appendFit(dst, r.Bid, 2, room, false), theme.ToneBidSide
	case WColAsk:
		return appendFit(dst, r.Ask, 2, room, false), theme.ToneAskSide
	case WColVolume:
		return appendSizeIn(dst, underlyingVolume(r.Volume), vol), theme.ToneText
	case WColIV30:
		return appendPlainPct(dst, r.IV30), theme.ToneText
	case WColIVChange:
		return appendSignedFit(dst, r.IV30Change, 2, room), signTone(r.IV30Change)
	case WColIVRank:
		if math.IsNaN(r.IVRank) {
			return append(dst, dash...), theme.ToneMuted
		}
		return strconv.AppendInt(dst, int64(math.Round(r.IVRank)), 10), theme.ToneText
	case WColHV30:
		return appendPlainPct(dst, r.HV30*100), theme.ToneText
	case WColEvent:
		d, earnings := r.Event, r.EventIsEarnings
		tone := theme.ToneMuted
		if earnings && d != 0 && today != 0 && today.DaysUntil(d) <= 7 {
			tone = theme.ToneWarn // a report within the week moves the options
		} else if d != 0 {
			tone = theme.ToneText
		}
		return appendEvent(dst, d, earnings), tone
	}
	return dst, theme.ToneText
}

// appendSignedFit is appendSigned, dropping decimals until it fits w.
func appendSignedFit(dst []byte, v float64, decimals, w int) []byte {
	start := len(dst)
	for d := decimals; ; d-- {
		dst = appendSigned(dst, v, d)
		if len(dst)-start <= w || d <= 0 {
			return dst
		}
		dst = dst[:start]
	}
}

// watchDetails is the selected symbol's line: its quote with sizes, the
// day's range, the implied underlying, and its next report and
// ex-dividend date with how far off they are.
func watchDetails(v *WatchlistView, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	l.blank(watchMargin)
	if v.Cursor < 0 || v.Cursor >= len(v.Rows) {
		return l.line()
	}
	r := &v.Rows[v.Cursor]
	sym := text.Clean(r.Symbol)
	switch {
	case r.Missing:
		l.put(st.Span(theme.ToneBold, theme.ShadeNone), sym)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), ": the service has no such symbol")
		return l.line()
	case !r.Loaded:
		l.put(st.Span(theme.ToneBold, theme.ShadeNone), sym)
		return l.line()
	}
	var arena [256]byte
	nums := paneNums{b: arena[:0]}
	var row segRow
	row.seg(100, false).add(theme.ToneBold, sym)
	q := row.seg(90, false)
	q.add(theme.ToneMuted, "bid ").addB(theme.ToneBidSide, nums.with(func(b []byte) []byte { return appendQuote(b, r.Bid, r.BidSize) }))
	q.add(theme.ToneMuted, "  ask ").addB(theme.ToneAskSide, nums.with(func(b []byte) []byte { return appendQuote(b, r.Ask, r.AskSize) }))
	if d := r.Earnings; d != 0 {
		e := row.seg(80, false).add(theme.ToneMuted, "earn ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendDayLabel(b, d) }))
		if r.EarningsTime != "" {
			e.add(theme.ToneText, " "+text.Clean(string(r.EarningsTime)))
		}
		e.addB(theme.ToneMuted, nums.with(func(b []byte) []byte { return appendIn(b, v.Today, d) }))
	}
	if d := r.ExDividend; d != 0 {
		row.seg(70, false).add(theme.ToneMuted, "ex-div ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendDayLabel(b, d) })).
			addB(theme.ToneMuted, nums.with(func(b []byte) []byte { return appendIn(b, v.Today, d) }))
	}
	im := row.seg(60, false).add(theme.ToneMuted, "implied ")
	im.addB(theme.ToneBidSide, nums.price(r.ImpliedBid)).add(theme.ToneMuted, " / ").addB(theme.ToneAskSide, nums.price(r.ImpliedAsk))
	ohl := row.seg(50, false)
	ohl.add(theme.ToneMuted, "O ").addB(theme.ToneText, nums.price(r.Open))
	ohl.add(theme.ToneMuted, " H ").addB(theme.ToneText, nums.price(r.High))
	ohl.add(theme.ToneMuted, " L ").addB(theme.ToneText, nums.price(r.Low))
	row.seg(40, false).add(theme.ToneMuted, "prev ").addB(theme.ToneText, nums.price(r.PrevClose))
	fitSegs(row.list(), width-watchMargin, 3)
	putSegs(&l, row.list(), 3, st, theme.ShadeNone)
	return l.line()
}

// appendIn appends " (in 9d)", " (today)" or "" when the day is unknown.
func appendIn(dst []byte, today, d api.Date) []byte {
	if today == 0 || d == 0 {
		return dst
	}
	n := today.DaysUntil(d)
	switch {
	case n == 0:
		return append(dst, " (today)"...)
	case n < 0:
		return dst
	}
	dst = append(dst, " (in "...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, "d)"...)
}
