package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
)

// clock is a settable time source for Update tests.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// offlineApp is an App whose commands are never run: Update tests feed it
// replies by hand.
func offlineApp(t *testing.T) (*App, *clock) {
	t.Helper()
	c := &clock{t: testNow}
	a := New(Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return a, c
}

func okResp(cost int) *api.Response {
	return &api.Response{StatusCode: 200, Cost: cost, PointsLeft: api.Some(int64(1_000_000)), PointsUsed: api.Some(int64(3_000_000))}
}

// loadChain answers the App's first chain request as the service would.
func loadChain(t *testing.T, a *App, at time.Time) {
	t.Helper()
	a.Update(ChainMsg{Query: a.q, Chain: synthChain(3, 60, 0), Resp: okResp(4), At: at})
	if a.chain.LastOK().IsZero() {
		t.Fatal("the first chain was not applied")
	}
}

func TestAppDropsRepliesForASymbolLeftButCountsTheirPoints(t *testing.T) {
	a, c := offlineApp(t)
	old := a.q
	a.Update(runeKey('/'))
	for _, r := range "QQQ" {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.q.Symbol != "QQQ" || a.q.Gen == old.Gen {
		t.Fatalf("query after the prompt: %+v", a.q)
	}
	a.Update(ChainMsg{Query: old, Chain: synthChain(1, 10, 0), Resp: okResp(4), At: c.t})
	if !a.chain.LastOK().IsZero() {
		t.Fatal("a chain for SPY, which the user left, was applied to QQQ")
	}
	if got := a.poll.sched.Stats(c.t).SessionSpent; got != 4 {
		t.Fatalf("the dropped reply was charged: spent %d, want 4", got)
	}
}

// TestAppPollingFollowsFocusAndIdleness: the chain's next fetch moves
// out when the terminal loses focus and when the user goes idle, and
// back when they return.
func TestAppPollingFollowsFocusAndIdleness(t *testing.T) {
	a, c := offlineApp(t)
	loadChain(t, a, c.t)
	due := func() time.Duration { return a.poll.due[FeedChain].Sub(c.t) }
	active := due()
	if active <= 0 {
		t.Fatalf("no chain refresh planned after a reply: %v", active)
	}
	a.Update(tea.BlurMsg{})
	if blurred := due(); blurred < 3*active {
		t.Fatalf("unfocused: next chain in %v, focused %v", blurred, active)
	}
	a.Update(tea.FocusMsg{})
	if d := due(); d != active {
		t.Fatalf("focus back: next chain in %v, want %v", d, active)
	}
	c.t = c.t.Add(idleAfter + time.Second)
	bookFetch(a, FeedChain, c.t)
	a.Update(frameMsg{})
	if idle := due(); idle < 3*active {
		t.Fatalf("idle: next chain in %v, active %v", idle, active)
	}
	a.Update(runeKey('j'))
	if d := due(); d > 2*active {
		t.Fatalf("a key wakes polling: next chain in %v, active %v", d, active)
	}
}

// bookFetch records a fetch of f at now, as if its timer had fired.
func bookFetch(a *App, f Feed, now time.Time) {
	a.poll.last[f] = now
}

func TestAppKeepsDataAndMarksItStaleWhenTheServiceFails(t *testing.T) {
	a, c := offlineApp(t)
	loadChain(t, a, c.t)
	rows := len(a.chain.rows())
	c.t = c.t.Add(5 * time.Second)
	a.Update(ChainMsg{Query: a.q, Expiry: a.chain.Expiry(), Err: &api.APIError{StatusCode: 503, Endpoint: "allaccess/market/option-and-underlying-quotes", Message: "upstream down"}, At: c.t})
	if len(a.chain.rows()) != rows {
		t.Fatal("a failure dropped the data on screen")
	}
	h := a.headerData(c.t)
	if !h.Stale || h.Age != 5*time.Second {
		t.Fatalf("header after a failure: stale %v age %v", h.Stale, h.Age)
	}
	screen := ansi.Strip(a.render(c.t))
	for _, want := range []string{"STALE", "upstream down"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not say %q:\n%s", want, screen)
		}
	}
	if a.poll.due[FeedChain].Sub(c.t) < 2*time.Second {
		t.Error("a failure must back off, not hammer the service")
	}
}

func TestAppDatePromptValidatesAndGoesHistorical(t *testing.T) {
	a, _ := offlineApp(t)
	gen := a.q.Gen
	a.Update(runeKey('d'))
	for _, r := range "2027-01-04" {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.prompt == nil || !strings.Contains(a.prompt.errMsg, "future") || a.prompt.value != "2027-01-04" {
		t.Fatalf("a future date is refused in the prompt, keeping the text: %+v", a.prompt)
	}
	a.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	for _, r := range "2026-11-18" {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.prompt != nil || a.q.Date != api.NewDate(2026, 11, 18) || a.q.Gen == gen || !a.q.Historical(testNow) {
		t.Fatalf("after a past date: prompt %v, query %+v", a.prompt, a.q)
	}
	if !a.conditions().Historical {
		t.Fatal("the scheduler is not told the day is historical")
	}
}

func TestAppModeKeyTogglesDelayed(t *testing.T) {
	a, _ := offlineApp(t)
	a.Update(runeKey('m'))
	if a.q.Mode != api.Delayed {
		t.Fatalf("mode %s", a.q.Mode)
	}
	a.Update(runeKey('m'))
	if a.q.Mode != api.Live {
		t.Fatalf("mode %s", a.q.Mode)
	}
}

func TestAppMouseSelectsAndScrolls(t *testing.T) {
	a, c := offlineApp(t)
	loadChain(t, a, c.t)
	a.Update(runeKey('x')) // dismiss nothing; the banner is off without FirstRun
	_ = a.render(c.t)
	before := selStrike(t, a.chain)
	lay := a.layout()
	a.Update(tea.MouseClickMsg{X: lay.Ladder.X + 2, Y: lay.Ladder.Y + 3, Button: tea.MouseLeft})
	if after := selStrike(t, a.chain); after == before {
		t.Fatalf("a click on another row kept the selection at %v", before)
	}
	clicked := selStrike(t, a.chain)
	a.Update(tea.MouseWheelMsg{X: lay.Ladder.X + 2, Y: lay.Ladder.Y + 5, Button: tea.MouseWheelDown})
	if got := selStrike(t, a.chain); got <= clicked {
		t.Fatalf("the wheel moved the selection from %v to %v", clicked, got)
	}
	a.Update(tea.MouseClickMsg{X: lay.Tape.X + 2, Y: lay.Tape.Y + 2, Button: tea.MouseLeft})
	if a.focus != paneTape {
		t.Fatal("a click on the tape focuses it")
	}
}

func TestAppBelowMinimumSizeSaysSo(t *testing.T) {
	a, _ := offlineApp(t)
	a.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
	out := ansi.Strip(a.View().Content)
	if !strings.Contains(out, "80") || !strings.Contains(out, "24") {
		t.Fatalf("below 80x24 the screen says what it needs:\n%s", out)
	}
}

func TestAppHelpAndQuit(t *testing.T) {
	a, _ := offlineApp(t)
	a.Update(runeKey('?'))
	if !a.help || !strings.Contains(ansi.Strip(a.View().Content), "next expiry") {
		t.Fatal("? opens the help")
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if a.help {
		t.Fatal("esc closes the help")
	}
	_, cmd := a.Update(runeKey('q'))
	if cmd == nil || a.ctx.Err() == nil {
		t.Fatal("q quits and cancels requests in flight")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q does not return tea.Quit")
	}
}

func TestErrTextSaysWhatHappensNext(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&api.RateLimitError{APIError: api.APIError{StatusCode: 429, Message: "per-second limit"}, RetryAfter: 2 * time.Second}, "retrying in 2s"},
		{api.ErrUnauthorized, "chainwatch login"},
		{&api.APIError{StatusCode: 400, Endpoint: "allaccess/time-and-sales/option-trades", Message: "not licensed\nsecond line"}, "not licensed"},
		{errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), "connection refused"},
	} {
		got := errText(tc.err)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "\n") {
			t.Errorf("errText(%v) = %q, want it to say %q on one line", tc.err, got, tc.want)
		}
	}
}
