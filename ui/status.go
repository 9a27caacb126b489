package ui

import (
	"math"
	"strings"
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
	nextSeg(&row, s, &nums)
	messageSegs(&row, s, &nums)
	hint, help := hintSegs(&row, s.Hint)
	fitSegs(row.list(), width-2, 3)
	l := newPaneLine(width, st.Span(theme.ToneText, theme.ShadeHeader))
	l.blank(1)
	putLeftSegs(&l, row.list(), st)
	putHint(&l, s.Hint, hint, help)
	return l.line()
}

// hintItems are a hint's items: "/ symbol  ? help  q quit", two blanks
// apart.
func hintItems(hint string) []string { return strings.Split(hint, "  ") }

// hintHelp is the hint's item that opens the help ("? help"); "" none.
func hintHelp(hint string) string {
	for _, it := range hintItems(hint) {
		if strings.HasSuffix(ansi.Strip(it), " help") {
			return it
		}
	}
	return ""
}

// appendRate appends a points rate without decimals ("310"; "123.4k"
// when long); "-" for none.
func appendRate(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return append(dst, dash...)
	}
	return appendSize(dst, int64(math.Round(v)))
}

// nextSeg is the next refresh: "next chain 3s (15 pts)". A refresh whose
// cost the page shows (the vol page's term structure) is worth more than
// the points left.
func nextSeg(row *segRow, s *StatusData, nums *paneNums) {
	if s.NextFeed == "" || s.Paused != "" {
		return
	}
	nx := row.seg(40, false)
	if s.NextCost > 0 {
		nx.prio = 52
	}
	nx.add(theme.ToneMuted, "next ").add(theme.ToneText, s.NextFeed).add(theme.ToneText, " ")
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

// messageSegs are the desk's sharing, the last error and a note. The next
// refresh and the hint give way to a whole error or note; the points
// figures do not (it is cut instead).
func messageSegs(row *segRow, s *StatusData, nums *paneNums) {
	if s.Shared > 1 {
		row.seg(35, false).add(theme.ToneMuted, "shared by ").addB(theme.ToneText, nums.int(int64(s.Shared))).add(theme.ToneMuted, " sessions")
	}
	if s.Err != "" {
		e := row.seg(90, false)
		e.add(theme.ToneError, "⚠ ").add(theme.ToneError, text.OneLine(s.Err, 0))
		if s.ErrAge > 0 {
			e.add(theme.ToneMuted, " ").addB(theme.ToneMuted, nums.dur(s.ErrAge)).add(theme.ToneMuted, " ago")
		}
		e.shrink, e.yield = 16, 50
	}
	if s.Note != "" && s.Err == "" {
		n := row.seg(90, false).add(theme.ToneText, text.OneLine(s.Note, 0))
		n.shrink, n.yield = 16, 50
	}
}

// hintSegs are the hint's segments: its help item ("? help", the way to
// every other key) a segment of its own that outranks the points left, so
// that it stays at 80 columns; the rest of it one that goes whole.
func hintSegs(row *segRow, hint string) (all, help *paneSeg) {
	if hint == "" {
		return nil, nil
	}
	hw := ansi.StringWidth(hint)
	if it := hintHelp(hint); it != "" && it != hint {
		help = row.seg(55, true)
		help.w = ansi.StringWidth(it)
		hw -= help.w + 3 // the segments' gap stands for the two blanks
	}
	all = row.seg(45, true)
	all.w = hw
	return all, help
}

// putLeftSegs writes the kept left segments, a muted dot between them.
func putLeftSegs(l *paneLine, segs []paneSeg, st *theme.Styles) {
	sep := st.Span(theme.ToneMuted, theme.ShadeHeader)
	first := true
	for i := range segs {
		sg := &segs[i]
		if sg.drop || sg.right {
			continue
		}
		if !first {
			l.put(sep, " · ")
		}
		first = false
		putSeg(l, sg, st, theme.ShadeHeader)
	}
}

// putHint writes the hint against the right edge: as it is (it may carry
// its own styling), the whole of it, or its help item alone.
func putHint(l *paneLine, text string, hint, help *paneSeg) {
	switch {
	case hint != nil && !hint.drop && (help == nil || !help.drop):
		w := ansi.StringWidth(text)
		l.blank(l.room() - w - 1)
		l.raw(text, w)
	case help != nil && !help.drop:
		it := hintHelp(text)
		l.blank(l.room() - help.w - 1)
		l.raw(it, help.w)
	}
}
