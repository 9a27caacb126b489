package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// pointsTable is the price of every endpoint: live, delayed, historical.
// The spec's table plus the conventions: option-trades-with-greeks as
// option-trades, calendar 15 everywhere, reference endpoints and scanner
// metadata free; the scanner is never historical (its "historical" column
// repeats live and delayed, see TestCostTable).
var pointsTable = map[Endpoint][3]int{
	EndpointOptionQuotes:      {4, 8, 3},
	EndpointUnderlyingQuotes:  {4, 8, 3},
	EndpointOptionTrades:      {15, 30, 15},
	EndpointTradesAndQuotes:   {15, 30, 15},
	EndpointTradesWithGreeks:  {15, 30, 15},
	EndpointScan:              {30, 50, -1},
	EndpointScanAllResults:    {150, 250, -1},
	EndpointScannerMetadata:   {0, 0, 0},
	EndpointCalendar:          {15, 15, 15},
	EndpointExchanges:         {0, 0, 0},
	EndpointMessageConditions: {0, 0, 0},
}

func TestCostTable(t *testing.T) {
	for e := EndpointOptionQuotes; e <= EndpointMessageConditions; e++ {
		want, ok := pointsTable[e]
		if !ok {
			t.Errorf("endpoint %v missing from the test table", e)
			continue
		}
		check := func(m Mode, hist bool, w int) {
			if got := Cost(e, m, hist); got != w {
				t.Errorf("Cost(%v, %q, historical=%v) = %d, want %d", e, m, hist, got, w)
			}
		}
		check(Live, false, want[0])
		check("", false, want[0]) // no mode: the client's default, live
		check(Delayed, false, want[1])
		if want[2] < 0 { // the scanner has no date: never the historical price
			check(Live, true, want[0])
			check(Delayed, true, want[1])
			continue
		}
		check(Live, true, want[2])
		check(Delayed, true, want[2])
	}
	if got := Cost(Endpoint(0), Live, false); got != 0 {
		t.Errorf("Cost(unknown endpoint) = %d", got)
	}
	if got := Cost(Endpoint(99), Delayed, true); got != 0 {
		t.Errorf("Cost(Endpoint(99)) = %d", got)
	}
}

func TestEndpointString(t *testing.T) {
	for e, want := range map[Endpoint]string{
		EndpointOptionQuotes:      "option-and-underlying-quotes",
		EndpointTradesWithGreeks:  "option-trades-with-greeks",
		EndpointScanAllResults:    "custom-scanner (all results)",
		EndpointMessageConditions: "reference/message-conditions",
		Endpoint(0):               "endpoint(0)",
		Endpoint(42):              "endpoint(42)",
	} {
		if got := e.String(); got != want {
			t.Errorf("Endpoint(%d).String() = %q, want %q", int(e), got, want)
		}
	}
	for e := EndpointOptionQuotes; e <= EndpointMessageConditions; e++ {
		if strings.HasPrefix(e.String(), "endpoint(") {
			t.Errorf("endpoint %d has no name", int(e))
		}
	}
}

// pointsNow is the fixed clock of the points tests: Monday 2025-03-10,
// 11:00 Eastern.
var pointsNow = time.Date(2025, 3, 10, 15, 0, 0, 0, time.UTC)

