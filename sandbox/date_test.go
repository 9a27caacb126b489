package sandbox_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"chainwatch/sandbox"
	"chainwatch/sandbox/faults"
)

// dateClock is where the Date tests put the sandbox clock: years from
// the real one, so that a Date from the machine's clock cannot pass.
var dateClock = time.Date(2024, 3, 15, 10, 0, 0, 0, time.UTC)

// dateOf sends req without following redirects and returns the answer's
// status and Date header. The body may end early (a truncate fault): the
// header is what counts.
func (e *env) dateOf(req *http.Request) (int, string) {
	e.t.Helper()
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Date")
}

// request builds a request with a form body (when form is not nil) and
// the header.
func (e *env) request(method, rawURL string, form url.Values, header http.Header) *http.Request {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, rawURL, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	return req
}

// dateCase is one request and the status it must get.
type dateCase struct {
	name   string
	req    *http.Request
	status int
}

// wantServiceDate sends each case and checks that its answer is dated by
// the sandbox clock, which stands still at want.
func (e *env) wantServiceDate(cases []dateCase, want time.Time) {
	e.t.Helper()
	for _, c := range cases {
		status, date := e.dateOf(c.req)
		if status != c.status {
			e.t.Errorf("%s: status %d, want %d", c.name, status, c.status)
		}
		if d, err := http.ParseTime(date); err != nil || !d.Equal(want.Truncate(time.Second)) {
			e.t.Errorf("%s (%d): Date %q, want the sandbox clock's %s", c.name, status, date, want.UTC().Format(http.TimeFormat))
		}
	}
}

