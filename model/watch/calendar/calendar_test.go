package calendar

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
)

func earning(sym string, d api.Date, q int) api.CalendarEvent {
	return api.CalendarEvent{Kind: api.KindEarnings, Earnings: api.EarningsEvent{
		UnderlyingSymbol: sym, ReportDate: d, Year: d.Year(), Quarter: q, TimeOfDay: api.AfterClose, EPSEstimate: api.Some(1.23)}}
}

func dividend(sym string, ex api.Date) api.CalendarEvent {
	return api.CalendarEvent{Kind: api.KindDividend, Dividend: api.DividendsEvent{
		UnderlyingSymbol: sym, ExDividendDate: ex, PaymentDate: ex.AddDays(14), Dividend: api.Some(0.42)}}
}

func TestCalendar(t *testing.T) {
	c := New(modeltest.Common(modeltest.Now))
	q := feed.Query{Symbol: "AAPL", Gen: 4}
	c.SetQuery(q)
	today := q.Day(modeltest.Now)
	events := []api.CalendarEvent{
		earning("AAPL", today.AddDays(70), 1),
		earning("AAPL", today.AddDays(-20), 4),
		earning("AAPL", today.AddDays(-110), 3),
		earning("MSFT", today.AddDays(5), 4), // not asked for: not shown
		dividend("AAPL", today.AddDays(-30)),
		dividend("AAPL", today.AddDays(10)),
		dividend("AAPL", today.AddDays(10)), // a duplicate
	}
	if c.Apply(feed.CalendarMsg{Query: feed.Query{Gen: 3}, Events: events}) {
		t.Error("a stale reply was applied")
	}
	if !c.Apply(feed.CalendarMsg{Query: q, Events: events, At: modeltest.Now}) {
		t.Fatal("reply dropped")
	}
	if got := c.NextEarnings(today); got != today.AddDays(70) {
		t.Errorf("next earnings %s", got)
	}
	if got := c.NextEarnings(today.AddDays(71)); got != 0 {
		t.Errorf("after the last report: %s", got)
	}
	if len(c.earnings) != 3 || len(c.dividends) != 2 {
		t.Fatalf("%d earnings, %d dividends", len(c.earnings), len(c.dividends))
	}

	lines := view(c, 60, 9, false)
	if len(lines) != 9 {
		t.Fatalf("%d lines", len(lines))
	}
	// Upcoming first, soonest first; then recent, latest first.
	if shownOf(c).Earnings[0].Date != today.AddDays(70) || shownOf(c).Earnings[1].Date != today.AddDays(-20) || shownOf(c).Dividends[0].ExDate != today.AddDays(10) {
		t.Errorf("order %+v %+v", shownOf(c).Earnings, shownOf(c).Dividends)
	}
	text := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.Contains(text, "0.42") || !strings.Contains(text, "1.23") {
		t.Errorf("events not drawn:\n%s", text)
	}
	// Scrolling hides the first line of that order: the dividend in 10 days.
	c.Scroll(1)
	if scrolled := ansi.Strip(strings.Join(view(c, 60, 9, false), "\n")); scrolled == text {
		t.Errorf("the drawn lines did not follow the scroll:\n%s", scrolled)
	}
	if wide := view(c, 80, 9, true); ansi.StringWidth(wide[0]) != 80 {
		t.Errorf("drawn at 80 columns, the first line is %d wide", ansi.StringWidth(wide[0]))
	}
	if len(shownOf(c).Dividends) != 1 || len(shownOf(c).Earnings) != 3 {
		t.Errorf("scrolled: %d dividends, %d earnings", len(shownOf(c).Dividends), len(shownOf(c).Earnings))
	}
	c.Scroll(100)
	if c.scroll != 4 {
		t.Errorf("scroll clamped to %d", c.scroll)
	}

	// A failure keeps the events; a new query drops them.
	if !c.Apply(feed.CalendarMsg{Query: q, Err: errors.New("503")}) || len(c.earnings) != 3 {
		t.Error("an error lost the events")
	}
	c.SetQuery(feed.Query{Symbol: "XYZ", Gen: 5})
	if c.NextEarnings(today) != 0 || !strings.Contains(ansi.Strip(strings.Join(view(c, 60, 9, false), "")), "loading") {
		t.Error("SetQuery kept the old events")
	}
}

// shownOf is what View draws now.
func shownOf(c *Model) ui.CalendarView {
	now := c.sh.Now()
	today := feed.ShownDay(c.q, now)
	return c.shown(today, today != c.q.Day(now))
}

// view draws c at w x h through the pane contract.
func view(c *Model, w, h int, focused bool) []string {
	c.SetSize(w, h)
	c.SetFocused(focused)
	return c.View()
}
