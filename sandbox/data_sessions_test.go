package sandbox_test

import (
	"net/http"
	"testing"
)

// TestSessionsFollowTheExchange asks the sandbox over HTTP for the days the
// issue named: 2003-12-26 closed at 13:00 (its option trades run into the
// last hour before it and stop there), and the unscheduled closures
// answer 204 however busy their neighbours are.
func TestSessionsFollowTheExchange(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	trades := func(date, from, to string) int {
		resp, body := e.getLive(pathTrades, "symbol=SPX&limit=1&date="+date+"&min_time="+from+"&max_time="+to)
		if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
			t.Fatalf("option trades of %s %s-%s: %d %s", date, from, to, resp.StatusCode, body)
		}
		return resp.StatusCode
	}
	if got := trades("2003-12-26", "12:00:00.000", "13:00:00.000"); got != http.StatusOK {
		t.Errorf("2003-12-26 12:00-13:00: %d, want trades before the early close", got)
	}
	if got := trades("2003-12-26", "13:00:00.001", "23:59:59.999"); got != http.StatusNoContent {
		t.Errorf("2003-12-26 after 13:00: %d, want none: the session closed at 13:00", got)
	}
	if got := trades("2003-12-29", "15:00:00.000", "16:00:00.000"); got != http.StatusOK {
		t.Errorf("2003-12-29 15:00-16:00: %d, want trades into a full session's close", got)
	}
	for _, d := range []string{"2004-06-11", "2007-01-02", "2012-10-29", "2012-10-30", "2018-12-05", "2025-01-09"} {
		if got := trades(d, "00:00:00.000", "23:59:59.999"); got != http.StatusNoContent {
			t.Errorf("%s: %d, want 204: the exchange was closed", d, got)
		}
	}
}
