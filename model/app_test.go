package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/frameclock"
	"chainwatch/model/modeltest"
)

// clock is a settable time source for Update tests.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// offlineApp is an App on a scripted monitor: nothing leaves the process,
// and the test answers the requests it wants answered (offlineRig).
func offlineApp(t *testing.T) (*App, *clock) {
	t.Helper()
	r, c := offlineRig(t)
	return r.a, c
}

// offlineRig is offlineApp with its rig, at 160x48 on the test's clock.
func offlineRig(t *testing.T) (*rig, *clock) {
	t.Helper()
	c := &clock{t: testNow}
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return r, c
}

func okResp(cost int) *api.Response {
	return &api.Response{StatusCode: 200, Cost: cost, PointsLeft: api.Some(int64(1_000_000)), PointsUsed: api.Some(int64(3_000_000))}
}

// loadRig answers the App's first chain request as the service would.
func loadRig(t *testing.T, r *rig, at time.Time) {
	t.Helper()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4), At: at})
	if r.a.ws().Chain().LastOK().IsZero() {
		t.Fatal("the first chain was not applied")
	}
}

// settled waits, at most 5 s, for the monitor to have done what the test
// set off on another goroutine (a reply it books but posts to nobody).
func settled(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 5000 {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%s: not within 5 s", what)
}

func TestAppDropsRepliesForASymbolLeftButCountsTheirPoints(t *testing.T) {
	r, c := offlineRig(t)
	a := r.a
	old := a.q
	spy := r.take(feed.FeedChain) // the first chain, still in flight
	a.Update(runeKey('/'))
	for _, r := range "QQQ" {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.q.Symbol != "QQQ" || a.q.Gen == old.Gen {
		t.Fatalf("query after the prompt: %+v", a.q)
	}
	spy.Answer(feed.ChainMsg{Chain: modeltest.SynthChain(1, 10, 0), Resp: okResp(4)})
	settled(t, "the dropped reply booked", func() bool { return a.link.Mon.Stats(c.t).SessionSpent == 4 })
	r.pump()
	if !a.ws().Chain().LastOK().IsZero() {
		t.Fatal("a chain for SPY, which the user left, was applied to QQQ")
	}
	if got := a.link.Mon.Stats(c.t).SessionSpent; got != 4 {
		t.Fatalf("the dropped reply was charged: spent %d, want 4", got)
	}
}

// TestAppPollingFollowsFocusAndIdleness: the chain's next fetch moves
// out when the terminal loses focus and when the user goes idle, and
// back when they return.
func TestAppPollingFollowsFocusAndIdleness(t *testing.T) {
	r, c := offlineRig(t)
	a := r.a
	loadRig(t, r, c.t)
	due := func() time.Duration { return r.due(feed.FeedChain).Sub(c.t) }
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
	// Idle: the chain's timer fires and its reply comes; the next fetch
	// after it is stretched.
	c.t = c.t.Add(config.IdleAfter + time.Second)
	r.fire()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 1), Resp: okResp(4)})
	a.Update(frameclock.TickMsg{Gen: a.scr.frame.Gen})
	if idle := due(); idle < 3*active {
		t.Fatalf("idle: next chain in %v, active %v", idle, active)
	}
	a.Update(runeKey('j'))
	if d := due(); d > 2*active {
		t.Fatalf("a key wakes polling: next chain in %v, active %v", d, active)
	}
}

func TestAppKeepsDataAndMarksItStaleWhenTheServiceFails(t *testing.T) {
	r, c := offlineRig(t)
	a := r.a
	loadRig(t, r, c.t)
	rows := a.ws().Chain().Strikes()
	c.t = c.t.Add(5 * time.Second)
	fail := func() {
		a.Update(runeKey('r')) // refresh now: the failure comes at once
		r.answer(feed.FeedChain, feed.ChainMsg{Err: &api.APIError{StatusCode: 503, Endpoint: "allaccess/market/option-and-underlying-quotes", Message: "upstream down"}})
	}
	fail()
	if a.ws().Chain().Strikes() != rows {
		t.Fatal("a failure dropped the data on screen")
	}
	h := a.ws().Header(c.t)
	if !h.Stale || h.Age != 5*time.Second {
		t.Fatalf("header after a failure: stale %v age %v", h.Stale, h.Age)
	}
	screen := ansi.Strip(a.drawAt(c.t))
	for _, want := range []string{"STALE", "upstream down"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen does not say %q:\n%s", want, screen)
		}
	}
	// Failures in a row back off past the steady interval: 2, 4, 8, 16 s.
	steady := a.feeds().Interval(feed.FeedChain, c.t)
	for range 3 {
		c.t = c.t.Add(time.Second)
		fail()
	}
	if d := r.due(feed.FeedChain).Sub(c.t); d != 16*time.Second || d <= steady {
		t.Fatalf("after 4 failures the next chain is in %v; want the 16 s backoff (steady %v)", d, steady)
	}
	// It recovers by itself: the next good reply clears the mark.
	c.t = c.t.Add(16 * time.Second)
	r.fire()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(1, 60, 1), Resp: okResp(4)})
	if h := a.ws().Header(c.t); h.Stale {
		t.Fatal("still stale after a good reply")
	}
	if strings.Contains(ansi.Strip(a.drawAt(c.t)), "upstream down") {
		t.Fatal("the status bar still shows an error the screen recovered from")
	}
	if d, want := r.due(feed.FeedChain).Sub(c.t), a.feeds().Interval(feed.FeedChain, c.t); d != want {
		t.Fatalf("after recovery the next chain is in %v, want the steady %v", d, want)
	}
}

