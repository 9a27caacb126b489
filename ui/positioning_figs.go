package ui

import (
	"math"
	"slices"
	"strconv"
	"time"

	"chainwatch/positioning"
	"chainwatch/theme"
)

// The positioning page's words: its title with what the whole chain
// cost, and its figures, as a panel beside the bars or as lines above.

// posTitle is the page's first line: the symbol, the range and its
// expiries, spot, and what the whole chain behind the page cost and when
// it is fetched again.
func posTitle(v *PositioningView, width int, st *theme.Styles) string {
	var arena [192]byte
	nums := paneNums{b: arena[:0]}
	// In the line's order; the cost goes last of all but the title.
	segs := make([]paneSeg, 6)
	title, span, spot, at, cost, next := &segs[0], &segs[1], &segs[2], &segs[3], &segs[4], &segs[5]
	title.prio, span.prio, spot.prio, at.prio, cost.prio, next.prio = 90, 55, 80, 50, 85, 60
	cost.right, next.right = true, true
	title.add(theme.ToneBold, v.Symbol+" positioning")
	if v.Range != "" {
		title.add(theme.ToneMuted, "  ").add(theme.ToneAccent, v.Range)
	}
	span.add(theme.ToneMuted, posSpan(v))
	if !math.IsNaN(v.Spot) && v.Spot != 0 {
		spot.add(theme.ToneMuted, "spot ").addB(theme.ToneText, nums.price(v.Spot))
		if v.AsOf >= 0 {
			at.add(theme.ToneMuted, "at ").addB(theme.ToneText, nums.with(func(b []byte) []byte { return appendClock(b, v.AsOf, false) }))
		}
	}
	t := &v.Term
	switch {
	case t.Age < 0 && t.Fetching:
		cost.add(theme.ToneAccent, "fetching the whole chain: ").addB(theme.ToneText, nums.int(int64(t.Points))).add(theme.ToneMuted, " pts")
	case t.Age < 0:
		cost.add(theme.ToneMuted, "no whole chain held yet")
	case v.Ladder:
		cost.add(theme.ToneMuted, "whole chain ").addB(theme.ToneText, nums.dur(t.Age)).add(theme.ToneMuted, " old, held: ").
			add(theme.ToneGood, "0 pts")
	default:
		cost.add(theme.ToneMuted, "whole chain ").addB(theme.ToneText, nums.dur(t.Age)).add(theme.ToneMuted, " old, fetched for ").
			addB(theme.ToneText, nums.int(int64(v.Paid))).add(theme.ToneMuted, " pts")
	}
	switch {
	case v.Historical:
		next.add(theme.ToneMuted, "a past day: not refreshed")
	case v.Closed:
		next.add(theme.ToneMuted, "market closed: held until the open")
	case t.Every > 0:
		next.addB(theme.ToneText, nums.int(int64(t.Points))).add(theme.ToneMuted, " pts every ").addB(theme.ToneText, nums.dur(t.Every))
		if t.Next >= 0 {
			next.add(theme.ToneMuted, ", next ").addB(theme.ToneText, nums.dur(t.Next+time.Second-1))
		}
	}
	segs = slices.DeleteFunc(segs, func(s paneSeg) bool { return s.n == 0 })
	fitSegs(segs, width, 3)
	l := newPaneLine(width, theme.Span{})
	putSegs(&l, segs, 3, st, theme.ShadeNone)
	return l.line()
}

// posSpan names the range's expiries: "Nov20 0d", "12 expiries
// Nov20-Dec18"; "" before the figures.
func posSpan(v *PositioningView) string {
	if v.Figs == nil || v.Chain == nil || len(v.Figs.Expiries) == 0 {
		return ""
	}
	sel, exps := v.Figs.Expiries, v.Chain.Exps
	first, last := &exps[sel[0]], &exps[sel[len(sel)-1]]
	n := 0
	for i, x := range sel {
		if i == 0 || exps[x].Date != exps[sel[i-1]].Date {
			n++
		}
	}
	if n == 1 {
		return fmtDate(first.Date) + " " + strconv.Itoa(first.DTE) + "d"
	}
	from, to := fmtDate(first.Date), fmtDate(last.Date)
	if y := v.Day.Year(); first.Date.Year() != y || last.Date.Year() != y {
		// A range past the year of the day shown: "Nov24-Dec19" would
		// read as four weeks for one that ends five years on.
		from += " " + strconv.Itoa(first.Date.Year())
		to += " " + strconv.Itoa(last.Date.Year())
	}
	return strconv.Itoa(n) + " expiries " + from + "-" + to
}

