package ui

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
	"chainwatch/vol"
)

// VolData is what the vol page draws: the symbol's figures per expiry,
// the selected expiry's smile, and what the term structure costs.
type VolData struct {
	Symbol   string
	Spot     float64
	IV30     vol.IV30
	Figures  []vol.Figures // per expiry, ascending
	Selected int           // index into Figures; -1 none
	// Earnings is the index of the first expiry on or after the next
	// earnings report (its options carry the event); -1 none known.
	Earnings int
	Smile    []vol.Row // the selected expiry's strikes to plot
	Cursor   float64   // the ladder cursor's strike; NaN none
	Both     bool      // the smile shows calls and puts, not the OTM side merged
	Term     TermCost
	// Implied is the next earnings report's move as the options price it
	// (nil: none known or no two-sided ATM market); Realized the last
	// reports' moves from the store of past days, newest first.
	Implied  *vol.Implied
	Realized []vol.EarningsMove
	// Missing are the last reports whose closes the store lacks (no
	// realized move), BackfillDays the `history backfill --days` that
	// stores them.
	Missing      []api.EarningsEvent
	BackfillDays int
	Message      string // instead of everything: loading, no such symbol
	// Charts, when set, keeps the drawn charts between frames: a chart's
	// canvas is the dearest thing the page draws, and most frames of the
	// page only move a countdown.
	Charts *VolCharts
}

// VolCharts is the charts as last drawn and what they were drawn from.
type VolCharts struct {
	key         uint64
	smile, term []string
}

// TermCost is what the term structure (every expiry) costs and how old
// the whole chain behind it is.
type TermCost struct {
	Points   int           // a whole chain
	Every    time.Duration // the refresh interval while the page shows; 0: not refreshed (a past day)
	Next     time.Duration // until the next; < 0: none planned
	Age      time.Duration // of the whole chain held; < 0: none yet
	Fetching bool
}

// minChartW is the narrowest a chart is drawn side by side with the
// other: the axis labels and a dozen strikes.
const minChartW = 36

// VolPage draws the vol page in exactly h lines of width cells: a summary
// line, the smile and the term structure (side by side, or stacked on a
// tall narrow terminal), the selected expiry's figures, and the table of
// every expiry, scrolled to keep the selected one in sight.
func VolPage(d *VolData, width, height int, st *theme.Styles) []string {
	out := make([]string, 0, max(height, 0))
	if width <= 0 || height <= 0 {
		return make([]string, max(height, 0))
	}
	blank := paneBlank(width)
	if d.Message != "" || len(d.Figures) == 0 {
		msg := d.Message
		if msg == "" {
			msg = "no expiries held for " + d.Symbol
		}
		msg = Cut(text.Clean(msg), width)
		for i := range height {
			if i == (height-1)/2 {
				out = append(out, centeredMessage(msg, width, st))
				continue
			}
			out = append(out, blank)
		}
		return out
	}
	out = append(out, volSummary(d, width, st))
	rest := height - 1
	tableH := min(len(d.Figures)+1, max(rest/3, 4))
	chartsH := rest - tableH - 1 // a line for the selected expiry's figures
	stack := width < 2*minChartW+1 || (width < 100 && chartsH >= 28)
	if chartsH < 6 {
		// A short page: the table gives way before the charts do.
		tableH = max(rest-1-6, 0)
		chartsH = rest - tableH - 1
	}
	sel := -1
	if d.Selected >= 0 && d.Selected < len(d.Figures) {
		sel = d.Selected
	}
	smileTitle, termTitle := volChartTitles(d, sel)
	sw, sh, tw, th := width, chartsH/2-1, width, chartsH-chartsH/2-1
	if !stack {
		sw = (width - 1) / 2
		tw, sh, th = width-sw-1, chartsH-1, chartsH-1
	}
	smile, term := d.charts(sel, sw, sh, tw, th, st)
	left, right := chartBlock(smileTitle, smile, sw, st), chartBlock(termTitle, term, tw, st)
	if stack {
		out = append(append(out, left...), right...)
	} else {
		gap := st.BorderSpan.Wrap("│")
		for i := range chartsH {
			out = append(out, left[i]+gap+right[i])
		}
	}
	out = append(out, volSelected(d, sel, width, st))
	out = append(out, volTable(d, sel, width, tableH, st)...)
	for len(out) < height {
		out = append(out, blank)
	}
	return out[:height]
}

