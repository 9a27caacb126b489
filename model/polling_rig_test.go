package model

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// hourRig is an App on a data monitor of its own against the sandbox over
// loopback HTTP and OAuth2, on a clock the test moves (feedtest.Clock):
// the monitor's timers fire as the test passes them, each fetch runs at
// once on the test's goroutine, and the App is handed what it posted
// after every timer, as the program would. A simulated hour takes what
// its requests take; what the sandbox saw in it is counted by its access
// log, and the points by its own account.
type hourRig struct {
	t      *testing.T
	a      *App
	clock  *feedtest.Clock
	client *api.Client
	log    *modeltest.Requests
	src    *fetchCount
	mon    *feed.Monitor
	sent   *answered
}

// newHourRig starts the sandbox and the App on SPY at testNow (mid
// session), its ladder loaded; edit, when not nil, changes the App's
// Config first.
func newHourRig(t *testing.T, budget feed.Budget, edit func(*Config)) *hourRig {
	t.Helper()
	clock := feedtest.NewClock(testNow)
	r := &hourRig{t: t, clock: clock, log: &modeltest.Requests{}, sent: &answered{next: http.DefaultTransport}}
	r.client = modeltest.StartSandbox(t, sandbox.Config{Now: clock.Now, Logger: r.log.Logger()},
		api.WithHTTPClient(&http.Client{Transport: r.sent, Timeout: time.Minute}))
	r.src = &fetchCount{Source: feed.Source{Client: r.client, Now: clock.Now}}
	r.mon = feed.NewMonitor(feed.MonitorOptions{Fetcher: r.src, Clock: clock, Budget: budget, Spawn: func(f func()) { f() }})
	t.Cleanup(r.mon.Close)
	cfg := Config{Client: r.client, Source: "SANDBOX", Symbol: "SPY", Now: clock.Now, Theme: "dark", Monitor: r.mon, Budget: budget}
	if edit != nil {
		edit(&cfg)
	}
	r.a = New(cfg)
	t.Cleanup(r.a.Close)
	clock.Fired = r.pump
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	r.pump()
	if r.a.ws().Chain().LastOK().IsZero() || r.a.ws().Chain().Strikes() == 0 {
		t.Fatal("the ladder did not load from the sandbox")
	}
	return r
}

// pump hands the App everything the monitor has posted to it.
func (r *hourRig) pump() {
	for range 1000 {
		msgs := r.a.link.Sub.Pending()
		if len(msgs) == 0 {
			return
		}
		for _, m := range msgs {
			r.a.Update(link.Msg{Msg: m})
		}
	}
	r.t.Fatal("the monitor kept posting: 1,000 rounds without a pause")
}

// pass lets d go by on the clock, every fetch due in it made.
func (r *hourRig) pass(d time.Duration) { r.clock.Advance(d); r.pump() }

// key presses k, as the terminal sends it, and hands the App what the
// fetches it started posted.
func (r *hourRig) key(k tea.KeyPressMsg) { r.a.Update(k); r.pump() }

// pointsUsed is the month's points the sandbox has charged the account,
// as it tells them (X-Monthly-Points-Used) on a free request.
func (r *hourRig) pointsUsed() int64 {
	r.t.Helper()
	_, resp, err := r.client.Exchanges(context.Background(), api.ReferenceParams{})
	if err != nil {
		r.t.Fatal(err)
	}
	used, ok := resp.PointsUsed.Get()
	if !ok {
		r.t.Fatal("the sandbox did not say the points used")
	}
	return used
}

// spent is what the monitor has booked this session.
func (r *hourRig) spent() int { return r.mon.Stats(r.clock.Now()).SessionSpent }

// tally is what one stretch of time brought: the sandbox's data requests
// by endpoint, the monitor's fetches by feed, the points the sandbox
// charged and the ones the monitor booked.
type tally struct {
	requests map[string]int // by the path's last element: "option-trades", "calendar"
	total    int
	fetches  [feed.NumFeeds]int
	points   int64
	booked   int
}

// during is what the sandbox and the monitor saw while f ran.
func (r *hourRig) during(f func()) tally {
	r.t.Helper()
	used, booked, fetched := r.pointsUsed(), r.spent(), r.src.counts()
	r.logged()
	n := len(r.log.Paths())
	f()
	after := r.src.counts()
	t := tally{requests: map[string]int{}, points: r.pointsUsed() - used, booked: r.spent() - booked}
	r.logged()
	paths := r.log.Paths()[n:]
	for _, p := range paths {
		if !strings.Contains(p, "/v1/") || strings.HasSuffix(p, "/reference/exchanges") {
			continue // signing in, or the points asked
		}
		t.requests[p[strings.LastIndexByte(p, '/')+1:]]++
		t.total++
	}
	for f := range t.fetches {
		t.fetches[f] = after[f] - fetched[f]
	}
	return t
}

