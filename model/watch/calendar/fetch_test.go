package calendar

import (
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"context"
	"testing"
)

func TestFetchCalendar(t *testing.T) {
	sh := modeltest.SandboxCommon(t)
	q := feed.Query{Symbol: "AAPL", Mode: api.Live, Gen: 1}
	cal := New(sh)
	cal.SetQuery(q)
	m := sh.Source().Calendar(context.Background(), q)
	if m.Err != nil || len(m.Events) == 0 {
		t.Fatalf("calendar: %d events, %v", len(m.Events), m.Err)
	}
	if !cal.Apply(m) || len(cal.earnings) == 0 || len(cal.dividends) == 0 {
		t.Fatalf("%d earnings, %d dividends", len(cal.earnings), len(cal.dividends))
	}
	today := q.Day(modeltest.Now)
	for _, e := range cal.earnings {
		if e.Date < today.AddDays(-config.EarningsLookback) || e.Date > today.AddDays(200) {
			t.Errorf("report %s outside the window", e.Date)
		}
	}
	if next := cal.NextEarnings(today); next < today {
		t.Errorf("next earnings %s", next)
	}
}
