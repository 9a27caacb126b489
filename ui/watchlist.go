package ui

import (
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
	IVRank            float64 // 0-100 over the stored year; NaN unknown
	HV30              float64 // realized vol, a fraction; NaN unknown
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
	// FromHistory: the last refresh came from the store of past days
	// (0 points); Past: some row has figures from it (the IVR and HV30
	// columns are drawn).
	FromHistory bool
	Past        bool

	Message string   // shown instead of rows (an empty list, a failure before any data)
	Notes   []Note   // under the table: skipped config entries, a save's outcome
	Today   api.Date // the day an event's days count from: the shown day, as everywhere
	Now     int64    // unix nanoseconds, for the flash
	Flash   int64    // how long a moved price flashes, nanoseconds
	Focused bool

	layout watchLayout // as last drawn, for WatchlistHit
	body   int         // rows drawn, likewise
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
	v.layout = layoutWatch(width, min(symW, 10), v.Past)
	// Every row's volume in one form, the largest's, whether on screen or
	// scrolled off: the column does not change its form as it scrolls.
	var most int64
	for i := range v.Rows {
		most = max(most, v.Rows[i].Volume)
	}
	v.layout.vol = sizeUnitFor(most, v.layout.w[WColVolume]-1)
	out = append(out, watchTitle(v, width, st))
	if height > 1 {
		out = append(out, watchHeads(v, width, st))
	}
	notes := min(len(v.Notes), maxNotes)
	body := WatchlistBody(height, len(v.Notes))
	v.body = body
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
	case y >= 2 && y-2 < v.body:
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
	var row segRow
	row.seg(100, false).add(theme.ToneAccent, "WATCHLIST")
	row.seg(60, false).addB(theme.ToneText, nums.int(int64(len(v.Rows)))).add(theme.ToneMuted, " symbols")
	if v.Manual {
		row.seg(40, false).add(theme.ToneMuted, "your order")
	} else {
		s := row.seg(40, false).add(theme.ToneMuted, "by ").add(theme.ToneText, v.Sort.Title())
		s.add(theme.ToneText, sortMark(v.Desc))
	}
	modeBadge{source: v.Source, mode: v.Mode, date: v.Date, historical: v.Historical, closed: v.Closed}.add(&row, &nums)
	switch {
	case v.Loading:
		row.seg(85, true).add(theme.ToneMuted, "loading…")
	case v.NoData:
		row.seg(95, true).add(theme.ToneError, "⚠ no data yet")
	case v.Stale:
		row.seg(95, true).add(theme.ToneError, "⚠ STALE ").addB(theme.ToneError, nums.dur(v.Age))
	case !v.Historical && !v.Closed:
		row.seg(35, true).addB(theme.ToneMuted, nums.dur(v.Age)).add(theme.ToneMuted, " ago")
	}
	if v.AsOf >= 0 && !v.Loading && !v.NoData {
		row.seg(30, true).add(theme.ToneMuted, "as of ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendClock(b, v.AsOf, false) }))
	}
	switch {
	case v.FromHistory:
		row.seg(55, true).add(theme.ToneMuted, "from history, ").addB(theme.ToneText, nums.int(0)).add(theme.ToneMuted, " pts")
	case v.Cost > 0:
		row.seg(55, true).addB(theme.ToneText, nums.int(int64(v.Cost))).add(theme.ToneMuted, " pts a refresh")
	}
	fitSegs(row.list(), width-2, 2)
	l := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	l.blank(watchMargin)
	putSegs(&l, row.list(), 2, st, theme.ShadeHeader)
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