// posKV is a panel line: a label, then a value in its tone.
func posKV(w int, label, value string, tone theme.Tone, st *theme.Styles) string {
	l := newPaneLine(w, theme.Span{})
	l.put(st.Span(theme.ToneMuted, theme.ShadeNone), padRight(label, 18))
	l.put(st.Span(tone, theme.ShadeNone), value)
	return l.line()
}

// posPanel is the figures beside the bars, in h lines of w cells: the
// walls, the ratio, the totals, GEX and its zero level with the dealer
// assumption, then each expiry's max pain as far as there is room.
func posPanel(v *PositioningView, w, h int, st *theme.Styles) []string {
	f := v.Figs
	out := make([]string, 0, h)
	put := func(s string) {
		if len(out) < h {
			out = append(out, s)
		}
	}
	note := func(s string) {
		l := newPaneLine(w, theme.Span{})
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), s)
		put(l.line())
	}
	put(posKV(w, "Call wall", wallText(f.CallWall, f, true), theme.ToneCall, st))
	put(posKV(w, "Put wall", wallText(f.PutWall, f, false), theme.TonePut, st))
	put(posKV(w, "Put/call OI", fixedText(f.PCOI, 2), theme.ToneText, st))
	put(posKV(w, "OI calls / puts", fmtSize(f.CallOI)+" / "+fmtSize(f.PutOI), theme.ToneText, st))
	put(posKV(w, "Volume c / p", fmtSize(f.CallVolume)+" / "+fmtSize(f.PutVolume), theme.ToneText, st))
	put(paneBlank(w))
	gc, gp := f.Of(v.Greek)
	put(posKV(w, v.Greek.Short()+" "+v.Greek.Unit(), fmtGEX(gc+gp), signTone(gc+gp), st))
	put(posKV(w, "  calls", fmtGEX(gc), signTone(gc), st))
	put(posKV(w, "  puts", fmtGEX(gp), signTone(gp), st))
	put(posKV(w, "Zero gamma", flipText(v.Flip, v.Spot), theme.ToneWarn, st))
	put(posKV(w, "Gamma walls c / p", fmtStrike(f.GammaCallWall)+" / "+fmtStrike(f.GammaPutWall), theme.ToneText, st))
	note(positioning.Dealers + ":")
	note(greekNote(v.Greek))
	if n := f.GammaEstimated; n > 0 {
		note(strconv.Itoa(n) + " gammas estimated from the smile")
	}
	put(paneBlank(w))
	l := newPaneLine(w, theme.Span{})
	l.put(st.Span(theme.ToneBold, theme.ShadeNone), "Max pain")
	l.put(st.Span(theme.ToneMuted, theme.ShadeNone), " by expiry (MP: the first)")
	put(l.line())
	pains := f.MaxPain
	for i := range pains {
		if len(out) == h-1 && i < len(pains)-1 {
			note("  … " + strconv.Itoa(len(pains)-i) + " more")
			break
		}
		put(posKV(w, "  "+painLabel(v, i), fmtStrike(pains[i].Strike), theme.ToneText, st))
	}
	for len(out) < h {
		out = append(out, paneBlank(w))
	}
	return out
}

