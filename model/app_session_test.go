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

// TestAppUnknownSymbolIsSaidOnceAndNotPolled: a symbol nobody has seen
// asks for its chain alone; the service's 204 stops every feed, says "no
// such symbol" with the nearest known one, and the prompt refuses the
// symbol from then on without a request.
func TestAppUnknownSymbolIsSaidOnceAndNotPolled(t *testing.T) {
	a, c := offlineApp(t)
	typeSymbol(a, "spyy")
	if a.q.Symbol != "SPYY" {
		t.Fatalf("query %+v", a.q)
	}
	if a.poll.inflight[feed.FeedChain] != 1 || a.poll.inflight[feed.FeedTape] != 0 || a.poll.inflight[feed.FeedCalendar] != 0 {
		t.Fatalf("in flight %v: an unknown symbol's chain goes first, alone", a.poll.inflight)
	}
	a.Update(feed.ChainMsg{Query: a.q, Err: api.ErrNoData, Resp: okResp(4), At: c.t})
	for f := feed.Feed(0); f < feed.NumFeeds; f++ {
		if !a.poll.due[f].IsZero() || a.poll.inflight[f] != 0 {
			t.Fatalf("feed %v still planned after the 204: due %v", f, a.poll.due[f])
		}
	}
	frame := ansi.Strip(a.drawAt(c.t))
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
	if got := a.poll.sched.Stats(c.t).SessionSpent; got != 4 {
		t.Fatalf("spent %d, want the one chain request's 4", got)
	}
}

// TestAppClosedMarketShowsTheLastSession: before the open the header
// names the session it shows, the status bar says when polling resumes,
// and the tape title says which day its trades are from.
func TestAppClosedMarketShowsTheLastSession(t *testing.T) {
	a, c := offlineApp(t)
	c.t = time.Date(2026, 11, 23, 8, 10, 0, 0, api.Eastern) // Monday before the open
	a.Update(feed.ChainMsg{Query: a.q, Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(3), At: c.t})
	a.fetch(feed.FeedTape)
	h := a.headerData(c.t)
	if !h.Closed || h.Date != api.NewDate(2026, 11, 20) {
		t.Fatalf("header %+v: want the closed Friday session", h)
	}
	frame := ansi.Strip(a.drawAt(c.t))
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
	a, c := offlineApp(t)
	loadChain(t, a, c.t)
	a.w.banner = true
	a.Update(runeKey('/'))
	if a.w.banner || a.promptOpen() != nil {
		t.Fatalf("the key that dismissed the banner also acted: banner %v, prompt %v", a.w.banner, a.promptOpen() != nil)
	}
	a.Update(runeKey('?'))
	lines := strings.Split(ansi.Strip(a.drawAt(c.t)), "\n")
	if len(lines) != 48 || !strings.HasPrefix(lines[0], "SPY") || !strings.Contains(strings.Join(lines, "\n"), "chainwatch · keys") {
		t.Fatalf("help over the screen:\n%s", strings.Join(lines, "\n"))
	}
}
