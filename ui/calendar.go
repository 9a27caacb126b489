package ui

import (
	"math"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// Earning is one earnings report, past (with Actual) or expected.
type Earning struct {
	Date             api.Date
	Time             api.ReportTime // BMO, AMC, DMT; "" unknown
	Year, Quarter    int
	Estimate, Actual float64 // EPS; NaN null
}

// Dividend is one dividend, paid or declared.
type Dividend struct {
	ExDate, PayDate api.Date
	Amount          float64 // NaN null
}

// CalendarView is what the calendar pane shows.
type CalendarView struct {
	Earnings  []Earning
	Dividends []Dividend
	Today     api.Date // the data's day: splits upcoming from recent, and days count from it
	// AsOf says Today is not the calendar's day (a weekend or holiday
	// shows the last session): the title says "as of", not "today".
	AsOf    bool
	Message string // instead of events when non-empty
	Focused bool
}

// calEvent is an earning or a dividend on the calendar's one list.
type calEvent struct {
	date api.Date
	e    *Earning
	d    *Dividend
}

// Calendar draws the events pane in width x height: a title, then the
// upcoming events (soonest first), a "today" rule, and the recent ones
// (latest first), dimmed. Each line starts with the date so the list reads
// down one column, and ends with how far away it is ("in 5d", "3d ago").
// Earnings say the quarter, before or after the market, EPS estimate and
// actual; dividends the ex-date, amount and pay date. On a narrow pane the
// same fields are spelled shorter. Upcoming events come first because they
// move option prices; recent ones keep at least two lines when there are
// any, to put the last report's surprise in view.
func Calendar(v *CalendarView, width, height int, st *theme.Styles) []string {
	out := blankPane(width, height)
	if height <= 0 || width <= 0 {
		return out
	}
	out[0] = calTitle(v, width, st)
	rows := height - 1
	if rows <= 0 {
		return out
	}
	up, past := calSplit(v)
	msg := text.Clean(v.Message)
	if msg == "" && len(up)+len(past) == 0 {
		msg = "no events"
	}
	if msg != "" {
		out[1+(rows-1)/2] = centeredMessage(msg, width, st)
		return out
	}
	calSort(up, true)
	calSort(past, false)
	nUp, nPast, rule := calShare(len(up), len(past), rows)
	row := 1
	for i := 0; i < nUp && row < height; i++ {
		out[row] = calLine(&up[i], v, false, width, st)
		row++
	}
	if rule && row < height {
		out[row] = calRuleLine(width, st)
		row++
	}
	for i := 0; i < nPast && row < height; i++ {
		out[row] = calLine(&past[i], v, true, width, st)
		row++
	}
	return out
}

// calTitle is the title line, "Events · today Jan 27". The focused pane
// gets a "▸" so focus shows without colour.
func calTitle(v *CalendarView, width int, st *theme.Styles) string {
	shade, tone, mark := theme.ShadeNone, theme.ToneBold, "  "
	if v.Focused {
		shade, tone, mark = theme.ShadeHeader, theme.ToneAccent, "▸ "
	}
	t := newPaneLine(width, st.Span(theme.ToneText, shade))
	t.put(st.Span(tone, shade), mark+"Events")
	switch {
	case v.Today.Valid() && v.AsOf:
		t.put(st.Span(theme.ToneMuted, shade), " · as of "+fmtDate(v.Today))
	case v.Today.Valid():
		t.put(st.Span(theme.ToneMuted, shade), " · today "+fmtDate(v.Today))
	}
	return t.line()
}

// calSplit puts the earnings and dividends on one list of upcoming events
// (from today; all of them when today is not known) and one of recent
// ones, unsorted.
func calSplit(v *CalendarView) (up, past []calEvent) {
	file := func(ev calEvent) {
		if !v.Today.Valid() || ev.date >= v.Today {
			up = append(up, ev)
		} else {
			past = append(past, ev)
		}
	}
	for i := range v.Earnings {
		file(calEvent{date: v.Earnings[i].Date, e: &v.Earnings[i]})
	}
	for i := range v.Dividends {
		file(calEvent{date: v.Dividends[i].ExDate, d: &v.Dividends[i]})
	}
	return up, past
}

// calShare shares rows between nUp upcoming and nPast recent events, with
// a rule between the groups when both show and there is room for it.
// When they do not all fit, upcoming events come first, as they move
// option prices, but recent ones keep at least two lines, to put the last
// report's surprise in view.
func calShare(nUp, nPast, rows int) (int, int, bool) {
	rule := nUp > 0 && nPast > 0 && rows >= 3
	avail := rows
	if rule {
		avail--
	}
	if nUp+nPast <= avail {
		return nUp, nPast, rule
	}
	keepPast := min(nPast, max(2, avail-nUp))
	if nUp > 0 {
		keepPast = min(keepPast, avail-1)
	}
	nPast = max(keepPast, 0)
	nUp = min(nUp, avail-nPast)
	return nUp, nPast, rule && nUp > 0 && nPast > 0
}

// calRuleLine is the "── today ──" rule between the upcoming and the
// recent events.
func calRuleLine(width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	label := " today "
	left := (width - len(label)) / 2
	ruleSpan := st.Span(theme.ToneMuted, theme.ShadeNone)
	l.put(ruleSpan, calRule(left))
	l.put(ruleSpan, label)
	l.put(ruleSpan, calRule(width-left-len(label)))
	return l.line()
}

// calSort orders events by date, ascending or descending: insertion sort,
// the lists are a handful long.
func calSort(evs []calEvent, asc bool) {
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0; j-- {
			a, b := evs[j-1].date, evs[j].date
			if (asc && b < a) || (!asc && b > a) {
				evs[j-1], evs[j] = evs[j], evs[j-1]
				continue
			}
			break
		}
	}
}

