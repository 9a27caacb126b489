package sandbox_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
	"chainwatch/sandbox/quota"
)

// Every response after authentication carries the points headers after
// charging; 200 and 204 are charged at the cost table's price, errors not.
func TestDataPointsCharging(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	const plan = 4_000_000
	var used int64
	step := func(what string, resp *http.Response, status int, cost int64) {
		t.Helper()
		if resp.StatusCode != status {
			t.Fatalf("%s: status %d, want %d", what, resp.StatusCode, status)
		}
		used += cost
		u, l := points(t, what, resp)
		if u != used || l != plan-used {
			t.Fatalf("%s: points used %d left %d, want %d and %d", what, u, l, used, plan-used)
		}
	}
	resp, _ := e.getLive(pathExchanges, "")
	step("exchanges (free)", resp, http.StatusOK, 0)
	resp, _ = e.getLive(pathChain, "symbol=NOSUCH&date="+pastDay)
	step("historical chain", resp, http.StatusNoContent, 3)
	resp, _ = e.call(http.MethodGet, e.url("delayed", pathChain, "symbol=NOSUCH&date="+today().String()), nil, nil)
	step("delayed chain", resp, http.StatusNoContent, 8)
	resp, _ = e.getLive(pathUnderlying, "symbols=NOSUCH&date="+today().String())
	step("live underlying quotes", resp, http.StatusNoContent, 4)
	resp, _ = e.call(http.MethodGet, e.url("delayed", "market/symbols/NOSUCH/calendar", ""), nil, nil)
	step("calendar", resp, http.StatusNoContent, 15)
	resp, _ = e.getLive(pathTrades, "symbol=NOSUCH&date="+pastDay)
	step("historical option trades", resp, http.StatusNoContent, 15)
	resp, _ = e.call(http.MethodGet, e.url("delayed", pathTrades, "symbol=NOSUCH&date="+today().String()), nil, nil)
	step("delayed option trades", resp, http.StatusNoContent, 30)

	// A day without a session matches nothing, for every symbol: 204,
	// charged, which is why the client refuses such a date first.
	resp, _ = e.getLive(pathChain, "symbol=SPY&date=2024-03-17")
	step("chain on a Sunday", resp, http.StatusNoContent, 3)
	resp, _ = e.getLive(pathChain, "symbol=SPY&date=2023-11-23")
	step("chain on Thanksgiving", resp, http.StatusNoContent, 3)
	resp, _ = e.getLive(pathUnderlying, "symbols=SPY&date=2024-03-29")
	step("underlying quotes on Good Friday", resp, http.StatusNoContent, 3)
	resp, _ = e.getLive(pathTrades, "symbol=SPY&date=2025-01-09")
	step("option trades on a special closure", resp, http.StatusNoContent, 15)

	resp, _ = e.getLive(pathChain, "date="+pastDay)
	step("400", resp, http.StatusBadRequest, 0)
	resp, _ = e.getLive("reference/nothing", "")
	step("404", resp, http.StatusNotFound, 0)
	resp, _ = e.call(http.MethodDelete, e.url("live", pathChain, ""), nil, nil)
	step("405", resp, http.StatusMethodNotAllowed, 0)
	resp, _ = e.call(http.MethodGet, e.url("live", pathChain, "symbol=SPX&date="+pastDay), http.Header{"Accept": {"text/csv"}}, nil)
	step("406", resp, http.StatusNotAcceptable, 0)
	resp, _ = e.call(http.MethodPost, e.url("live", pathScanner, ""), http.Header{"Content-Type": {"text/plain"}}, strings.NewReader("x"))
	step("415", resp, http.StatusUnsupportedMediaType, 0)

	// A user's token spends the user's own allowance within the client.
	user := e.login(e.nativeConfig(redirectV4))
	resp, _ = e.get(e.url("live", pathChain, "symbol=NOSUCH&date="+pastDay), bearerHeader(user.AccessToken))
	if u, _ := points(t, "user", resp); resp.StatusCode != http.StatusNoContent || u != 3 {
		t.Errorf("user token: %d with %d points used, want 204 and 3 (an account of its own)", resp.StatusCode, u)
	}
}

// The per-second limit answers 429 with Retry-After and charges nothing;
// the sandbox clock moving on lets the client in again.
func TestDataRateLimit(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil, func(c *sandbox.Config) { c.PerSecond, c.Burst = 1, 1 })
	mustGet(e, pathExchanges, "")
	resp, body := e.getLive(pathChain, "symbol=NOSUCH&date="+pastDay)
	wantError(t, "second request", resp, body, http.StatusTooManyRequests, "rate limit exceeded: more than 1 requests per second")
	if resp.Header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", resp.Header.Get("Retry-After"))
	}
	if used, _ := points(t, "429", resp); used != 0 {
		t.Errorf("the 429 was charged: %d points used", used)
	}
	e.clock.Advance(time.Second)
	if resp, _ := e.getLive(pathChain, "symbol=NOSUCH&date="+pastDay); resp.StatusCode != http.StatusNoContent {
		t.Errorf("a second later: %d, want 204", resp.StatusCode)
	}
}

// The trial plan's 500 points a day run out: 429 with Retry-After until
// midnight Eastern, while free endpoints still answer; the next day the
// allowance is back.
func TestDataTrialPlan(t *testing.T) {
	t.Parallel()
	trial, _ := quota.PlanByName("trial")
	e := newDataEnv(t, nil, func(c *sandbox.Config) { c.Plan = trial })
	calendar := "market/symbols/NOSUCH/calendar"
	for i := range 33 { // 33 x 15 = 495 points
		if resp, _ := e.getLive(calendar, ""); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("request %d: %d, want 204", i+1, resp.StatusCode)
		}
	}
	resp, body := e.getLive(calendar, "")
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "daily points allowance used up") {
		t.Fatalf("34th request: %d %q, want 429 about the daily allowance", resp.StatusCode, body)
	}
	now := e.clock.Now().In(api.Eastern)
	midnight := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, api.Eastern)
	wait, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || time.Duration(wait)*time.Second < midnight.Sub(now) || time.Duration(wait-1)*time.Second > midnight.Sub(now) {
		t.Errorf("Retry-After %q, want the seconds until midnight Eastern (%s)", resp.Header.Get("Retry-After"), midnight.Sub(now))
	}
	if used, left := points(t, "429", resp); used != 495 || left != 5 {
		t.Errorf("after the 429: used %d left %d, want 495 and 5", used, left)
	}
	mustGet(e, pathExchanges, "")

	e.clock.Advance(midnight.Sub(now) + time.Second)
	e.token = e.ccToken(t).AccessToken // the old one expired overnight
	resp, _ = e.getLive(calendar, "")
	if used, _ := points(t, "next day", resp); resp.StatusCode != http.StatusNoContent || used != 15 {
		t.Errorf("next day: %d with %d points used, want 204 and 15", resp.StatusCode, used)
	}
}