// TestAppRecoversFromAFailureAfterTheClose: an evening start whose first
// fetch fails retries within seconds, not at the next open.
func TestAppRecoversFromAFailureAfterTheClose(t *testing.T) {
	r, c := offlineRig(t)
	a := r.a
	c.t = time.Date(2026, 11, 18, 19, 0, 0, 0, api.Eastern)
	start := c.t
	r.answer(feed.FeedChain, feed.ChainMsg{Err: errors.New("dial tcp: connection refused")})
	if d := r.due(feed.FeedChain).Sub(c.t); d <= 0 || d > 2*time.Second {
		t.Fatalf("after a failed first fetch in the evening the next is in %v, want the 2 s backoff", d)
	}
	if h := a.ws().Header(c.t); h.Loading || !h.NoData {
		t.Fatalf("the header must say nothing loaded yet (not STALE 0s, not loading): %+v", h)
	}
	c.t = c.t.Add(2 * time.Second)
	r.fire()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(2, 40, 0), Resp: okResp(4)})
	if d := r.due(feed.FeedChain).Sub(start); d < 10*time.Hour {
		t.Fatalf("with the close held, the next chain waits for the open; it is in %v", d)
	}
}

// TestAppTapeCatchUp: a full page is followed at once, but not before a
// Retry-After; a backlog larger than the ring starts the tape over from
// the latest window instead of paying for trades it would overwrite.
func TestAppTapeCatchUp(t *testing.T) {
	r, c := offlineRig(t)
	a := r.a
	r.answer(feed.FeedTape, feed.TapeMsg{Trades: modeltest.SynthTrades(1, config.TapePageLimit), Resp: okResp(15)})
	if d := r.due(feed.FeedTape).Sub(c.t); d != 0 || !a.ws().Tape().More() {
		t.Fatalf("a full first page: next tape in %v, more %v; want at once", d, a.ws().Tape().More())
	}
	r.fire() // that fetch
	rl := &api.RateLimitError{APIError: api.APIError{StatusCode: 429, Message: "per-second limit"}, RetryAfter: 30 * time.Second}
	r.answer(feed.FeedCalendar, feed.CalendarMsg{Err: rl})
	from := a.ws().Tape().NextFrom()
	if q := r.answer(feed.FeedTape, feed.TapeMsg{Trades: modeltest.SynthTrades(from, config.TapePageLimit), Resp: okResp(15)}); q.From != from {
		t.Fatalf("the catch-up asked from %d, want %d", q.From, from)
	}
	if d := r.due(feed.FeedTape).Sub(c.t); d < 30*time.Second {
		t.Fatalf("the restart fetch is due in %v, before the 30 s Retry-After", d)
	}
	c.t = c.t.Add(30 * time.Second)
	r.fire()
	q := r.answer(feed.FeedTape, feed.TapeMsg{Trades: modeltest.SynthTrades(3*config.TapePageLimit, 10), Resp: okResp(15)})
	if q.From != 0 || a.ws().Tape().Held() != 10 {
		t.Fatalf("a second full page outgrows the %d-trade ring: the tape should start over from the latest window; asked from %d, holds %d",
			a.cfg.TapeCapacity, q.From, a.ws().Tape().Held())
	}
}

// TestAppTapeKeepsItsFiltersAtTheOpen: the tape starts over on the new
// session at 09:30 and keeps the contract filter the user set.
func TestAppTapeKeepsItsFiltersAtTheOpen(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 20, 9, 29, 0, 0, api.Eastern)}
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	a := r.a
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	loadRig(t, r, c.t)
	if q := r.answer(feed.FeedTape, feed.TapeMsg{Trades: modeltest.SynthTrades(1, 50), Resp: okResp(15)}); q.Day != api.NewDate(2026, 11, 19) {
		t.Fatalf("before the open the tape shows %s, want the 19th", q.Day)
	}
	a.Update(runeKey('x'))
	osi := a.ws().Chain().SelectedOSI()
	if osi == "" || !strings.Contains(ansi.Strip(strings.Join(tapeView(a, 70, 10), "\n")), osi) {
		t.Fatalf("the contract filter is not on for %q", osi)
	}
	c.t = c.t.Add(2 * time.Minute)
	r.fire()
	q := r.answer(feed.FeedTape, feed.TapeMsg{Resp: okResp(15)})
	if q.Day != api.NewDate(2026, 11, 20) || q.From != 0 || a.ws().Tape().Held() != 0 {
		t.Fatalf("at the open the tape starts over on the 20th: day %s from %d, held %d", q.Day, q.From, a.ws().Tape().Held())
	}
	if !strings.Contains(ansi.Strip(strings.Join(tapeView(a, 70, 10), "\n")), osi) {
		t.Fatal("the contract filter was lost at the open")
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
	if a.promptOpen() == nil || !strings.Contains(a.promptOpen().Err(), "future") || a.promptOpen().Value() != "2027-01-04" {
		t.Fatalf("a future date is refused in the prompt, keeping the text: %+v", a.promptOpen())
	}
	a.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	for _, r := range "2026-11-18" {
		a.Update(runeKey(r))
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.promptOpen() != nil || a.q.Date != api.NewDate(2026, 11, 18) || a.q.Gen == gen || !a.q.Historical(testNow) {
		t.Fatalf("after a past date: prompt %v, query %+v", a.promptOpen(), a.q)
	}
	if w, ok := a.want(feed.FeedChain); !ok || !w.Query.Historical(testNow) {
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
	if !helpOpen(a) || !strings.Contains(ansi.Strip(a.View().Content), "next expiry") {
		t.Fatal("? opens the help")
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if helpOpen(a) {
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