func TestResponseCostCharged(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		// The service's clock is the test's: the client takes "today" from it.
		w.Header().Set("Date", pointsNow.UTC().Format(http.TimeFormat))
		w.Header().Set("X-Monthly-Points-Used", "1000")
		w.Header().Set("X-Monthly-Points-Left", "1249000")
		switch {
		case r.URL.Query().Get("nodata") != "" || strings.Contains(r.URL.RawQuery, "NODATA"):
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPost:
			io.WriteString(w, `{"last_updated":"","inputs":[],"output":[]}`)
		case strings.HasSuffix(r.URL.Path, "/custom-scanner"):
			io.WriteString(w, `{"fields":[],"operators":[]}`)
		default:
			io.WriteString(w, "[]")
		}
	})
	srv.limit.Store(100)
	c, _ := newRetryTestClient(t, srv.URL, WithClock(func() time.Time { return pointsNow }))
	ctx := context.Background()
	today, yesterday := "2025-03-10", "2025-03-07"

	type result struct {
		resp *Response
		err  error
	}
	for _, tc := range []struct {
		name    string
		run     func() result
		ep      Endpoint
		mode    Mode
		hist    bool
		cost    int
		noData  bool
		attempt int
	}{
		{"underlying live", func() result {
			_, r, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: today})
			return result{r, err}
		}, EndpointUnderlyingQuotes, Live, false, 4, false, 1},
		{"underlying delayed", func() result {
			_, r, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: today, Mode: Delayed})
			return result{r, err}
		}, EndpointUnderlyingQuotes, Delayed, false, 8, false, 1},
		{"underlying historical", func() result {
			_, r, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: yesterday})
			return result{r, err}
		}, EndpointUnderlyingQuotes, Live, true, 3, false, 1},
		{"underlying historical delayed", func() result {
			_, r, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: yesterday, Mode: Delayed})
			return result{r, err}
		}, EndpointUnderlyingQuotes, Delayed, true, 3, false, 1},
		{"underlying 204", func() result {
			_, r, err := c.UnderlyingQuotes(ctx, UnderlyingQuotesParams{Symbols: []string{"NODATA"}, Date: today, Mode: Delayed})
			return result{r, err}
		}, EndpointUnderlyingQuotes, Delayed, false, 8, true, 1},
		{"chain 204 live", func() result {
			_, r, err := c.OptionAndUnderlyingQuotes(ctx, OptionQuotesParams{Symbol: "NODATA", Date: today})
			return result{r, err}
		}, EndpointOptionQuotes, Live, false, 4, true, 1},
		{"chain 204 historical", func() result {
			_, r, err := c.OptionAndUnderlyingQuotes(ctx, OptionQuotesParams{Symbol: "NODATA", Date: yesterday, Mode: Delayed})
			return result{r, err}
		}, EndpointOptionQuotes, Delayed, true, 3, true, 1},
		{"option trades 204 delayed", func() result {
			_, r, err := c.OptionTrades(ctx, OptionTradesParams{Symbol: "NODATA", Date: today, Mode: Delayed})
			return result{r, err}
		}, EndpointOptionTrades, Delayed, false, 30, true, 1},
		{"option trades 204 historical", func() result {
			_, r, err := c.OptionTrades(ctx, OptionTradesParams{Symbol: "NODATA", Date: yesterday})
			return result{r, err}
		}, EndpointOptionTrades, Live, true, 15, true, 1},
		{"calendar", func() result {
			_, r, err := c.Calendar(ctx, CalendarParams{Symbols: []string{"AAPL"}, StartDate: "2020-01-01", Mode: Delayed})
			return result{r, err}
		}, EndpointCalendar, Delayed, false, 15, false, 1},
		{"scan delayed", func() result {
			_, r, err := c.CustomScan(ctx, ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}, Mode: Delayed})
			return result{r, err}
		}, EndpointScan, Delayed, false, 50, false, 1},
		{"scan all live", func() result {
			_, r, err := c.CustomScan(ctx, ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}, AllResults: true})
			return result{r, err}
		}, EndpointScanAllResults, Live, false, 150, false, 1},
		{"scanner metadata", func() result {
			_, r, err := c.ScannerMetadata(ctx, ReferenceParams{})
			return result{r, err}
		}, EndpointScannerMetadata, Live, false, 0, false, 1},
		{"exchanges", func() result {
			_, r, err := c.Exchanges(ctx, ReferenceParams{Mode: Delayed})
			return result{r, err}
		}, EndpointExchanges, Delayed, false, 0, false, 1},
		{"message conditions", func() result {
			_, r, err := c.MessageConditions(ctx, ReferenceParams{})
			return result{r, err}
		}, EndpointMessageConditions, Live, false, 0, false, 1},
	} {
		res := tc.run()
		if tc.noData {
			if !errors.Is(res.err, ErrNoData) || !IsNoData(res.err) {
				t.Errorf("%s: error %v, want ErrNoData", tc.name, res.err)
			}
		} else if res.err != nil {
			t.Errorf("%s: %v", tc.name, res.err)
			continue
		}
		r := res.resp
		if r == nil {
			t.Errorf("%s: no Response", tc.name)
			continue
		}
		if r.Cost != tc.cost || r.Endpoint != tc.ep || r.Mode != tc.mode || r.Historical != tc.hist || r.Attempts != tc.attempt {
			t.Errorf("%s: Response{Cost %d, Endpoint %v, Mode %q, Historical %v, Attempts %d}, want {%d, %v, %q, %v, %d}",
				tc.name, r.Cost, r.Endpoint, r.Mode, r.Historical, r.Attempts, tc.cost, tc.ep, tc.mode, tc.hist, tc.attempt)
		}
		if u, ok := r.PointsUsed.Get(); !ok || u != 1000 {
			t.Errorf("%s: PointsUsed %v", tc.name, r.PointsUsed)
		}
		if l, ok := r.PointsLeft.Get(); !ok || l != 1249000 {
			t.Errorf("%s: PointsLeft %v", tc.name, r.PointsLeft)
		}
	}

	// Every endpoint through the transport, with 200 and 204.
	for e, want := range pointsTable {
		for _, st := range []string{"200", "204"} {
			for i, m := range []Mode{Live, Delayed} {
				q := map[string][]string{}
				if st == "204" {
					q["nodata"] = []string{"1"}
				}
				_, r, err := c.do(ctx, call{method: http.MethodGet, path: "x", query: q, mode: m, endpoint: e})
				if (st == "204") != errors.Is(err, ErrNoData) || (st == "200" && err != nil) {
					t.Errorf("%v %s %s: error %v", e, m, st, err)
				}
				if r.Cost != want[i] {
					t.Errorf("%v %s %s: Cost %d, want %d", e, m, st, r.Cost, want[i])
				}
			}
		}
	}
}

