package model

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/positions"
	strat "chainwatch/strategy"
)

// hourBudget is 500 points an hour (3,250 a 6.5-hour day): room for
// every page's feeds to poll several times in an hour, few enough
// requests for the hour to pass quickly.
var hourBudget = feed.Budget{PerDay: 3250}

// pageOnTop is a page put on top of the watch screen, and what its hour
// must bring.
type pageOnTop struct {
	name string
	top  common.PageID
	open func(r *hourRig)
	// polled are the feeds fetched again and again in the hour; rare
	// those fetched once in it (a watchlist's events, every 6 hours), or
	// twice when the first answer came before the quotes that make the
	// watchlist's rows and it asks again for the symbols it could not
	// place. No other feed is fetched.
	polled, rare []feed.Feed
	// job: the page's legs are marked by a job, one chain request a run
	// that no feed makes.
	job bool
}

var pagesOnTop = []pageOnTop{
	{name: "watch", top: common.PageWatch, polled: []feed.Feed{feed.FeedChain, feed.FeedTape}},
	{name: "vol", top: common.PageVol, open: pressing(runeKey('v')), polled: []feed.Feed{feed.FeedChain, feed.FeedTerm}},
	{name: "contract", top: common.PageContract, open: pressing(tea.KeyPressMsg{Code: tea.KeyEnter}),
		polled: []feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}},
	{name: "watchlist", top: common.PageWatchlist, open: pressing(runeKey('W')),
		polled: []feed.Feed{feed.FeedQuotes}, rare: []feed.Feed{feed.FeedEvents}},
	{name: "positioning", top: common.PagePositioning, open: pressing(runeKey('p')), polled: []feed.Feed{feed.FeedTerm}},
	{name: "strategy", top: common.PageStrategy, open: openTicket, job: true},
	{name: "positions", top: common.PagePositions, open: openPositions, job: true},
	{name: "alerts", top: common.PageAlerts, open: pressing(runeKey('a'))},
}

// TestEachPageOnTopForAnHour puts each page on top of the watch screen
// for a simulated hour against the sandbox, at 500 points an hour,
// and holds what the sandbox saw: only the top page's feeds are fetched
// (the ladder beneath is not, nor is anything under the alerts page),
// each of the page's many times; every request is one the monitor made
// for a feed (or the page's job); the points the sandbox charged are the
// ones the monitor booked, and no more than the budget's hour and one
// fetch of each feed polled. Then esc brings the ladder's polling back.
func TestEachPageOnTopForAnHour(t *testing.T) {
	for _, tc := range pagesOnTop {
		t.Run(tc.name, func(t *testing.T) {
			r := newHourRig(t, hourBudget, func(c *Config) {
				c.Watchlist = []string{"SPY", "QQQ"}
				c.PositionsPath = filepath.Join(t.TempDir(), "positions.toml")
			})
			if tc.open != nil {
				tc.open(r)
			}
			if r.a.topID() != tc.top {
				t.Fatalf("page %d on top, want %d (stack %v)", r.a.topID(), tc.top, r.a.stack)
			}
			got := r.during(func() { r.pass(time.Hour) })
			t.Logf("an hour: %d requests %v, %d pts; fetches by feed %v", got.total, got.requests, got.points, got.fetches)
			tc.check(t, got)

			if tc.top == common.PageWatch {
				return
			}
			r.key(keyEsc())
			if r.a.topID() != common.PageWatch {
				t.Fatalf("esc: stack %v", r.a.stack)
			}
			back := r.during(func() { r.pass(2 * time.Minute) })
			if back.fetches[feed.FeedChain] == 0 || back.fetches[feed.FeedTape] == 0 {
				t.Errorf("esc: the ladder's polling did not resume in 2 minutes: fetches %v", back.fetches)
			}
		})
	}
}