// charts draws the smile (sw x sh) and the term structure (tw x th),
// or returns them as drawn last when nothing they show has changed.
func (d *VolData) charts(sel, sw, sh, tw, th int, st *theme.Styles) (smile, term []string) {
	h := fnv.New64a()
	var b [8]byte
	put := func(v float64) { binary.LittleEndian.PutUint64(b[:], math.Float64bits(v)); h.Write(b[:]) }
	for _, v := range [...]int{sel, sw, sh, tw, th, d.Earnings, len(d.Smile), len(d.Figures)} {
		put(float64(v))
	}
	put(d.Spot)
	put(d.Cursor)
	if d.Both {
		put(1)
	}
	for i := range d.Smile {
		r := &d.Smile[i]
		put(r.Strike)
		put(r.Call.IV)
		put(r.Put.IV)
	}
	for i := range d.Figures {
		put(float64(d.Figures[i].DTE))
		put(d.Figures[i].ATMIV)
	}
	fmt.Fprintf(h, "%p", st) // another theme (NO_COLOR, the terminal's background) is another drawing
	key := h.Sum64()
	if c := d.Charts; c != nil && c.key == key && c.smile != nil {
		return c.smile, c.term
	}
	sc := smileChart(d.Smile, d.Spot, d.Cursor, d.Both, sw, sh)
	tc := termChart(d.Figures, sel, d.Earnings, tw, th)
	smile, term = sc.draw(st), tc.draw(st)
	if d.Charts != nil {
		*d.Charts = VolCharts{key: key, smile: smile, term: term}
	}
	return smile, term
}

// chartBlock is a chart's lines under its title line, w cells wide.
func chartBlock(title []paneSeg, chart []string, w int, st *theme.Styles) []string {
	l := newPaneLine(w, theme.Span{})
	fitSegs(title, w, 2)
	putSegs(&l, title, 2, st, theme.ShadeNone)
	return append([]string{l.line()}, chart...)
}

// volChartTitles are the charts' titles with their legends, the glyphs
// first so a narrow chart keeps them.
func volChartTitles(d *VolData, sel int) (smile, term []paneSeg) {
	smile = make([]paneSeg, 4)
	what := "Smile"
	if sel >= 0 {
		f := &d.Figures[sel]
		what += " " + fmtDate(f.Date) + " " + strconv.Itoa(f.DTE) + "d"
	}
	smile[0].prio = 90
	smile[0].add(theme.ToneBold, what)
	smile[1].prio = 80
	if d.Both {
		smile[1].add(theme.ToneCall, "● call").add(theme.ToneMuted, " ").add(theme.TonePut, "○ put").add(theme.ToneMuted, " ◐ both")
	} else {
		// In the order they sit: the OTM puts left of spot, the calls right.
		smile[1].add(theme.TonePut, "○ put").add(theme.ToneMuted, " ").add(theme.ToneCall, "● call")
	}
	smile[2].prio = 70
	smile[2].add(theme.ToneAccent, "┊ spot")
	smile[3].prio = 40
	smile[3].add(theme.ToneMuted, "IV % by strike")

	term = make([]paneSeg, 4)
	term[0].prio = 90
	term[0].add(theme.ToneBold, "Term structure")
	term[1].prio = 80
	term[1].add(theme.ToneBold, "◉ ").add(theme.ToneMuted, "selected")
	term[2].prio = 70
	if d.Earnings >= 0 {
		term[2].add(theme.ToneWarn, "◆ ").add(theme.ToneMuted, "earnings")
	}
	term[3].prio = 40
	term[3].add(theme.ToneMuted, "ATM IV % by DTE")
	return smile, term
}