func TestResponseCostNotChargedOnErrors(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 406, 415, 429, 500, 503} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("X-Monthly-Points-Used", "77")
			w.Header().Set("X-Monthly-Points-Left", "23")
			if status == 429 {
				w.Header().Set("Retry-After", "3600")
			}
			http.Error(w, "no", status)
		})
		c, _ := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}), WithClock(func() time.Time { return pointsNow }))
		_, resp, err := c.UnderlyingQuotes(context.Background(), UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: "2025-03-10", Mode: Delayed})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
			t.Errorf("%d: error %v", status, err)
		}
		if resp.Cost != 0 || resp.StatusCode != status {
			t.Errorf("%d: Cost %d status %d, want 0", status, resp.Cost, resp.StatusCode)
		}
		if u, _ := resp.PointsUsed.Get(); u != 77 || !resp.PointsLeft.Valid {
			t.Errorf("%d: points headers not read: used %v left %v", status, resp.PointsUsed, resp.PointsLeft)
		}
	}
	// Charged once after retries: a 503 then a 200.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			http.Error(w, "busy", 503)
			return
		}
		io.WriteString(w, "[]")
	})
	c, _ := newRetryTestClient(t, srv.URL, WithClock(func() time.Time { return pointsNow }))
	_, resp, err := c.UnderlyingQuotes(context.Background(), UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: "2025-03-10"})
	if err != nil || resp.Cost != 4 || resp.Attempts != 2 {
		t.Errorf("503 then 200: %v, Cost %d, Attempts %d", err, resp.Cost, resp.Attempts)
	}
}

func TestPointsHeaders(t *testing.T) {
	for _, tc := range []struct {
		used, left           string // "-" means absent
		usedValid, leftValid bool
		usedV, leftV         int64
	}{
		{"1234", "1248766", true, true, 1234, 1248766},
		{" 42 ", "0", true, true, 42, 0},
		{"-", "-", false, false, 0, 0},
		{"-", "500", false, true, 0, 500},
		{"", "", false, false, 0, 0},
		{"abc", "12abc", false, false, 0, 0},
		{"1,000", "one", false, false, 0, 0},
		{"0x10", "--5", false, false, 0, 0},
		{"3999999", "1", true, true, 3999999, 1},
	} {
		h := http.Header{}
		if tc.used != "-" {
			h.Set("X-Monthly-Points-Used", tc.used)
		}
		if tc.left != "-" {
			h.Set("X-Monthly-Points-Left", tc.left)
		}
		var r Response
		r.readPoints(h)
		if r.PointsUsed.Valid != tc.usedValid || r.PointsUsed.V != tc.usedV {
			t.Errorf("X-Monthly-Points-Used %q: %+v, want valid %v %d", tc.used, r.PointsUsed, tc.usedValid, tc.usedV)
		}
		if r.PointsLeft.Valid != tc.leftValid || r.PointsLeft.V != tc.leftV {
			t.Errorf("X-Monthly-Points-Left %q: %+v, want valid %v %d", tc.left, r.PointsLeft, tc.leftValid, tc.leftV)
		}
	}

	// Through a real response, lower-case header names.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 1:
			w.Header()["x-monthly-points-used"] = []string{"10"}
			w.Header()["x-monthly-points-left"] = []string{"490"}
		case 2:
			w.Header().Set("X-Monthly-Points-Used", "garbage")
		}
		io.WriteString(w, "[]")
	})
	c, _ := newRetryTestClient(t, srv.URL)
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || resp.PointsUsed != Some[int64](10) || resp.PointsLeft != Some[int64](490) {
		t.Errorf("points headers: %v used %v left %v", err, resp.PointsUsed, resp.PointsLeft)
	}
	_, resp, err = c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || resp.PointsUsed.Valid || resp.PointsLeft.Valid {
		t.Errorf("garbage/absent points headers: %v used %v left %v", err, resp.PointsUsed, resp.PointsLeft)
	}
	_, resp, err = c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || resp.PointsUsed.Valid || resp.PointsLeft.Valid || resp.PointsUsed.String() != "null" {
		t.Errorf("absent points headers: %v used %v left %v", err, resp.PointsUsed, resp.PointsLeft)
	}

	t.Run("non-numeric floats", func(t *testing.T) {
		var bad []string
		for _, v := range []string{"NaN", "Inf", "-Infinity", "1e30"} {
			if n := headerInt(http.Header{"X-Monthly-Points-Used": {v}}, "X-Monthly-Points-Used"); n.Valid {
				bad = append(bad, v+" -> "+n.String())
			}
		}
		if len(bad) > 0 {
			t.Errorf("headerInt took garbage as a number: %s (want Valid false)", strings.Join(bad, ", "))
		}
	})
}

func TestIsHistorical(t *testing.T) {
	today := NewDate(2025, 3, 10)
	for _, tc := range []struct {
		d    Date
		want bool
	}{
		{0, false},
		{NewDate(2025, 3, 9), true},
		{NewDate(2003, 1, 2), true},
		{today, false},
		{NewDate(2025, 3, 11), false},
	} {
		if got := IsHistorical(tc.d, today); got != tc.want {
			t.Errorf("IsHistorical(%v) = %v", tc.d, got)
		}
	}
}
