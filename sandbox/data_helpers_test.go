package sandbox_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox"
	"chainwatch/sandbox/sim"
)

// Paths of the data endpoints after /v1/{mode}/, as the client sends them.
const (
	pathChain      = "allaccess/market/option-and-underlying-quotes"
	pathUnderlying = "allaccess/market/underlying-quotes"
	pathTrades     = "allaccess/time-and-sales/option-trades"
	pathTAQ        = "allaccess/time-and-sales/trades-and-quotes"
	pathGreeks     = "time-and-sales/option-trades-with-greeks"
	pathScanner    = "allaccess/scans-and-alerts/custom-scanner"
	pathExchanges  = "reference/exchanges"
	pathConditions = "reference/message-conditions"
)

// pastDay is a historical trading day every test may rely on: a Friday,
// not a holiday, a monthly expiry, long after every symbol listed.
const pastDay = "2024-03-15"

// dataEnv is a sandbox with one client-credentials token.
type dataEnv struct {
	*env
	token string
}

// The tests share two markets, so that what a market computes once (a
// day's trades, the scanner's year of history per symbol: about a second)
// is computed once per test binary rather than once per sandbox: one on
// the real clock, and one stopped at sessionTime of the next trading day.
var (
	realMarket    = sync.OnceValue(func() *sim.Market { return sim.New(sim.Config{}) })
	sessionMarket = sync.OnceValue(func() *sim.Market {
		at := sessionTime.On(market.NextTradingDay(today()))
		return sim.New(sim.Config{Now: func() time.Time { return at }})
	})
)

// newDataEnv starts a sandbox on the shared real-clock market, without a
// rate limit unless opts set one, and fetches a demo token with the scopes
// (none: api.allaccess). Its HTTP client waits longer than the token
// tests' one: a first scan or chain of a day is computed, not looked up,
// and the race detector slows that down several times.
func newDataEnv(t *testing.T, scopes []string, opts ...func(*sandbox.Config)) *dataEnv {
	t.Helper()
	all := append([]func(*sandbox.Config){func(c *sandbox.Config) { c.PerSecond, c.Market = -1, realMarket() }}, opts...)
	e := newEnv(t, all...)
	e.client = &http.Client{Transport: e.tr, Timeout: 2 * time.Minute, CheckRedirect: e.client.CheckRedirect}
	return &dataEnv{env: e, token: e.ccToken(t, scopes...).AccessToken}
}

// sessionTime is the time of day of a session env's clock: the market is
// open, with most of the day's trades done.
var sessionTime = api.NewTimeOfDay(14, 0, 0, 0)

// newSessionEnv is newDataEnv with the sandbox clock moved forward to the
// next trading day at 14:00 Eastern, so that live and delayed requests meet
// an open market whatever the real time.
func newSessionEnv(t *testing.T, scopes []string, opts ...func(*sandbox.Config)) (*dataEnv, api.Date) {
	t.Helper()
	day := market.NextTradingDay(today())
	onSession := func(c *sandbox.Config) { c.Market = sessionMarket() }
	e := newDataEnv(t, scopes, append([]func(*sandbox.Config){onSession}, opts...)...)
	e.clock.Advance(sessionTime.On(day).Sub(e.clock.Now()))
	e.token = e.ccToken(t, scopes...).AccessToken
	return e, day
}

// url is the data URL of path in mode with a raw query.
func (e *dataEnv) url(mode, path, rawQuery string) string {
	u := e.s.BaseURL + "/v1/" + mode + "/" + path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	return u
}

// call sends a data request with the env's token (plus header) and returns
// the response with its body.
func (e *dataEnv) call(method, url string, header http.Header, body io.Reader) (*http.Response, string) {
	e.t.Helper()
	req, err := http.NewRequestWithContext(e.t.Context(), method, url, body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.token)
	for k, v := range header {
		req.Header[k] = v
	}
	return e.do(req)
}

// getLive GETs a live data path with a raw query.
func (e *dataEnv) getLive(path, rawQuery string) (*http.Response, string) {
	e.t.Helper()
	return e.call(http.MethodGet, e.url("live", path, rawQuery), nil, nil)
}

// wantError checks a plain-text error: status and the exact one-line body.
func wantError(t *testing.T, what string, resp *http.Response, body string, status int, msg string) {
	t.Helper()
	if resp.StatusCode != status || body != msg+"\n" {
		t.Errorf("%s: %d %q, want %d %q", what, resp.StatusCode, body, status, msg)
		return
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("%s: Content-Type %q, want text/plain", what, ct)
	}
}

// points reads the points headers, failing when they are missing.
func points(t *testing.T, what string, resp *http.Response) (used, left int64) {
	t.Helper()
	u, err1 := strconv.ParseInt(resp.Header.Get("X-Monthly-Points-Used"), 10, 64)
	l, err2 := strconv.ParseInt(resp.Header.Get("X-Monthly-Points-Left"), 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s (%d): points headers %q / %q", what, resp.StatusCode,
			resp.Header.Get("X-Monthly-Points-Used"), resp.Header.Get("X-Monthly-Points-Left"))
	}
	return u, l
}

// today is the sandbox's today, Eastern; the test clocks start at the real time.
func today() api.Date { return api.Today(time.Now()) }

// futureDay is a day after today, which every dated endpoint refuses.
func futureDay() string { return today().AddDays(3).String() }

// futureMessage is the 400 body for a date after today.
func futureMessage() string {
	return "date must not be after today (" + today().String() + ", Eastern)"
}