// posFigureLines are the figures above the bars on a narrow page: the
// first expiry's max pain, the walls and the ratio; GEX and its zero
// level; the dealer assumption.
func posFigureLines(v *PositioningView, width int, st *theme.Styles) []string {
	f := v.Figs
	line := func(parts ...[2]string) string {
		segs := make([]paneSeg, len(parts))
		for i, p := range parts {
			segs[i].prio = 90 - i
			segs[i].add(theme.ToneMuted, p[0]).add(theme.ToneText, p[1])
		}
		fitSegs(segs, width, 3)
		l := newPaneLine(width, theme.Span{})
		putSegs(&l, segs, 3, st, theme.ShadeNone)
		return l.line()
	}
	pain := "-"
	if len(f.MaxPain) > 0 {
		pain = fmtStrike(f.MaxPain[0].Strike) + " (" + painLabel(v, 0) + ")"
	}
	l1 := line([2]string{"max pain ", pain}, [2]string{"call wall ", fmtStrike(f.CallWall)},
		[2]string{"put wall ", fmtStrike(f.PutWall)}, [2]string{"P/C OI ", fixedText(f.PCOI, 2)})
	gc, gp := f.Of(v.Greek)
	l2 := line([2]string{[...]string{"GEX/1% ", "VEX/vol pt ", "CEX/day "}[v.Greek], fmtGEX(gc+gp) + " (calls " + fmtGEX(gc) + ", puts " + fmtGEX(gp) + ")"},
		[2]string{"zero gamma ", flipText(v.Flip, v.Spot)})
	// The dealer assumption first, then the estimates (when there are
	// any), then what the sign means: the last goes first when narrow.
	notes := []paneSeg{{prio: 90}, {prio: 80}, {prio: 70}}
	notes[0].add(theme.ToneMuted, positioning.Dealers)
	if f.GammaEstimated > 0 {
		notes[1].add(theme.ToneWarn, strconv.Itoa(f.GammaEstimated)+" gammas estimated")
	}
	notes[2].add(theme.ToneMuted, greekNote(v.Greek))
	notes = slices.DeleteFunc(notes, func(s paneSeg) bool { return s.n == 0 })
	fitSegs(notes, width, 3)
	l := newPaneLine(width, theme.Span{})
	putSegs(&l, notes, 3, st, theme.ShadeNone)
	return []string{l1, l2, l.line()}
}

// greekNote is what the exposure shown means for the market, in a line.
func greekNote(g positioning.Greek) string {
	switch g {
	case positioning.Vanna:
		return "VEX > 0: dealers sell as vol rises"
	case positioning.Charm:
		return "CEX > 0: dealers sell as time passes"
	}
	return "GEX > 0 damps moves, < 0 feeds them"
}

// wallText is a wall's strike and its open interest.
func wallText(k float64, f *positioning.Figures, call bool) string {
	if math.IsNaN(k) {
		return dash
	}
	for i := range f.Rows {
		if r := &f.Rows[i]; r.Strike == k {
			oi := r.PutOI
			if call {
				oi = r.CallOI
			}
			return fmtStrike(k) + " (" + fmtSize(oi) + " OI)"
		}
	}
	return fmtStrike(k)
}

// flipText is the zero-gamma level and how far it is from spot, or the
// sign GEX keeps over the whole range searched.
func flipText(f positioning.Flip, spot float64) string {
	pct := strconv.Itoa(int(positioning.ZeroGammaRange*100)) + "%"
	switch {
	case !math.IsNaN(f.Level):
		return fmtPrice(f.Level) + " (" + fmtSigned((f.Level/spot-1)*100, 1) + "%)"
	case f.Sign > 0:
		return "none: GEX > 0 within " + pct
	case f.Sign < 0:
		return "none: GEX < 0 within " + pct
	}
	return dash
}

// painLabel names expiry i of the range: its date and days to it, and
// its root where the date has two.
func painLabel(v *PositioningView, i int) string {
	p := &v.Figs.MaxPain[i]
	s := fmtDate(p.Date) + " " + strconv.Itoa(v.Day.DaysUntil(p.Date)) + "d"
	pains := v.Figs.MaxPain
	if i > 0 && pains[i-1].Date == p.Date || i+1 < len(pains) && pains[i+1].Date == p.Date {
		s += " " + p.Root
	}
	return s
}