// logged waits, at most 5 s, until the sandbox's access log holds every
// data request the client has had answered: the sandbox logs a request
// once its answer is written, which the client may read first.
func (r *hourRig) logged() {
	r.t.Helper()
	data := func() int {
		n := 0
		for _, p := range r.log.Paths() {
			if strings.Contains(p, "/v1/") {
				n++
			}
		}
		return n
	}
	for range 5000 {
		if data() >= int(r.sent.n.Load()) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	r.t.Fatalf("the sandbox logged %d data requests in 5 s, the client had %d answered", data(), r.sent.n.Load())
}

// answered is the client's transport, counting the data requests it has
// had answered (signing in is the token source's, not counted).
type answered struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (a *answered) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(req)
	if err == nil && strings.Contains(req.URL.Path, "/v1/") {
		a.n.Add(1)
	}
	return resp, err
}

// endpointOf is the endpoint each feed asks, whose name is the last
// element of its path: the sandbox's count of an endpoint is the sum of
// its feeds'.
var endpointOf = [feed.NumFeeds]api.Endpoint{
	feed.FeedChain: api.EndpointOptionQuotes, feed.FeedTape: api.EndpointOptionTrades, feed.FeedCalendar: api.EndpointCalendar,
	feed.FeedTerm: api.EndpointOptionQuotes, feed.FeedContractQuote: api.EndpointOptionQuotes,
	feed.FeedContractTrades: api.EndpointTradesWithGreeks, feed.FeedContractTAQ: api.EndpointTradesAndQuotes,
	feed.FeedTapeGreeks: api.EndpointTradesWithGreeks, feed.FeedQuotes: api.EndpointUnderlyingQuotes, feed.FeedEvents: api.EndpointCalendar,
}

// fetchCount is the monitor's source, counting its fetches by feed.
type fetchCount struct {
	feed.Source
	mu sync.Mutex
	n  [feed.NumFeeds]int
}

func (c *fetchCount) add(f feed.Feed) {
	c.mu.Lock()
	c.n[f]++
	c.mu.Unlock()
}

func (c *fetchCount) counts() [feed.NumFeeds]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *fetchCount) Chain(ctx context.Context, q feed.Query, expiry api.Date) feed.ChainMsg {
	c.add(feed.FeedChain)
	return c.Source.Chain(ctx, q, expiry)
}

func (c *fetchCount) Term(ctx context.Context, q feed.Query) feed.TermMsg {
	c.add(feed.FeedTerm)
	return c.Source.Term(ctx, q)
}

func (c *fetchCount) Tape(ctx context.Context, q feed.Query, day api.Date, from int64) feed.TapeMsg {
	c.add(feed.FeedTape)
	return c.Source.Tape(ctx, q, day, from)
}

func (c *fetchCount) Calendar(ctx context.Context, q feed.Query) feed.CalendarMsg {
	c.add(feed.FeedCalendar)
	return c.Source.Calendar(ctx, q)
}

func (c *fetchCount) ContractQuote(ctx context.Context, q feed.ContractQuery) feed.ContractQuoteMsg {
	c.add(feed.FeedContractQuote)
	return c.Source.ContractQuote(ctx, q)
}

func (c *fetchCount) ContractTrades(ctx context.Context, q feed.ContractQuery, from int64, minTime api.TimeOfDay) feed.ContractTradesMsg {
	c.add(feed.FeedContractTrades)
	return c.Source.ContractTrades(ctx, q, from, minTime)
}

func (c *fetchCount) ContractTAQ(ctx context.Context, q feed.ContractQuery, from int64, minTime api.TimeOfDay) feed.ContractTAQMsg {
	c.add(feed.FeedContractTAQ)
	return c.Source.ContractTAQ(ctx, q, from, minTime)
}

func (c *fetchCount) TapeGreeks(ctx context.Context, q feed.Query, osi api.OSI, day api.Date, from int64, minTime api.TimeOfDay) feed.TapeGreeksMsg {
	c.add(feed.FeedTapeGreeks)
	return c.Source.TapeGreeks(ctx, q, osi, day, from, minTime)
}

func (c *fetchCount) Quotes(ctx context.Context, q feed.Query, symbols []string) feed.QuotesMsg {
	c.add(feed.FeedQuotes)
	return c.Source.Quotes(ctx, q, symbols)
}

func (c *fetchCount) Events(ctx context.Context, q feed.Query, symbols []string) feed.EventsMsg {
	c.add(feed.FeedEvents)
	return c.Source.Events(ctx, q, symbols)
}