// check holds an hour's tally to what the page shows.
func (tc pageOnTop) check(t *testing.T, got tally) {
	t.Helper()
	slack := 0 // one fetch of each feed polled: the hour's first, at its start
	for f := range feed.NumFeeds {
		n := got.fetches[f]
		switch {
		case slices.Contains(tc.polled, f):
			if n < 2 {
				t.Errorf("%s fetched %d times in an hour on top: it is not polled", f, n)
			}
			slack += api.Cost(endpointOf[f], api.Live, false)
		case slices.Contains(tc.rare, f):
			if n < 1 || n > 2 {
				t.Errorf("%s fetched %d times in an hour, want once (twice at most)", f, n)
			}
			slack += n * api.Cost(endpointOf[f], api.Live, false)
		case n > 0:
			t.Errorf("%s fetched %d times in an hour under the %s page: nobody sees it", f, n, tc.name)
		}
	}
	want := map[string]int{}
	for f, n := range got.fetches {
		if n > 0 {
			want[endpointOf[f].String()] += n
		}
	}
	if tc.job {
		q := api.EndpointOptionQuotes.String()
		if got.requests[q] < 2 {
			t.Errorf("the page's job asked the sandbox %d times in an hour: its legs are not marked", got.requests[q])
		}
		want[q] += got.requests[q]
		slack += api.Cost(api.EndpointOptionQuotes, api.Live, false)
	}
	for e, n := range got.requests {
		if want[e] != n {
			t.Errorf("the sandbox saw %d %s requests, the monitor's feeds made %d", n, e, want[e])
		}
	}
	if tc.polled == nil && !tc.job && (got.total != 0 || got.points != 0) {
		t.Errorf("the %s page polls nothing, but the sandbox saw %d requests (%d pts)", tc.name, got.total, got.points)
	}
	if got.points != int64(got.booked) {
		t.Errorf("the sandbox charged %d pts, the monitor booked %d", got.points, got.booked)
	}
	perHour := float64(hourBudget.PerDay) / feed.RegularSessionHours
	if limit := int64(perHour) + int64(slack); got.points > limit {
		t.Errorf("%d pts in an hour on top, over the budget's %.0f and one fetch of each feed (%d)", got.points, perHour, limit)
	}
}

// pressing opens a page by a key on the ladder.
func pressing(k tea.KeyPressMsg) func(*hourRig) { return func(r *hourRig) { r.key(k) } }

// openTicket buys the contract under the ladder's cursor into the
// ticket, as space does, and shows it (T).
func openTicket(r *hourRig) {
	r.t.Helper()
	cur, ok := r.a.ws().Chain().Cursor()
	if !ok {
		r.t.Fatal("no contract under the cursor")
	}
	leg := strat.Leg{Kind: strat.Put, Qty: 1, Root: cur.Root, Expiry: cur.Expiry, Strike: cur.Strike, Price: 2.5}
	if cur.Call {
		leg.Kind = strat.Call
	}
	r.a.Update(common.TicketMsg{Cursor: cur, Add: leg})
	r.key(runeKey('T'))
}

// openPositions saves the contract under the ladder's cursor as a
// position in the positions file, reads it as the page does, and shows
// the page (P).
func openPositions(r *hourRig) {
	r.t.Helper()
	cur, ok := r.a.ws().Chain().Cursor()
	if !ok {
		r.t.Fatal("no contract under the cursor")
	}
	st := strat.Strategy{Symbol: "SPY", Legs: []strat.Leg{{Kind: strat.Call, Qty: 1, Root: cur.Root, Expiry: cur.Expiry, Strike: cur.Strike, Price: 2.5}}}
	path := r.a.cfg.PositionsPath
	if err := config.SavePosition(path, strat.Saved(1, &st, []float64{2.5}, r.clock.Now())); err != nil {
		r.t.Fatal(err)
	}
	r.a.Update(positions.Load(path))
	r.key(runeKey('P'))
}

// TestAlertsPageStopsThePolling is the "done when", at the
// default budget: the ladder polls (25 data requests in 30 s went on
// under the alerts page before the page covered it); with the alerts page
// on top and no rule, the sandbox sees no data request in 30 s; esc
// brings the ladder back, and its polling with it.
func TestAlertsPageStopsThePolling(t *testing.T) {
	r := newHourRig(t, feed.DefaultBudget(), func(c *Config) {
		eng, err := alert.New(alert.Options{Monitor: c.Monitor, Fetcher: feed.Source{Client: c.Client, Now: c.Now}, Now: c.Now}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(eng.Close)
		eng.Start()
		c.Alerts = eng
	})
	ladder := r.during(func() { r.pass(30 * time.Second) })
	if ladder.fetches[feed.FeedChain] < 2 || ladder.fetches[feed.FeedTape] < 2 {
		t.Fatalf("the ladder alone: %d requests in 30 s, fetches %v", ladder.total, ladder.fetches)
	}
	r.key(runeKey('a'))
	if r.a.topID() != common.PageAlerts {
		t.Fatalf("a: stack %v", r.a.stack)
	}
	covered := r.during(func() { r.pass(30 * time.Second) })
	if covered.total != 0 || covered.points != 0 {
		t.Fatalf("the alerts page with no rule on top: %d data requests in 30 s %v (%d pts); the ladder alone made %d",
			covered.total, covered.requests, covered.points, ladder.total)
	}
	r.key(keyEsc())
	back := r.during(func() { r.pass(30 * time.Second) })
	if r.a.topID() != common.PageWatch || back.fetches[feed.FeedChain] < 2 || back.fetches[feed.FeedTape] < 2 {
		t.Fatalf("esc: top %d, %d requests in 30 s, fetches %v: the ladder's polling did not resume", r.a.topID(), back.total, back.fetches)
	}
	t.Logf("30 s: the ladder %d requests (%d pts), under the alerts page %d, after esc %d", ladder.total, ladder.points, covered.total, back.total)
}
