package model

import (
	"errors"
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
// is looked up with its chain alone while the screen stays on the one it
// shows; the service's 204 leaves the screen there, says "no such symbol"
// with the nearest known one, and the prompt refuses the symbol from then
// on without a request.
func TestAppUnknownSymbolIsSaidOnceAndNotPolled(t *testing.T) {
	now := testNow
	r := sessionRig(t, &now)
	a := r.a
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	for _, f := range []feed.Feed{feed.FeedTape, feed.FeedCalendar} {
		r.take(f) // SPY's first fetches, left unanswered
	}
	gen, rows := a.q.Gen, a.ws().Chain().Strikes()
	typeSymbol(a, "spyy")
	frame := ansi.Strip(a.drawAt(now))
	if a.q.Symbol != "SPY" || a.q.Gen != gen || a.ws().Chain().Strikes() != rows || !strings.Contains(frame, "looking up SPYY") {
		t.Fatalf("the screen left SPY before the service answered for SPYY: query %+v\n%s", a.q, frame)
	}
	q := r.answer(feed.FeedChain, feed.ChainMsg{Err: api.ErrNoData, Resp: okResp(4)})
	if q.Query.Symbol != "SPYY" || q.Expiry != 0 {
		t.Fatalf("the request answered: %+v, want SPYY's whole chain", q)
	}
	for _, f := range []feed.Feed{feed.FeedTape, feed.FeedCalendar} {
		if n := r.asked(f); n != 0 {
			t.Fatalf("%d %v requests after SPYY was looked up: its chain goes alone", n, f)
		}
	}
	frame = ansi.Strip(a.drawAt(now))
	if !strings.Contains(frame, "no such symbol: SPYY; did you mean SPY?") {
		t.Fatalf("the status bar does not say it:\n%s", frame)
	}
	if a.q.Symbol != "SPY" || a.q.Gen != gen || a.ws().Chain().Strikes() != rows || a.ws().Chain().NoSuchSymbol() {
		t.Fatalf("SPY's ladder did not stay: query %+v, %d rows", a.q, a.ws().Chain().Strikes())
	}
	typeSymbol(a, "SPYY")
	if a.q.Gen != gen || a.promptOpen() == nil || a.promptOpen().Err() != "no such symbol: SPYY; did you mean SPY?" {
		t.Fatalf("the prompt let a known-unknown symbol through: gen %d→%d, prompt %v", gen, a.q.Gen, a.promptOpen())
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	// An hour on, SPY is polled and nothing of SPYY has been asked for again.
	now = now.Add(time.Hour)
	r.fire()
	r.held = append(r.held, r.s.Pending()...)
	for _, q := range r.held {
		if q.Query.Symbol != "SPY" {
			t.Fatalf("a %v request for %q after the 204", q.Feed, q.Query.Symbol)
		}
	}
}

// TestAppLookedUpSymbolTakesItsFirstChain: a symbol the service knows
// moves the screen when its chain comes back, that chain its first (no
// second request), and its tape and calendar follow.
func TestAppLookedUpSymbolTakesItsFirstChain(t *testing.T) {
	now := testNow
	r := sessionRig(t, &now)
	a := r.a
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	r.take(feed.FeedTape) // SPY's, left unanswered
	r.take(feed.FeedCalendar)
	gen := a.q.Gen
	typeSymbol(a, "zzzz")
	if a.q.Symbol != "SPY" {
		t.Fatalf("query %+v before the service answered", a.q)
	}
	// A failure: still on SPY, said, and asked again.
	q := r.answer(feed.FeedChain, feed.ChainMsg{Err: errors.New("503 Service Unavailable"), Resp: okResp(0)})
	if q.Query.Symbol != "ZZZZ" || a.q.Symbol != "SPY" || !strings.Contains(ansi.Strip(a.drawAt(now)), "ZZZZ not looked up yet: 503") {
		t.Fatalf("after a failed lookup: asked %+v, query %+v", q.Query, a.q)
	}
	now = now.Add(time.Minute)
	r.fire()
	zz := modeltest.SynthChain(3, 60, 0)
	zz.Symbol = "ZZZZ"
	for range 3 { // SPY's refresh is due too: left unanswered
		if q = r.take(feed.FeedChain); q.Query.Symbol == "ZZZZ" {
			break
		}
	}
	r.answerTo(q, feed.ChainMsg{Chain: zz, Resp: okResp(4)})
	if q.Query.Symbol != "ZZZZ" || a.q.Symbol != "ZZZZ" || a.q.Gen != gen+1 {
		t.Fatalf("asked %+v; query %+v, want ZZZZ at generation %d", q.Query, a.q, gen+1)
	}
	if a.ws().Chain().LastOK().IsZero() || a.ws().Chain().Strikes() == 0 {
		t.Fatal("ZZZZ's first chain was not taken")
	}
	if r.take(feed.FeedTape).Query.Symbol != "ZZZZ" || r.take(feed.FeedCalendar).Query.Symbol != "ZZZZ" {
		t.Fatal("ZZZZ's tape and calendar not asked for")
	}
	r.asked(feed.FeedChain)
	for _, q := range r.held {
		if q.Feed == feed.FeedChain && q.Query.Symbol == "ZZZZ" {
			t.Fatalf("ZZZZ's chain asked for again (%+v): the lookup's answer is its first", q)
		}
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