func calRule(n int) string { return strings.Repeat("─", max(n, 0)) }

// calLine is one event: the longest spelling that fits the width.
func calLine(ev *calEvent, v *CalendarView, past bool, width int, st *theme.Styles) string {
	rel := calRelative(v.Today, ev.date)
	if rel == "today" && v.AsOf {
		rel = "0d" // the data's day, which is not today
	}
	var forms [3]paneSeg
	if ev.e != nil {
		earningForms(ev.e, &forms)
	} else {
		dividendForms(ev.d, &forms)
	}
	date := calDate(ev.date)
	body := &forms[len(forms)-1]
	for i := range forms {
		if len(date)+1+forms[i].w+1+len(rel) <= width {
			body = &forms[i]
			break
		}
	}
	l := newPaneLine(width, theme.Span{})
	dateTone, relTone := theme.ToneText, theme.ToneMuted
	if past {
		dateTone = theme.ToneMuted
	}
	l.put(st.Span(dateTone, theme.ShadeNone), date)
	l.blank(1)
	for i := 0; i < body.n; i++ {
		p := body.part(i)
		tn := p.tone
		if past && tn != theme.ToneUp && tn != theme.ToneDown {
			tn = theme.ToneMuted
		}
		l.put(st.Span(tn, theme.ShadeNone), p.text)
	}
	if rel != "" && l.room() > len(rel) {
		l.blank(l.room() - len(rel))
		l.put(st.Span(relTone, theme.ShadeNone), rel)
	}
	return l.line()
}

// calDate is "Jan 27", or a dash in the same width for no date.
func calDate(d api.Date) string {
	if !d.Valid() {
		return "   -  "
	}
	return monthAbbr[d.Month()-1] + calDays[d.Day()]
}

// calDays are the days of the month as calDate spells them.
var calDays = func() (days [32]string) {
	for i := range days {
		days[i] = " " + padLeft(strconv.Itoa(i), 2)
	}
	return days
}()

// calRelative is how far the day is from today: "today", "in 5d", "3d ago".
func calRelative(today, d api.Date) string {
	if !today.Valid() || !d.Valid() {
		return ""
	}
	n := today.DaysUntil(d)
	switch {
	case n == 0:
		return "today"
	case n > 0:
		return "in " + strconv.Itoa(n) + "d"
	}
	return strconv.Itoa(-n) + "d ago"
}

// earningForms spells an earning long, medium and short:
// "EPS AMC  Q4 2025  est 1.23  act -", "EPS AMC Q4 est 1.23 act -",
// "EPS AMC e1.23 a-".
func earningForms(e *Earning, f *[3]paneSeg) {
	when := string(e.Time)
	if when == "" {
		when = dash
	}
	q := "Q" + strconv.Itoa(e.Quarter)
	est, act := fmtPrice(e.Estimate), fmtPrice(e.Actual)
	actTone := theme.ToneText
	if !math.IsNaN(e.Actual) && !math.IsNaN(e.Estimate) {
		// A beat or a miss, in the up/down tone; the numbers say it too.
		actTone = signTone(e.Actual - e.Estimate)
	}
	year := strconv.Itoa(e.Year)
	f[0].add(theme.ToneAccent, "EPS ").add(theme.ToneAccent, when).add(theme.ToneText, "  ").add(theme.ToneText, q).add(theme.ToneText, " ").add(theme.ToneText, year).
		add(theme.ToneMuted, "  est ").add(theme.ToneText, est).add(theme.ToneMuted, "  act ").add(actTone, act)
	f[1].add(theme.ToneAccent, "EPS ").add(theme.ToneAccent, when).add(theme.ToneText, " ").add(theme.ToneText, q).
		add(theme.ToneMuted, " est ").add(theme.ToneText, est).add(theme.ToneMuted, " act ").add(actTone, act)
	f[2].add(theme.ToneAccent, "EPS ").add(theme.ToneAccent, when).add(theme.ToneMuted, " e").add(theme.ToneText, est).add(theme.ToneMuted, " a").add(actTone, act)
}

// dividendForms spells a dividend long, medium and short:
// "Div ex  0.42  pay Dec30", "Div ex 0.42 pay Dec30", "Div 0.42".
func dividendForms(d *Dividend, f *[3]paneSeg) {
	amt := fmtPrice(d.Amount)
	pay := dash
	if d.PayDate.Valid() {
		pay = fmtDate(d.PayDate)
	}
	f[0].add(theme.ToneAccent, "Div ex").add(theme.ToneText, "  ").add(theme.ToneText, amt).add(theme.ToneMuted, "  pay ").add(theme.ToneText, pay)
	f[1].add(theme.ToneAccent, "Div ex").add(theme.ToneText, " ").add(theme.ToneText, amt).add(theme.ToneMuted, " pay ").add(theme.ToneText, pay)
	f[2].add(theme.ToneAccent, "Div").add(theme.ToneText, " ").add(theme.ToneText, amt)
}
