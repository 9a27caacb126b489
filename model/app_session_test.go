package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// typeSymbol opens the symbol prompt, types s and presses enter.
func typeSymbol(a *App, s string) {
	a.Update(runeKey('/'))
	for _, r := range s {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
}

// sessionRig is the SPY screen at 160x48 on a scripted monitor, opened
// (Init) at the clock *now points to.
func sessionRig(t *testing.T, now *time.Time) *rig {
	t.Helper()
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return *now }, Theme: "dark"})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return r
}

// TestAppUnknownSymbolIsSaidOnceAndNotPolled: a symbol nobody has seen
// asks for its chain alone; the service's 204 stops every feed, says "no
// such symbol" with the nearest known one, and the prompt refuses the
// symbol from then on without a request.
func TestAppUnknownSymbolIsSaidOnceAndNotPolled(t *testing.T) {
	now := testNow
	r := sessionRig(t, &now)
	a := r.a
	for _, f := range []feed.Feed{feed.FeedChain, feed.FeedTape, feed.FeedCalendar} {
		r.take(f) // SPY's first fetches, left unanswered
	}
	typeSymbol(a, "spyy")
	if a.q.Symbol != "SPYY" {
		t.Fatalf("query %+v", a.q)
	}
	fv := a.feeds()
	if !fv.InFlight(feed.FeedChain) || fv.InFlight(feed.FeedTape) || fv.InFlight(feed.FeedCalendar) {
		t.Fatalf("in flight: chain %v, tape %v, calendar %v: an unknown symbol's chain goes first, alone",
			fv.InFlight(feed.FeedChain), fv.InFlight(feed.FeedTape), fv.InFlight(feed.FeedCalendar))
	}
	q := r.answer(feed.FeedChain, feed.ChainMsg{Err: api.ErrNoData, Resp: okResp(4)})
	if q.Query.Symbol != "SPYY" || q.Expiry != 0 {
		t.Fatalf("the request answered: %+v, want SPYY's whole chain", q)
	}
	if n := r.asked(feed.FeedTape) + r.asked(feed.FeedCalendar); n != 0 {
		t.Fatalf("%d tape or calendar requests for SPYY: its chain goes first, alone", n)
	}
	for f := feed.Feed(0); f < feed.NumFeeds; f++ {
		if !a.feeds().Due(f).IsZero() || a.feeds().InFlight(f) {
			t.Fatalf("feed %v still planned after the 204: due %v", f, a.feeds().Due(f))
		}
	}
	frame := ansi.Strip(a.drawAt(now))
	if !strings.Contains(frame, "no such symbol: SPYY; did you mean SPY?") {
		t.Fatalf("the status bar does not say it:\n%s", frame)
	}
	if strings.Contains(frame, "loading") {
		t.Fatalf("a pane still says loading:\n%s", frame)
	}
	gen := a.q.Gen
	typeSymbol(a, "SPYY")
	if a.q.Gen != gen || a.promptOpen() == nil || a.promptOpen().Err() != "no such symbol: SPYY; did you mean SPY?" {
		t.Fatalf("the prompt let a known-unknown symbol through: gen %d→%d, prompt %v", gen, a.q.Gen, a.promptOpen())
	}
	// An hour on, nothing of SPYY has been asked for again.
	now = now.Add(time.Hour)
	r.fire()
	for f := feed.Feed(0); f < feed.NumFeeds; f++ {
		if n := r.asked(f); n != 0 {
			t.Fatalf("%d %v requests after the 204", n, f)
		}
	}
	if got := a.feeds().Stats(now).SessionSpent; got != 4 {
		t.Fatalf("spent %d, want the one chain request's 4", got)
	}
}

// TestAppClosedMarketShowsTheLastSession: before the open the header
// names the session it shows, the status bar says when polling resumes,
// and the tape title says which day its trades are from.
func TestAppClosedMarketShowsTheLastSession(t *testing.T) {
	now := time.Date(2026, 11, 23, 8, 10, 0, 0, api.Eastern) // Monday before the open
	r := sessionRig(t, &now)
	a := r.a
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(3)})
	// The tape's first page: the monitor says which session it is of.
	r.answer(feed.FeedTape, feed.TapeMsg{Resp: okResp(1)})
	h := a.ws().Header(now)
	if !h.Closed || h.Date != api.NewDate(2026, 11, 20) {
		t.Fatalf("header %+v: want the closed Friday session", h)
	}
	frame := ansi.Strip(a.drawAt(now))
	for _, want := range []string{"CLOSED Fri Nov 20", "paused until 09:30 ET (in 1h20m)", "Time & Sales · Fri Nov 20"} {
		if !strings.Contains(frame, want) {
			t.Errorf("frame lacks %q:\n%s", want, frame)
		}
	}
}

// TestAppHelpDrawsOverTheScreen: the help box floats over the screen,
// which stays visible around it; the first-run banner's dismissing key
// does nothing else.
func TestAppHelpDrawsOverTheScreen(t *testing.T) {
	now := testNow
	r := sessionRig(t, &now)
	a := r.a
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	if a.ws().Chain().LastOK().IsZero() {
		t.Fatal("the first chain was not applied")
	}
	a.ws().ShowBanner()
	a.Update(runeKey('/'))
	if a.ws().Banner() || a.promptOpen() != nil {
		t.Fatalf("the key that dismissed the banner also acted: banner %v, prompt %v", a.ws().Banner(), a.promptOpen() != nil)
	}
	a.Update(runeKey('?'))
	lines := strings.Split(ansi.Strip(a.drawAt(now)), "\n")
	if len(lines) != 48 || !strings.HasPrefix(lines[0], "SPY") || !strings.Contains(strings.Join(lines, "\n"), "chainwatch · keys") {
		t.Fatalf("help over the screen:\n%s", strings.Join(lines, "\n"))
	}
}
