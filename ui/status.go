package ui

import (
	"math"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/text"
	"chainwatch/theme"
)

// StatusData is the status bar: what polling costs and what comes next.
type StatusData struct {
	Spent                     int     // points spent this session
	FromHistory               int     // answers from the store of past days this session (0 points)
	HourlyRate, BudgetPerHour float64 // points per hour: spending now, and allowed
	RateKnown                 bool    // HourlyRate is measured (polling has begun)
	Paused                    string  // "paused until 09:30 ET (in 13h20m)": no rate, no next
	PointsLeft                int64   // this month, from X-Monthly-Points-Left; -1 unknown
	Daily                     bool    // the allowance renews daily (the trial plan): "left today"

	Next     time.Duration // until the next refresh
	NextFeed string        // which one ("chain", "tape"); "" none scheduled
	NextCost int           // its points, shown where a page asks (the vol page's term structure); 0 not shown
	// Shared is how many sessions show the feed counted down (chainwatch
	// serve): its points are spent once for all of them; below 2 not shown.
	Shared int

	Err    string        // last error, "" none
	ErrAge time.Duration // since it happened
	// Note is word of something done ("saved as position 1"), in Err's
	// place without its ⚠: drawn only while there is no Err.
	Note string

	Hint string // short help already rendered by the caller, e.g. "? help  q quit"
}

// rateSeg is the polling rate against the budget, or why nothing is
// polled; the rate turns to the warning tone above the budget.
func rateSeg(row *segRow, s *StatusData, nums *paneNums) {
	rate := row.seg(70, false)
	rateTone := theme.ToneText
	if s.BudgetPerHour > 0 && s.HourlyRate > s.BudgetPerHour {
		rateTone = theme.ToneWarn
	}
	switch {
	case s.Paused != "":
		// Nothing is polled: a rate would only describe the past.
		rate.add(theme.ToneText, s.Paused)
	case s.RateKnown:
		rate.addB(rateTone, nums.with(func(b []byte) []byte { return appendRate(b, s.HourlyRate) })).add(rateTone, "/h")
		if s.BudgetPerHour > 0 {
			rate.add(theme.ToneMuted, " of ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendRate(b, s.BudgetPerHour) })).add(theme.ToneMuted, "/h")
		}
	case s.BudgetPerHour > 0:
		rate.add(theme.ToneMuted, "budget ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendRate(b, s.BudgetPerHour) })).add(theme.ToneMuted, "/h")
	}
}

// Status draws the one-line status bar, width cells, on the header shade:
// "pts 124 session · 310/h of 2400/h · 3.9M left · next chain 3s ·
// ⚠ 429 rate limited 12s ago", with the hint against the right edge.
//
// The rate turns to the warning tone when it runs above the budget. The
// last error outranks everything: the next refresh and the hint make room
// for it, but rather than push the points figures out it is cut with "…"
// (never below a readable stub), because the bar exists to say what
// polling costs.
func Status(s *StatusData, width int, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	var arena [128]byte
	nums := paneNums{b: arena[:0]}
	var row segRow
	pts := row.seg(60, false).add(theme.ToneMuted, "pts ").addB(theme.ToneText, nums.int(int64(s.Spent))).add(theme.ToneMuted, " session")
	if s.FromHistory > 0 {
		pts.add(theme.ToneMuted, " (").addB(theme.ToneText, nums.int(int64(s.FromHistory))).add(theme.ToneMuted, " from history)")
	}
	rateSeg(&row, s, &nums)
	left := row.seg(50, false).addB(theme.ToneText, nums.size(s.PointsLeft)).add(theme.ToneMuted, " left") // "-" when unknown
	if s.Daily {
		left.add(theme.ToneMuted, " today")
	}
	if s.NextFeed != "" && s.Paused == "" {
		nx := row.seg(40, false).add(theme.ToneMuted, "next ").add(theme.ToneText, s.NextFeed).add(theme.ToneText, " ")
		if s.Next > 0 {
			// Round up: "next chain 0s" would read as stuck.
			nx.addB(theme.ToneText, nums.dur(s.Next+time.Second-1))
		} else {
			nx.add(theme.ToneText, "now")
		}
		if s.NextCost > 0 {
			nx.add(theme.ToneMuted, " (").addB(theme.ToneText, nums.int(int64(s.NextCost))).add(theme.ToneMuted, " pts)")
		}
	}
	if s.Shared > 1 {
		row.seg(35, false).add(theme.ToneMuted, "shared by ").addB(theme.ToneText, nums.int(int64(s.Shared))).add(theme.ToneMuted, " sessions")
	}
	if s.Err != "" {
		e := row.seg(90, false)
		e.add(theme.ToneError, "⚠ ").add(theme.ToneError, text.OneLine(s.Err, 0))
		if s.ErrAge > 0 {
			e.add(theme.ToneMuted, " ").addB(theme.ToneMuted, nums.dur(s.ErrAge)).add(theme.ToneMuted, " ago")
		}
		e.shrink = 16
		// The next refresh and the hint give way to a whole error; the
		// points figures do not.
		e.yield = 50
	}
	if s.Note != "" && s.Err == "" {
		n := row.seg(90, false).add(theme.ToneText, text.OneLine(s.Note, 0))
		n.shrink, n.yield = 16, 50
	}
	if s.Hint != "" {
		h := row.seg(45, true)
		h.parts[0] = panePart{tone: theme.ToneText, text: s.Hint}
		h.n = 1
		h.w = ansi.StringWidth(s.Hint)
	}
	fitSegs(row.list(), width-2, 3)
	l := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	l.blank(1)
	// Separators: a muted dot between left items.
	sep := st.Span(theme.ToneMuted, theme.ShadeHeader)
	first := true
	segs := row.list()
	for i := range segs {
		sg := &segs[i]
		if sg.drop || sg.right {
			continue
		}
		if !first {
			l.put(sep, " · ")
		}
		first = false
		putSeg(&l, sg, st, theme.ShadeHeader)
	}
	for i := range segs {
		if sg := &segs[i]; !sg.drop && sg.right {
			l.blank(l.room() - sg.allow - 1)
			// The hint may carry its own styling: write it as it is.
			if sg.allow < sg.w {
				l.raw(ansi.Truncate(s.Hint, sg.allow, ""), sg.allow)
			} else {
				l.raw(s.Hint, sg.w)
			}
		}
	}
	return l.line()
}

// appendRate appends a points rate without decimals ("310"; "123.4k"
// when long); "-" for none.
func appendRate(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return append(dst, dash...)
	}
	return appendSize(dst, int64(math.Round(v)))
}
