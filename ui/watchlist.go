package ui

import (
	"math"
	"strconv"
	"time"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// WatchRow is one symbol of the watchlist page. Floats are NaN and ints
// below zero when null, as everywhere in ui.
type WatchRow struct {
	Symbol  string
	Loaded  bool // a quote arrived for it
	Missing bool // the service answered without it: no such symbol

	Price             float64
	Implied           bool // Price is the implied mid (no consolidated-tape quote)
	Change, ChangePct float64
	Bid, Ask          float64
	BidSize, AskSize  int64
	Open, High, Low   float64
	PrevClose         float64
	Volume            int64
	IV30, IV30Change  float64 // percentage points
	ImpliedBid        float64
	ImpliedAsk        float64
	Indicator         api.Indicator

	Earnings     api.Date // next report; 0 none known
	EarningsTime api.ReportTime
	ExDividend   api.Date // next ex-dividend date; 0 none known
	// Event is the sooner of the two (the NEXT EVENT column) and
	// EventIsEarnings whether it is the report.
	Event           api.Date
	EventIsEarnings bool

	// Spark is this session's prices, oldest first. MovedAt (unix
	// nanoseconds) is when the price last changed, Rose whether it rose
	// then: the price flashes for a moment after.
	Spark   []float64
	MovedAt int64
	Rose    bool
}

// WatchlistView is the watchlist page: its rows in the order shown, the
// cursor, the sort, and the state of the data the title reports.
type WatchlistView struct {
	Rows           []WatchRow
	Cursor, Offset int
	Sort           WatchCol
	Desc           bool
	Manual         bool // the user's own order: no column sorts

	Source     string
	Mode       api.Mode
	Date       api.Date // the session shown
	Historical bool
	Closed     bool
	AsOf       api.TimeOfDay // the newest quote's time; < 0 unknown
	Age        time.Duration // since the last good refresh
	Stale      bool
	Loading    bool
	NoData     bool // nothing has loaded and the last try failed
	Cost       int  // points a refresh costs

	Message string // shown instead of rows (an empty list, a failure before any data)
	Notes   []Note // under the table: skipped config entries, a save's outcome
	Today   api.Date
	Now     int64 // unix nanoseconds, for the flash
	Flash   int64 // how long a moved price flashes, nanoseconds
	Focused bool

	layout watchLayout // as last drawn, for WatchlistHit
}

// Lines of the page besides the rows: the title, the column heads and
// the selected symbol's details; each note takes one more, up to
// maxNotes.
const (
	watchChrome = 3
	maxNotes    = 3
)

// WatchlistBody is how many rows fit in height with notes under them.
func WatchlistBody(height, notes int) int { return max(height-watchChrome-min(notes, maxNotes), 0) }

// Watchlist draws the page in width x height: the title bar, the column
// heads (the sorted one marked ▲ or ▼), a row per symbol from Offset with
// the cursor's row shaded, the selected symbol's details, and the notes
// (up to three). Every state is in words or marks, not colour only: the badge's
// word, a sign on every change, "~" before an implied price.
func Watchlist(v *WatchlistView, width, height int, st *theme.Styles) []string {
	out := make([]string, 0, height)
	if width <= 0 || height <= 0 {
		return make([]string, max(height, 0))
	}
	symW := 0
	for i := range v.Rows {
		symW = max(symW, paneWidth(v.Rows[i].Symbol))
	}
	v.layout = layoutWatch(width, min(symW, 10))
	out = append(out, watchTitle(v, width, st))
	if height > 1 {
		out = append(out, watchHeads(v, width, st))
	}
	notes := min(len(v.Notes), maxNotes)
	body := WatchlistBody(height, len(v.Notes))
	if v.Message != "" && len(v.Rows) == 0 {
		for i := range body {
			l := newPaneLine(width, theme.Span{})
			if i == body/2 {
				l.blank(watchMargin)
				l.put(st.Span(theme.ToneMuted, theme.ShadeNone), text.OneLine(v.Message, 0))
			}
			out = append(out, l.line())
		}
	} else {
		v.Offset = min(max(v.Offset, 0), max(len(v.Rows)-body, 0))
		for i := range body {
			r := v.Offset + i
			if r >= len(v.Rows) {
				out = append(out, paneBlank(width))
				continue
			}
			out = append(out, watchRow(v, &v.Rows[r], r == v.Cursor && v.Focused, width, st))
		}
	}
	if len(out) < height-notes {
		out = append(out, watchDetails(v, width, st))
	}
	for i := 0; i < notes && len(out) < height; i++ {
		n := v.Notes[i]
		if i == notes-1 && len(v.Notes) > notes {
			n.Text += " (+" + strconv.Itoa(len(v.Notes)-notes) + " more)"
		}
		out = append(out, Fit(paneBlank(watchMargin)+n.line(width-watchMargin, st), width))
	}
	for len(out) < height {
		out = append(out, paneBlank(width))
	}
	return out[:height]
}

// WatchlistHit tells what the last drawn frame has at (x, y): a row
// (row >= 0), or a column heading (head), or nothing.
func WatchlistHit(v *WatchlistView, x, y int) (row int, col WatchCol, head bool) {
	c, ok := v.layout.colAt(x)
	switch {
	case y == 1:
		return -1, c, ok
	case y >= 2:
		if r := v.Offset + y - 2; r < len(v.Rows) {
			return r, c, false
		}
	}
	return -1, 0, false
}

// watchTitle is the title bar: what the list is and how it is sorted on
// the left; mode, source, freshness and the cost of a refresh on the
// right.
func watchTitle(v *WatchlistView, width int, st *theme.Styles) string {
	var arena [160]byte
	nums := paneNums{b: arena[:0]}
	var segs [9]paneSeg
	n := 0
	seg := func(prio int, right bool) *paneSeg {
		s := &segs[n]
		n++
		s.prio, s.right = prio, right
		return s
	}
	seg(100, false).add(theme.ToneAccent, "WATCHLIST")
	seg(60, false).addB(theme.ToneText, nums.int(int64(len(v.Rows)))).add(theme.ToneMuted, " symbols")
	if v.Manual {
		seg(40, false).add(theme.ToneMuted, "your order")
	} else {
		s := seg(40, false).add(theme.ToneMuted, "by ").add(theme.ToneText, v.Sort.Title())
		s.add(theme.ToneText, sortMark(v.Desc))
	}
	mode := seg(70, true)
	switch {
	case v.Historical:
		mode.add(theme.ToneAccent, "HIST ").addB(theme.ToneAccent, nums.with(func(b []byte) []byte { return append(b, v.Date.String()...) }))
	case v.Closed:
		mode.add(theme.ToneAccent, "CLOSED ").addB(theme.ToneAccent, nums.with(func(b []byte) []byte { return appendDayLabel(b, v.Date) }))
	case v.Mode == api.Delayed:
		mode.add(theme.ToneAccent, "DELAYED 15m")
	default:
		mode.add(theme.ToneAccent, "LIVE")
	}
	if v.Source != "" {
		tone := theme.ToneAccent
		if v.Source == "SANDBOX" {
			tone = theme.ToneWarn
		}
		seg(50, true).add(tone, "[").add(tone, v.Source).add(tone, "]")
	}
	switch {
	case v.Loading:
		seg(85, true).add(theme.ToneMuted, "loading…")
	case v.NoData:
		seg(95, true).add(theme.ToneError, "⚠ no data yet")
	case v.Stale:
		seg(95, true).add(theme.ToneError, "⚠ STALE ").addB(theme.ToneError, nums.dur(v.Age))
	case !v.Historical && !v.Closed:
		seg(35, true).addB(theme.ToneMuted, nums.dur(v.Age)).add(theme.ToneMuted, " ago")
	}
	if v.AsOf >= 0 && !v.Loading && !v.NoData {
		seg(30, true).add(theme.ToneMuted, "as of ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendClock(b, v.AsOf, false) }))
	}
	if v.Cost > 0 {
		seg(55, true).addB(theme.ToneText, nums.int(int64(v.Cost))).add(theme.ToneMuted, " pts a refresh")
	}
	fitSegs(segs[:n], width-2, 2)
	l := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	l.blank(watchMargin)
	putSegs(&l, segs[:n], 2, st, theme.ShadeHeader)
	return l.line()
}

func sortMark(desc bool) string {
	if desc {
		return "▼"
	}
	return "▲"
}

// watchHeads is the column headings, the sorted one marked.
func watchHeads(v *WatchlistView, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	lay := &v.layout
	var b [24]byte
	for _, c := range lay.cols {
		l.blank(lay.x[c] - l.n)
		t := append(b[:0], c.Title()...)
		tone := theme.ToneMuted
		sorted := !v.Manual && c == v.Sort
		if sorted {
			tone = theme.ToneBold
		}
		if c.numeric() {
			if sorted {
				l.blank(lay.w[c] - len(t) - 1)
				l.put(st.Span(tone, theme.ShadeNone), sortMark(v.Desc))
			} else {
				l.blank(lay.w[c] - len(t))
			}
			l.putASCII(st.Span(tone, theme.ShadeNone), t)
			continue
		}
		l.putASCII(st.Span(tone, theme.ShadeNone), t)
		if sorted {
			l.put(st.Span(tone, theme.ShadeNone), sortMark(v.Desc))
		}
	}
	if lay.sparkW > 0 {
		// Against the right edge, as the bars are: the latest price is
		// always the last cell.
		l.blank(lay.sparkX + lay.sparkW - len("TODAY") - l.n)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), "TODAY")
	}
	return l.line()
}

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
		txt, tone := watchCell(b[:0], r, c, w, v.Today)
		sh := shade
		if c == WColLast && v.Flash > 0 && r.MovedAt > 0 && v.Now >= r.MovedAt && v.Now-r.MovedAt < v.Flash {
			sh, tone = theme.ShadeFlash, theme.ToneDown
			if r.Rose {
				tone = theme.ToneUp
			}
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

// watchCell is a row's value in column c, at most w-1 cells (a cell is
// kept for the gap the sort mark takes in the heading), and its tone.
func watchCell(dst []byte, r *WatchRow, c WatchCol, w int, today api.Date) ([]byte, theme.Tone) {
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
		return appendSizeFit(dst, r.Volume, room), theme.ToneText
	case WColIV30:
		return appendPlainPct(dst, r.IV30), theme.ToneText
	case WColIVChange:
		return appendSignedFit(dst, r.IV30Change, 2, room), signTone(r.IV30Change)
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
	var segs [8]paneSeg
	n := 0
	seg := func(prio int) *paneSeg {
		s := &segs[n]
		n++
		s.prio = prio
		return s
	}
	seg(100).add(theme.ToneBold, sym)
	q := seg(90)
	q.add(theme.ToneMuted, "bid ").addB(theme.ToneBidSide, nums.with(func(b []byte) []byte { return appendQuote(b, r.Bid, r.BidSize) }))
	q.add(theme.ToneMuted, "  ask ").addB(theme.ToneAskSide, nums.with(func(b []byte) []byte { return appendQuote(b, r.Ask, r.AskSize) }))
	if d := r.Earnings; d != 0 {
		e := seg(80).add(theme.ToneMuted, "earn ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendDayLabel(b, d) }))
		if r.EarningsTime != "" {
			e.add(theme.ToneText, " "+text.Clean(string(r.EarningsTime)))
		}
		e.addB(theme.ToneMuted, nums.with(func(b []byte) []byte { return appendIn(b, v.Today, d) }))
	}
	if d := r.ExDividend; d != 0 {
		seg(70).add(theme.ToneMuted, "ex-div ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendDayLabel(b, d) })).
			addB(theme.ToneMuted, nums.with(func(b []byte) []byte { return appendIn(b, v.Today, d) }))
	}
	im := seg(60).add(theme.ToneMuted, "implied ")
	im.addB(theme.ToneBidSide, nums.price(r.ImpliedBid)).add(theme.ToneMuted, " / ").addB(theme.ToneAskSide, nums.price(r.ImpliedAsk))
	ohl := seg(50)
	ohl.add(theme.ToneMuted, "O ").addB(theme.ToneText, nums.price(r.Open))
	ohl.add(theme.ToneMuted, " H ").addB(theme.ToneText, nums.price(r.High))
	ohl.add(theme.ToneMuted, " L ").addB(theme.ToneText, nums.price(r.Low))
	seg(40).add(theme.ToneMuted, "prev ").addB(theme.ToneText, nums.price(r.PrevClose))
	fitSegs(segs[:n], width-watchMargin, 3)
	putSegs(&l, segs[:n], 3, st, theme.ShadeNone)
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
