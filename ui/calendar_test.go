package ui

import (
	"math"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/theme"
)

func TestCalendarExactSizes(t *testing.T) {
	for _, w := range []int{1, 20, 34, 45, 52, 72, 120} {
		for _, h := range []int{0, 1, 2, 3, 7, 9, 20} {
			pxCheck(t, "calendar", Calendar(pxCalendar(), w, h, pxColor), w, h)
			pxCheck(t, "calendar empty", Calendar(&CalendarView{}, w, h, pxColor), w, max(h, 0))
		}
	}
}

func TestCalendarUpcomingThenRecent(t *testing.T) {
	lines := Calendar(pxCalendar(), 60, 9, pxColor)
	plain := strings.Split(pxPlain(lines), "\n")
	order := []string{"Dec 12", "Jan 27", "today", "Oct 28", "Sep 12", "Jul 29"}
	at := 0
	for _, want := range order {
		for at < len(plain) && !strings.Contains(plain[at], want) {
			at++
		}
		if at == len(plain) {
			t.Fatalf("%q missing or out of order:\n%s", want, strings.Join(plain, "\n"))
		}
	}
	eps := pxLineWith(lines, "Jan 27")
	for _, w := range []string{"EPS AMC", "Q4 2025", "est 1.23", "act -", "in 70d"} {
		if !strings.Contains(eps, w) {
			t.Errorf("upcoming earning lacks %q: %q", w, eps)
		}
	}
	if l := pxLineWith(lines, "Oct 28"); !strings.Contains(l, "EPS BMO") || !strings.Contains(l, "act 1.21") || !strings.Contains(l, "21d ago") {
		t.Errorf("recent earning: %q", l)
	}
	if l := pxLineWith(lines, "Dec 12"); !strings.Contains(l, "Div ex") || !strings.Contains(l, "0.42") || !strings.Contains(l, "pay Dec30") {
		t.Errorf("dividend: %q", l)
	}
	// Past events are muted; upcoming ones are not.
	muted := pxColor.Span(theme.ToneMuted, theme.ShadeNone).Open
	for _, l := range lines {
		p := pxPlain([]string{l})
		if strings.Contains(p, "Sep 12") && !strings.HasPrefix(l, muted+"Sep 12") {
			t.Errorf("a past event is not muted: %q", l)
		}
		if strings.Contains(p, "Dec 12") && strings.HasPrefix(l, muted) {
			t.Errorf("an upcoming event is muted: %q", l)
		}
	}
}

// Many upcoming events still leave room for the last report.
func TestCalendarKeepsRecent(t *testing.T) {
	v := pxCalendar()
	for i := 0; i < 12; i++ {
		v.Dividends = append(v.Dividends, Dividend{ExDate: api.NewDate(2026, 2, 1+i), Amount: 0.1, PayDate: 0})
	}
	lines := Calendar(v, 52, 9, pxColor)
	plain := pxPlain(lines)
	if !strings.Contains(plain, "Oct 28") || !strings.Contains(plain, "Dec 12") {
		t.Fatalf("recent or soonest lost:\n%s", plain)
	}
	if strings.Contains(plain, "Jul 29") {
		t.Fatalf("older recent events should give way to upcoming ones:\n%s", plain)
	}
	if l := pxLineWith(lines, "Feb  1"); !strings.Contains(l, "pay -") {
		t.Errorf("a dividend with no pay date: %q", l)
	}
}

func TestCalendarNarrowForms(t *testing.T) {
	lines := Calendar(pxCalendar(), 34, 9, pxColor)
	if l := pxLineWith(lines, "Jan 27"); !strings.Contains(l, "AMC") || !strings.Contains(l, "1.23") || !strings.Contains(l, "in 70d") {
		t.Errorf("narrow earning: %q", l)
	}
	if l := pxLineWith(lines, "Dec 12"); !strings.Contains(l, "Div") || !strings.Contains(l, "0.42") {
		t.Errorf("narrow dividend: %q", l)
	}
}

func TestCalendarMessage(t *testing.T) {
	v := pxCalendar()
	v.Message = "loading events…"
	if p := pxPlain(Calendar(v, 52, 9, pxColor)); !strings.Contains(p, "loading events…") || strings.Contains(p, "Dec 12") {
		t.Errorf("message: %s", p)
	}
	if p := pxPlain(Calendar(&CalendarView{Today: api.NewDate(2025, 1, 2)}, 52, 9, pxColor)); !strings.Contains(p, "no events") {
		t.Errorf("empty: %s", p)
	}
	v = pxCalendar()
	v.Focused = true
	if l := pxPlain(Calendar(v, 52, 9, pxNoColor)[:1]); !strings.HasPrefix(l, "▸ Events") {
		t.Errorf("focus is not marked: %q", l)
	}
}

// TestCalendarAsOf: a calendar counting from the last session (a weekend
// or holiday) says "as of" that day, and an event on it is 0d, not
// "today".
func TestCalendarAsOf(t *testing.T) {
	wed := api.NewDate(2026, 11, 25)
	v := &CalendarView{Today: wed, AsOf: true, Earnings: []Earning{{Date: wed, Time: "AMC", Year: 2027, Quarter: 1, Estimate: 1, Actual: math.NaN()}}}
	p := pxPlain(Calendar(v, 60, 4, pxColor))
	if !strings.Contains(p, "as of Nov25") || !strings.Contains(p, " 0d") || strings.Contains(p, "today") {
		t.Errorf("as of Wednesday:\n%s", p)
	}
}