// TestDateHeaderOnEveryAnswer: every answer carries the sandbox clock in
// its Date header (the client takes the session day from it), whatever
// part of the sandbox answers and however: the token service's pages,
// redirects, tokens and errors; the data endpoints' data, empty answers
// and every error status; the injected faults that answer.
func TestDateHeaderOnEveryAnswer(t *testing.T) {
	t.Parallel()
	e := newDataEnv(t, nil)
	e.clock.Advance(dateClock.Sub(e.clock.Now()))
	e.token = e.ccToken(t).AccessToken
	native := e.nativeConfig(redirectV4, "offline_access")
	user := e.login(native)
	creds := basicAuth(sandbox.DemoClientID, e.s.DemoSecret)
	wrong := basicAuth(sandbox.DemoClientID, "wrong-secret-for-the-date-test")
	bearer := bearerHeader(e.token)
	auth, data := e.s.AuthURL, e.s.BaseURL+"/v1/live/"
	get := func(u string, h http.Header) *http.Request { return e.request(http.MethodGet, u, nil, h) }
	post := func(u string, f url.Values, h http.Header) *http.Request { return e.request(http.MethodPost, u, f, h) }
	demo := e.demoConfig(redirectV4)
	resp, err := e.client.Do(get(demo.AuthCodeURL(e.newState()), nil))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loginURL := location(t, resp)
	e.secret(loginURL.Query().Get("id"))
	cc := url.Values{"grant_type": {"client_credentials"}}
	e.wantServiceDate([]dateCase{
		{"discovery", get(auth+"/.well-known/openid-configuration", nil), 200},
		{"JWKS", get(auth+"/.well-known/openid-configuration/jwks", nil), 200},
		{"authorize", get(demo.AuthCodeURL(e.newState()), nil), 302},
		{"authorize, unknown client", get(auth+"/connect/authorize?client_id=nobody&response_type=code&state=x", nil), 400},
		{"login page", get(loginURL.String(), nil), 200},
		{"login, wrong password", post(auth+"/login", url.Values{"id": {loginURL.Query().Get("id")}, "username": {"demo"}, "password": {"no"}, "action": {"accept"}}, nil), 401},
		{"token", post(auth+"/connect/token", cc, creds), 200},
		{"token, wrong secret", post(auth+"/connect/token", cc, wrong), 401},
		{"token, unknown grant type", post(auth+"/connect/token", url.Values{"grant_type": {"password"}}, creds), 400},
		{"revocation", post(auth+"/connect/revocation", url.Values{"token": {"unknown"}}, creds), 200},
		{"revocation without a token", post(auth+"/connect/revocation", url.Values{}, creds), 400},
		{"introspection", post(auth+"/connect/introspect", url.Values{"token": {e.token}}, creds), 200},
		{"introspection, no client", post(auth+"/connect/introspect", url.Values{"token": {e.token}}, nil), 401},
		{"introspection, GET", get(auth+"/connect/introspect", nil), 405},
		{"userinfo", get(auth+"/connect/userinfo", bearerHeader(user.AccessToken)), 200},
		{"userinfo, no token", get(auth+"/connect/userinfo", nil), 401},
		{"data", get(data+pathExchanges, bearer), 200},
		{"data, nothing matches", get(data+pathChain+"?symbol=NOSUCH&date="+pastDay, bearer), 204},
		{"data, bad parameter", get(data+pathChain+"?symbol=SPX&date=someday", bearer), 400},
		{"data, no token", get(data+pathExchanges, nil), 401},
		{"data, unknown path", get(data+"nope", bearer), 404},
		{"data, method", e.request(http.MethodDelete, data+pathExchanges, nil, bearer), 405},
		{"data, Accept", get(data+pathExchanges, http.Header{"Authorization": bearer["Authorization"], "Accept": {"text/html"}}), 406},
		{"outside /v1/", get(e.s.BaseURL+"/nope", nil), 404},
	}, dateClock)

	limited := newDataEnv(t, nil, func(c *sandbox.Config) { c.PerSecond, c.Burst = 0.001, 1 })
	limited.clock.Advance(dateClock.Sub(limited.clock.Now()))
	limited.token = limited.ccToken(t).AccessToken
	lb := bearerHeader(limited.token)
	limited.wantServiceDate([]dateCase{
		{"data", limited.request(http.MethodGet, limited.url("live", pathExchanges, ""), nil, lb), 200},
		{"data, rate limit", limited.request(http.MethodGet, limited.url("live", pathExchanges, ""), nil, lb), 429},
	}, dateClock)

	for _, k := range []faults.Kind{faults.Kind500, faults.Kind503, faults.Kind429, faults.KindSlow, faults.KindTruncate, faults.KindToken} {
		f := newDataEnv(t, nil, func(c *sandbox.Config) {
			c.Faults = faults.Config{Rate: 1, Kinds: []faults.Kind{k}, Slow: 10 * time.Millisecond}
		})
		f.clock.Advance(dateClock.Sub(f.clock.Now()))
		f.token = f.ccToken(t).AccessToken
		status := map[faults.Kind]int{faults.Kind500: 500, faults.Kind503: 503, faults.Kind429: 429, faults.KindToken: 401}[k]
		if status == 0 {
			status = http.StatusOK
		}
		f.wantServiceDate([]dateCase{
			{"fault " + string(k), f.request(http.MethodGet, f.url("live", pathExchanges, ""), nil, bearerHeader(f.token)), status},
		}, dateClock)
	}
}

// TestDateHeaderWhenTheAnswerIsMade: an answer that takes its time is
// dated when it is made, not when the request came (RFC 9110 section
// 6.6.1): on a sandbox clock running 1000 times as fast, a data answer
// held back half a second (the slow fault) is dated at least 500
// simulated seconds after one made just before it.
func TestDateHeaderWhenTheAnswerIsMade(t *testing.T) {
	t.Parallel()
	const slow = 500 * time.Millisecond
	e := newDataEnv(t, nil, func(c *sandbox.Config) {
		c.Now = sandbox.Clock(dateClock, 1000)
		c.Faults = faults.Config{Rate: 1, Kinds: []faults.Kind{faults.KindSlow}, Slow: slow}
	})
	e.token = e.ccToken(t).AccessToken
	_, before := e.dateOf(e.request(http.MethodGet, e.s.AuthURL+"/.well-known/openid-configuration", nil, nil))
	status, after := e.dateOf(e.request(http.MethodGet, e.url("live", pathExchanges, ""), nil, bearerHeader(e.token)))
	b, err1 := http.ParseTime(before)
	a, err2 := http.ParseTime(after)
	if status != http.StatusOK || err1 != nil || err2 != nil || a.Sub(b) < 1000*slow {
		t.Fatalf("status %d, dated %q then %q: want the slow answer %v later by the sandbox clock", status, before, after, 1000*slow)
	}
}
