package history_test

import (
	"reflect"
	"testing"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/vol"
)

// The realized moves the feed's calendar reply carries come from the
// store: the closes of each past report's sessions, bought as a client
// buys them (a past day's quotes, kept by the store), then worked out by
// vol. The store's answer is vol's on the same closes, and the feed reads
// it through the client.
func TestStoreRealizedMovesAreVols(t *testing.T) {
	r := newRig(t)
	today := r.client.Today()
	cal, _, err := r.client.Calendar(ctx, api.CalendarParams{Symbols: []string{"AAPL"}, EventType: api.EventsEarnings,
		StartDate: today.AddDays(-400).String(), EndDate: today.String()})
	if err != nil {
		t.Fatal(err)
	}
	reports := vol.PastReports(cal, today, 2)
	if len(reports) != 2 {
		t.Fatalf("%d past reports of AAPL in 400 days", len(reports))
	}
	closes := map[api.Date]float64{}
	for _, e := range reports {
		before, after := vol.ReportSessions(e.ReportDate, e.TimeOfDay)
		for _, d := range []api.Date{before, after} {
			q, _, err := r.client.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL"}, Date: d.String()})
			if err != nil || len(q) != 1 {
				t.Fatalf("%s: %v", d, err)
			}
			closes[d] = q[0].Close.V
		}
	}
	want := vol.RealizedMoves(reports, closes)
	if len(want) != 2 {
		t.Fatalf("vol worked out %d moves from the closes, want 2", len(want))
	}
	got, err := r.store.RealizedMoves(ctx, "AAPL", cal, today)
	if err != nil {
		t.Fatal(err)
	}
	// The store looks at the last eight reports; only two have closes.
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the store's moves %+v, vol's %+v", got, want)
	}
	if viaFeed := feed.RealizedMoves(ctx, r.client, "AAPL", cal, today); !reflect.DeepEqual(viaFeed, want) {
		t.Errorf("the feed read %+v, want the store's %+v", viaFeed, want)
	}
}
