package model

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/feed"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// wlSnapshot is what the watchlist flow reads of the running App.
type wlSnapshot struct {
	on          bool
	symbol      string
	chainLoaded bool
	quotesOK    time.Time // the watchlist's last good reply
	missing     []string
	quotesDue   bool // a watchlist refresh is planned
	inflight    int  // watchlist requests in flight
	chainBusy   bool // a chain request is in flight or planned
	replies     int  // quotes replies received
	listed      []string
	checking    string // a symbol picked to add, not answered for yet
	note        string // the page's last word
	prompt      bool   // the symbol prompt is open
}

// wlApp counts the quotes replies the App receives and answers probes.
type wlApp struct {
	*App
	replies *int
}

func (w wlApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case probe[wlSnapshot]:
		a := w.App
		m <- wlSnapshot{
			on: wlShown(a), symbol: a.q.Symbol, chainLoaded: !a.ws().Chain().LastOK().IsZero(),
			quotesOK: a.wl().LastOK(), missing: a.wl().Missing(),
			quotesDue: !a.feeds().Due(feed.FeedQuotes).IsZero(), inflight: inflight(a, feed.FeedQuotes),
			chainBusy: a.feeds().InFlight(feed.FeedChain) || !a.feeds().Due(feed.FeedChain).IsZero(),
			replies:   *w.replies, listed: a.wl().Symbols(), checking: a.wl().Checking(), note: a.wl().Note(), prompt: a.promptOpen() != nil,
		}
		return w, nil
	case link.Msg:
		if _, ok := m.Msg.(feed.QuotesMsg); ok {
			*w.replies++
		}
	}
	_, cmd := w.App.Update(msg)
	return w, cmd
}

// inflight is how many requests of f the monitor has out for the App: one
// at most, a feed being asked once at a time.
func inflight(a *App, f feed.Feed) int {
	if a.feeds().InFlight(f) {
		return 1
	}
	return 0
}

// TestWatchlistEndToEnd is the flow in a real (virtual) terminal
// against the sandbox over loopback HTTP and OAuth2: the chain, W shows
// the four symbols of the watchlist from one request, a refresh is one
// more, enter on QQQ opens its chain, and the watchlist stops polling.
// The sandbox counts the requests it served.
func TestWatchlistEndToEnd(t *testing.T) {
	var reqs modeltest.Requests
	sh := startSandboxWith(t, sandbox.Config{Logger: reqs.Logger()})
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark", Watchlist: fourSymbols})
	tm := teatest.NewTestModel(t, wlApp{app, new(int)}, teatest.WithInitialTermSize(160, 48))
	var screen screenText

	waitProbe(t, tm, "SPY's chain", func(s wlSnapshot) bool { return s.chainLoaded && s.symbol == "SPY" })
	if n := reqs.Count("/underlying-quotes"); n != 0 {
		t.Fatalf("%d watchlist requests before the watchlist was opened", n)
	}
	tm.Type("W")
	// The chain's request in flight, if any, lands; then nothing of the
	// chain is fetched or planned.
	first := waitProbe(t, tm, "the watchlist's quotes", func(s wlSnapshot) bool {
		return s.on && !s.quotesOK.IsZero() && s.inflight == 0 && !s.chainBusy
	})
	screen.wait(t, tm, "the watchlist page", "WATCHLIST", "4 symbols", "SPY", "QQQ", "IWM", "AAPL", "● GREEN", "4 pts a refresh")
	if len(first.missing) != 0 {
		t.Fatalf("missing %v", first.missing)
	}
	oneRequestPerRefresh(t, tm, &reqs)
	chainReqs := reqs.Count("/option-and-underlying-quotes")

	// r refreshes now: one more request for all four (the timer may
	// have added one of its own: each refresh is still one request).
	tm.Type("r")
	second := waitProbe(t, tm, "a second refresh", func(s wlSnapshot) bool { return s.inflight == 0 && s.replies > first.replies })
	oneRequestPerRefresh(t, tm, &reqs)
	if n := reqs.Count("/option-and-underlying-quotes"); n != chainReqs || second.chainBusy {
		t.Fatalf("the hidden chain was fetched %d times under the watchlist", n-chainReqs)
	}

	// a and a typo: the service leaves it out of its answer; it is not added.
	tm.Type("a")
	waitProbe(t, tm, "the prompt", func(s wlSnapshot) bool { return s.prompt })
	tm.Type("nope")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	nope := waitProbe(t, tm, "the answer for NOPE", func(s wlSnapshot) bool { return s.note == "no such symbol: NOPE; not added" })
	if slices.Contains(nope.listed, "NOPE") || len(nope.listed) != len(fourSymbols) {
		t.Fatalf("NOPE added: %v", nope.listed)
	}

	// enter on QQQ (the second row) opens its chain; the watchlist's
	// timers are gone.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	qqq := waitProbe(t, tm, "QQQ's chain", func(s wlSnapshot) bool { return !s.on && s.symbol == "QQQ" && s.chainLoaded })
	if qqq.quotesDue {
		t.Fatal("the watchlist is still polled behind the chain")
	}
	screen.wait(t, tm, "QQQ's ladder", "QQQ", "Strike")

	// W and back again: the chain is fetched on return, as it was.
	tm.Type("W")
	waitProbe(t, tm, "the watchlist again", func(s wlSnapshot) bool { return s.on })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	waitProbe(t, tm, "the chain again", func(s wlSnapshot) bool { return !s.on && s.symbol == "QQQ" })
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestWatchlistFirstFetchesNoChain: started on the watchlist
// (--watchlist), the screen asks for the quotes and the events, and not
// for the chain it does not show.
func TestWatchlistFirstFetchesNoChain(t *testing.T) {
	var reqs modeltest.Requests
	sh := startSandboxWith(t, sandbox.Config{Logger: reqs.Logger()})
	syms := append(append([]string(nil), fourSymbols...), "NOPE")
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark", Watchlist: syms, StartOnWatchlist: true})
	tm := teatest.NewTestModel(t, wlApp{app, new(int)}, teatest.WithInitialTermSize(120, 40))
	var screen screenText
	s := waitProbe(t, tm, "the watchlist", func(s wlSnapshot) bool { return !s.quotesOK.IsZero() && s.inflight == 0 })
	if len(s.missing) != 1 || s.missing[0] != "NOPE" {
		t.Fatalf("missing %v", s.missing)
	}
	screen.wait(t, tm, "the page", "NOPE", "no such symbol", "AAPL", "earn ")
	oneRequestPerRefresh(t, tm, &reqs)
	if reqs.Count("/calendar") != 1 || reqs.Count("/option-and-underlying-quotes") != 0 || reqs.Count("/option-trades") != 0 {
		t.Fatalf("requests: %v", reqs.Paths())
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// oneRequestPerRefresh checks that the sandbox served one underlying-quotes
// request per quotes reply the App received: no more than the replies
// received and in flight, no fewer than those received before counting.
func oneRequestPerRefresh(t *testing.T, tm *teatest.TestModel, reqs *modeltest.Requests) {
	t.Helper()
	before := waitProbe(t, tm, "a probe", func(wlSnapshot) bool { return true })
	n := reqs.Count("/underlying-quotes")
	after := waitProbe(t, tm, "a probe", func(wlSnapshot) bool { return true })
	if n < before.replies || n > after.replies+after.inflight || n == 0 {
		t.Fatalf("the sandbox served %d underlying-quotes requests for %d to %d refreshes (paths %v)",
			n, before.replies, after.replies+after.inflight, reqs.Paths())
	}
}