// volSummary is the page's first line: the symbol and spot, IV30 against
// its previous close, and what the term structure costs and when it is
// fetched next.
func volSummary(d *VolData, width int, st *theme.Styles) string {
	var arena [160]byte
	nums := paneNums{b: arena[:0]}
	segs := make([]paneSeg, 4)
	segs[0].prio = 90
	segs[0].add(theme.ToneBold, d.Symbol+" volatility").add(theme.ToneMuted, "  spot ").addB(theme.ToneText, nums.price(d.Spot))

	iv := &segs[1]
	iv.prio = 80
	iv.add(theme.ToneMuted, "IV30 ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPoints(b, d.IV30.Now) }))
	if prev := d.IV30.Prev(); !math.IsNaN(prev) {
		iv.add(theme.ToneMuted, " vs ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPoints(b, prev) })).
			add(theme.ToneMuted, " prev close ").addB(signTone(d.IV30.Change), nums.signed(d.IV30.Change, 2))
	}

	cost := &segs[2]
	cost.prio = 70
	t := &d.Term
	cost.add(theme.ToneMuted, "all expiries ")
	switch {
	case t.Age >= 0:
		cost.addB(theme.ToneText, nums.dur(t.Age)).add(theme.ToneMuted, " old")
	default:
		cost.add(theme.ToneMuted, "not held")
	}
	next := &segs[3]
	next.prio = 60
	switch {
	case t.Fetching:
		next.add(theme.ToneAccent, "fetching ").addB(theme.ToneText, nums.int(int64(t.Points))).add(theme.ToneMuted, " pts")
	case t.Every <= 0:
		next.add(theme.ToneMuted, "a past day: not refreshed")
	default:
		next.addB(theme.ToneText, nums.int(int64(t.Points))).add(theme.ToneMuted, " pts every ").addB(theme.ToneText, nums.dur(t.Every))
		if t.Next >= 0 {
			next.add(theme.ToneMuted, " · next ").addB(theme.ToneText, nums.dur(t.Next+time.Second-1))
		}
	}
	segs = append(segs, earningsSegs(d, &nums)...)
	fitSegs(segs, width, 3)
	l := newPaneLine(width, theme.Span{})
	putSegs(&l, segs, 3, st, theme.ShadeNone)
	return l.line()
}

// earningsSegs set the next report's implied moves against the moves the
// last reports made: "◆ earn Jan28 AMC ±4.1% event, ±10.9% straddle" (the
// report alone, then the whole straddle of the expiry after it: see
// vol.Implied) and "3.2% avg of last 4: +5.0 -2.1": is the event priced
// rich or cheap.
func earningsSegs(d *VolData, nums *paneNums) []paneSeg {
	var out []paneSeg
	if im := d.Implied; im != nil {
		var sg paneSeg
		sg.prio = 65
		sg.add(theme.ToneWarn, "◆ ").add(theme.ToneMuted, "earn ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendDate(b, im.Date) }))
		if im.When != "" {
			sg.add(theme.ToneMuted, " "+string(im.When))
		}
		if !math.IsNaN(im.EventPct) {
			sg.add(theme.ToneText, " ±").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPct(b, im.EventPct, 1) })).add(theme.ToneMuted, " event,")
		}
		sg.add(theme.ToneText, " ±").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPct(b, im.MovePct, 1) })).add(theme.ToneMuted, " straddle")
		out = append(out, sg)
	}
	if n := len(d.Realized); n > 0 {
		var sg paneSeg
		sg.prio = 55
		avg := vol.MeanAbsMove(d.Realized)
		sg.addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPct(b, avg, 1) })).
			add(theme.ToneMuted, " avg of last ").addB(theme.ToneText, nums.int(int64(n))).add(theme.ToneMuted, ":")
		for _, m := range d.Realized[:min(n, 2)] {
			sg.add(theme.ToneMuted, " ").addB(signTone(m.MovePct), nums.with(func(b []byte) []byte {
				if m.MovePct > 0 {
					b = append(b, '+')
				}
				return strconv.AppendFloat(b, 100*m.MovePct, 'f', 1, 64)
			}))
		}
		out = append(out, sg)
	}
	if n := len(d.Missing); n > 0 {
		var sg paneSeg
		sg.prio = 45
		sg.addB(theme.ToneWarn, nums.int(int64(n))).add(theme.ToneMuted, " reports lack closes: history backfill --days ").
			addB(theme.ToneText, nums.int(int64(d.BackfillDays)))
		out = append(out, sg)
	}
	return out
}

// volSelected is the line under the charts: the selected expiry's
// figures in words, and the IVs at the ladder cursor's strike.
func volSelected(d *VolData, sel, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	if sel < 0 {
		return l.line()
	}
	f := &d.Figures[sel]
	var arena [160]byte
	nums := paneNums{b: arena[:0]}
	segs := make([]paneSeg, 4)
	segs[0].prio = 90
	segs[0].add(theme.ToneMuted, "ATM ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendStrike(b, f.ATMStrike) })).
		add(theme.ToneMuted, " IV ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendPct(b, f.ATMIV, 1) }))
	segs[1].prio = 85
	// add, not addB: "±" is two bytes in one cell.
	segs[1].add(theme.ToneMuted, "move ").add(theme.ToneText, string(appendMove(nil, f.Move))).
		add(theme.ToneMuted, " (").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendMovePct(b, f.MovePct) })).add(theme.ToneMuted, ")")
	segs[2].prio = 60
	segs[2].add(theme.ToneMuted, "25Δ C ").addB(theme.ToneCall, nums.with(func(b []byte) []byte { return appendPct(b, f.Call25, 1) })).
		add(theme.ToneMuted, " P ").addB(theme.TonePut, nums.with(func(b []byte) []byte { return appendPct(b, f.Put25, 1) }))
	if i := vol.Nearest(d.Smile, d.Cursor); i >= 0 && d.Smile[i].Strike == d.Cursor {
		r := &d.Smile[i]
		segs[3].prio = 70
		segs[3].add(theme.ToneMuted, "cursor ").addB(theme.ToneBold, nums.with(func(b []byte) []byte { return appendStrike(b, r.Strike) })).
			add(theme.ToneCall, " ● ").addB(theme.ToneCall, nums.with(func(b []byte) []byte { return appendPct(b, r.Call.IV, 1) })).
			add(theme.TonePut, " ○ ").addB(theme.TonePut, nums.with(func(b []byte) []byte { return appendPct(b, r.Put.IV, 1) }))
	}
	fitSegs(segs, width, 3)
	putSegs(&l, segs, 3, st, theme.ShadeNone)
	return l.line()
}

// appendPoints appends a figure in percentage points as a percentage:
// IV30's 22.08 is "22.1%".
func appendPoints(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	dst = appendFixed(dst, v, 1)
	return append(dst, '%')
}
