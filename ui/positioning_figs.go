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

// posLines are lines written one after another into one buffer, line i
// ending at ends[i]: the panel, joined to the bars beside it.
type posLines struct {
	b    []byte
	ends []int
}

func (p *posLines) add(b []byte) {
	p.b = append(p.b, b...)
	p.ends = append(p.ends, len(p.b))
}

func (p *posLines) line(i int) []byte {
	if i >= len(p.ends) {
		return nil
	}
	from := 0
	if i > 0 {
		from = p.ends[i-1]
	}
	return p.b[from:p.ends[i]]
}

// posLabelW is the panel's labels' column.
const posLabelW = 18

// posKV writes a panel line on l: a label (ASCII, padded to its column),
// then a value (ASCII) in its tone.
func posKV(l *paneLine, w int, label, value []byte, tone theme.Tone, st *theme.Styles) []byte {
	l.reset(w, theme.Span{})
	l.putASCII(st.Span(theme.ToneMuted, theme.ShadeNone), label)
	l.putASCII(st.Span(tone, theme.ShadeNone), value)
	return l.bytes()
}

// posPanel is the figures beside the bars, in h lines of w cells: the
// walls, the ratio, the totals, GEX and its zero level with the dealer
// assumption, then each expiry's max pain as far as there is room. The
// figures are written in place, on two scratch buffers: no string is
// made for a figure or a line.
func posPanel(v *PositioningView, w, h int, st *theme.Styles) posLines {
	f := v.Figs
	out := posLines{b: make([]byte, 0, h*(w+48)), ends: make([]int, 0, h)}
	l := paneLine{b: make([]byte, 0, 2*w+128)}
	var labA, valA [64]byte
	muted := st.Span(theme.ToneMuted, theme.ShadeNone)
	put := func(b []byte) {
		if len(out.ends) < h {
			out.add(b)
		}
	}
	kv := func(label string, value []byte, tone theme.Tone) {
		put(posKV(&l, w, appendPadRight(labA[:0], label, posLabelW), value, tone, st))
	}
	note := func(s string) {
		l.reset(w, theme.Span{})
		l.put(muted, s)
		put(l.bytes())
	}
	blank := func() {
		l.reset(w, theme.Span{})
		put(l.bytes())
	}
	val := valA[:0]
	kv("Call wall", appendWall(val, f.CallWall, f, true), theme.ToneCall)
	kv("Put wall", appendWall(val, f.PutWall, f, false), theme.TonePut)
	kv("Put/call OI", appendFixedText(val, f.PCOI, 2), theme.ToneText)
	kv("OI calls / puts", appendSize(append(appendSize(val, f.CallOI), " / "...), f.PutOI), theme.ToneText)
	kv("Volume c / p", appendSize(append(appendSize(val, f.CallVolume), " / "...), f.PutVolume), theme.ToneText)
	blank()
	gc, gp := f.Of(v.Greek)
	kv(v.Greek.Short()+" "+v.Greek.Unit(), appendGEX(val, gc+gp), signTone(gc+gp))
	kv("  calls", appendGEX(val, gc), signTone(gc))
	kv("  puts", appendGEX(val, gp), signTone(gp))
	kv("Zero gamma", appendFlip(val, v.Flip, v.Spot), theme.ToneWarn)
	kv("Gamma walls c / p", appendStrike(append(appendStrike(val, f.GammaCallWall), " / "...), f.GammaPutWall), theme.ToneText)
	note(positioning.Dealers + ":")
	note(greekNote(v.Greek))
	if n := f.GammaEstimated; n > 0 {
		note(strconv.Itoa(n) + " gammas estimated from the smile")
	}
	blank()
	l.reset(w, theme.Span{})
	l.put(st.Span(theme.ToneBold, theme.ShadeNone), "Max pain")
	l.put(muted, " by expiry (MP: the first)")
	put(l.bytes())
	pains := f.MaxPain
	for i := range pains {
		if len(out.ends) == h-1 && i < len(pains)-1 {
			note("  … " + strconv.Itoa(len(pains)-i) + " more")
			break
		}
		lab := appendPainLabel(append(labA[:0], "  "...), v, i)
		lab = appendPadRight(lab[:0], lab, posLabelW) // in place: it only pads or cuts
		put(posKV(&l, w, lab, appendStrike(val, pains[i].Strike), theme.ToneText, st))
	}
	for len(out.ends) < h {
		blank()
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
	return string(appendWall(nil, k, f, call))
}

// appendWall appends wallText's text.
func appendWall(b []byte, k float64, f *positioning.Figures, call bool) []byte {
	if math.IsNaN(k) {
		return append(b, dash...)
	}
	for i := range f.Rows {
		if r := &f.Rows[i]; r.Strike == k {
			oi := r.PutOI
			if call {
				oi = r.CallOI
			}
			b = append(appendStrike(b, k), " ("...)
			return append(appendSize(b, oi), " OI)"...)
		}
	}
	return appendStrike(b, k)
}

// flipText is the zero-gamma level and how far it is from spot, or the
// sign GEX keeps over the whole range searched.
func flipText(f positioning.Flip, spot float64) string { return string(appendFlip(nil, f, spot)) }

// appendFlip appends flipText's text.
func appendFlip(b []byte, f positioning.Flip, spot float64) []byte {
	within := func(b []byte) []byte {
		return append(strconv.AppendInt(b, int64(positioning.ZeroGammaRange*100), 10), '%')
	}
	switch {
	case !math.IsNaN(f.Level):
		b = append(appendPrice(b, f.Level), " ("...)
		return append(appendSigned(b, (f.Level/spot-1)*100, 1), "%)"...)
	case f.Sign > 0:
		return within(append(b, "none: GEX > 0 within "...))
	case f.Sign < 0:
		return within(append(b, "none: GEX < 0 within "...))
	}
	return append(b, dash...)
}

// appendFixedText appends fixedText's text.
func appendFixedText(b []byte, v float64, decimals int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, dash...)
	}
	return appendFixed(b, v, decimals)
}

// painLabel names expiry i of the range: its date and days to it, and
// its root where the date has two.
func painLabel(v *PositioningView, i int) string { return string(appendPainLabel(nil, v, i)) }

// appendPainLabel appends painLabel's text.
func appendPainLabel(b []byte, v *PositioningView, i int) []byte {
	p := &v.Figs.MaxPain[i]
	b = append(appendDate(b, p.Date), ' ')
	b = append(strconv.AppendInt(b, int64(v.Day.DaysUntil(p.Date)), 10), 'd')
	pains := v.Figs.MaxPain
	if i > 0 && pains[i-1].Date == p.Date || i+1 < len(pains) && pains[i+1].Date == p.Date {
		b = append(append(b, ' '), p.Root...)
	}
	return b
}
