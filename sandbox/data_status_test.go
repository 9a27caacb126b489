package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
)

// The conventions' status codes other than 400, in the order the server
// checks them: token, path, method, scope, Accept.
func TestDataStatuses(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	chain := "symbol=SPX&date=" + pastDay

	t.Run("401 without or with a bad token", func(t *testing.T) {
		for h, want := range map[*http.Header]string{{}: "Bearer", ptr(bearerHeader("not-a-token")): `Bearer error="invalid_token"`} {
			resp, body := e.get(e.url("live", pathExchanges, ""), *h)
			if resp.StatusCode != http.StatusUnauthorized || body != "" ||
				resp.Header.Get("WWW-Authenticate") != want {
				t.Errorf("%d %q %q, want the 401 of the conventions", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
			}
		}
	})

	t.Run("404", func(t *testing.T) {
		for _, u := range []string{
			e.url("historical", pathExchanges, ""),
			e.url("LIVE", pathExchanges, ""),
			e.url("live", "reference/exchange", ""),
			e.url("live", "market/option-and-underlying-quotes", chain), // without allaccess
			e.url("live", "allaccess/time-and-sales/option-trades-with-greeks", ""),
			e.s.BaseURL + "/v1/live",
			e.s.BaseURL + "/v2/live/" + pathExchanges,
		} {
			resp, body := e.call(http.MethodGet, u, nil, nil)
			if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(body, "unknown path /") {
				t.Errorf("GET %s: %d %q, want 404 unknown path", u, resp.StatusCode, body)
			}
		}
	})

	t.Run("405", func(t *testing.T) {
		for _, c := range []struct{ method, path, allow string }{
			{http.MethodDelete, pathChain, "GET"},
			{http.MethodPost, pathExchanges, "GET"},
			{http.MethodPut, pathScanner, "GET, POST"},
			{http.MethodPost, "market/symbols/SPX/calendar", "GET"},
		} {
			resp, body := e.call(c.method, e.url("live", c.path, ""), nil, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != c.allow || body == "" {
				t.Errorf("%s %s: %d Allow %q %q, want 405 Allow %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), body, c.allow)
			}
		}
	})

	t.Run("406", func(t *testing.T) {
		for _, accept := range []string{"text/html", "application/json;q=0, application/xml;q=0", "image/*"} {
			resp, body := e.call(http.MethodGet, e.url("live", pathExchanges, ""), http.Header{"Accept": {accept}}, nil)
			wantError(t, "Accept "+accept, resp, body, http.StatusNotAcceptable,
				"Accept must allow one of application/json, text/json, application/xml, text/xml")
		}
		for accept, ct := range map[string]string{
			"":                                "application/json; charset=utf-8",
			"*/*":                             "application/json; charset=utf-8",
			"text/xml":                        "application/xml; charset=utf-8",
			"text/html, application/xml;q=.5": "application/xml; charset=utf-8",
		} {
			resp, _ := e.call(http.MethodGet, e.url("delayed", pathExchanges, ""), http.Header{"Accept": {accept}}, nil)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ct {
				t.Errorf("Accept %q: %d %q, want 200 %q", accept, resp.StatusCode, resp.Header.Get("Content-Type"), ct)
			}
		}
	})
}

// A token needs api.allaccess or the endpoint's own scope; reference data
// and the scanner's metadata take any token.
func TestDataScopes(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, []string{"api.events"})
	for _, c := range []struct{ method, path, scope string }{
		{http.MethodGet, pathChain, "api.market"},
		{http.MethodGet, pathUnderlying, "api.market"},
		{http.MethodGet, pathTrades, "api.taq"},
		{http.MethodGet, pathTAQ, "api.taq"},
		{http.MethodGet, pathGreeks, "api.taq"},
		{http.MethodPost, pathScanner, "api.scans.custom"},
	} {
		resp, body := e.call(c.method, e.url("live", c.path, ""), nil, nil)
		want := `Bearer error="insufficient_scope", scope="` + c.scope + `"`
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("WWW-Authenticate") != want ||
			strings.Count(body, "\n") != 1 || !strings.Contains(body, c.scope) {
			t.Errorf("%s %s: %d %q %q, want 403 naming %s", c.method, c.path, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body, c.scope)
		}
		points(t, c.path, resp)
	}
	for _, path := range []string{pathExchanges, pathConditions, pathScanner, "market/symbols/NOSUCH/calendar"} {
		if resp, body := e.getLive(path, ""); resp.StatusCode/100 != 2 {
			t.Errorf("GET %s with api.events: %d %q, want success", path, resp.StatusCode, body)
		}
	}

	m := newDataEnv(t, []string{"api.market", "api.taq"})
	if resp, body := m.getLive(pathChain, "symbol=NOSUCH&date="+pastDay); resp.StatusCode != http.StatusNoContent {
		t.Errorf("chain with api.market: %d %q, want 204", resp.StatusCode, body)
	}
	if resp, _ := m.getLive("market/symbols/SPX/calendar", ""); resp.StatusCode != http.StatusForbidden {
		t.Errorf("calendar with api.market: %d, want 403", resp.StatusCode)
	}
}

// A request that matches nothing is 204 with an empty body, and charged.
func TestDataNoContent(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	window := "&min_time=10:00:00.000&max_time=10:00:01.000"
	for _, c := range []struct{ path, query string }{
		{pathChain, "symbol=NOSUCH&date=" + pastDay},
		{pathUnderlying, "symbols=NOSUCH,NOPE&date=" + pastDay},
		{pathTrades, "symbol=NOSUCH&date=" + pastDay},
		{pathTrades, "symbol=SPX&date=2024-03-16"}, // a Saturday
		{pathTrades, "symbol=SPX&date=" + pastDay + "&limit=0"},
		{pathTAQ, "symbol=NOSUCH&date=" + pastDay + window},
		{pathGreeks, "symbol=NOSUCH240315C00100000&date=" + pastDay + window},
		{"market/symbols/NOSUCH,NOPE/calendar", ""},
	} {
		_, before := points(t, "before", mustGet(e, pathExchanges, ""))
		resp, body := e.getLive(c.path, c.query)
		if resp.StatusCode != http.StatusNoContent || body != "" {
			t.Errorf("%s?%s: %d %q, want 204 and no body", c.path, c.query, resp.StatusCode, body)
			continue
		}
		if _, after := points(t, c.path, resp); after >= before {
			t.Errorf("%s?%s: 204 left %d points of %d, want it charged", c.path, c.query, after, before)
		}
	}
}

func mustGet(e *dataEnv, path, query string) *http.Response {
	e.t.Helper()
	resp, body := e.getLive(path, query)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %d %q", path, resp.StatusCode, body)
	}
	return resp
}

func ptr[T any](v T) *T { return &v }
