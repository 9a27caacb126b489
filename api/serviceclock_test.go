package api

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestClientTakesTodayFromTheServicesDate: "today" is the service's, from
// the last answer's Date header (service-conventions.md); before the first
// answer, and when an answer has none or a malformed one, the client's own
// clock; within the header's precision, exactly the client's own.
func TestClientTakesTodayFromTheServicesDate(t *testing.T) {
	own := time.Date(2026, 11, 26, 12, 0, 0, 0, Eastern)
	date := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = []string{date}
		if date == "" {
			w.Header()["Date"] = nil // net/http then sends none
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithBaseURL(srv.URL), WithClock(func() time.Time { return own }))
	if err != nil {
		t.Fatal(err)
	}
	if c.Today() != NewDate(2026, 11, 26) || c.HeardClock() {
		t.Fatalf("before any answer: %v", c.Today())
	}
	for _, tc := range []struct {
		date  string
		today Date
		now   time.Time
	}{
		{"", NewDate(2026, 11, 26), own},                                                  // no header: own clock
		{"not a date", NewDate(2026, 11, 26), own},                                        // malformed: own clock
		{own.Add(-time.Second).UTC().Format(http.TimeFormat), NewDate(2026, 11, 26), own}, // the same clock, to a second
		{time.Date(2026, 11, 24, 16, 30, 0, 0, time.UTC).Format(http.TimeFormat), NewDate(2026, 11, 24), time.Date(2026, 11, 24, 16, 30, 0, 0, time.UTC)},
		{"", NewDate(2026, 11, 24), time.Date(2026, 11, 24, 16, 30, 0, 0, time.UTC)}, // the last answer with one still holds
	} {
		date = tc.date
		if err := c.SyncClock(t.Context()); err != nil {
			t.Fatal(err)
		}
		if c.Today() != tc.today || !c.Now().Equal(tc.now) {
			t.Errorf("Date %q: today %v, now %v; want %v, %v", tc.date, c.Today(), c.Now(), tc.today, tc.now)
		}
	}
}
