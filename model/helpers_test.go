package model

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"chainwatch/model/common"
	"chainwatch/model/contract"
	"chainwatch/model/help"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/model/watch"
	"chainwatch/model/watchlist"
)

// testNow is the sandbox tests' clock: Friday 2026-11-20, 11:30 Eastern.
var testNow = modeltest.Now

// Key presses as the terminal sends them.
var (
	keyUp   = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown = tea.KeyPressMsg{Code: tea.KeyDown}
)

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// tapeView draws a's tape at w x h, unfocused, through the pane contract.
func tapeView(a *App, w, h int) []string {
	a.ws().Tape().SetSize(w, h)
	a.ws().Tape().SetFocused(false)
	return a.ws().Tape().View()
}

// resize sets the terminal's size as a test draws it, without the replan
// a WindowSizeMsg brings: every part is sized for the next render.
func (a *App) resize(w, h int) {
	a.scr.width, a.scr.height = w, h
	a.prepare()
}

// drawAt is the frame at now, the parts synced first as Update does after
// a message (tests that call update, not Update, draw through it).
func (a *App) drawAt(now time.Time) string {
	a.prepare()
	return a.frame(now)
}

// What the stack and the overlay slot show, for the tests' assertions.
func volShown(a *App) bool      { return a.topID() == common.PageVol }
func wlShown(a *App) bool       { return a.topID() == common.PageWatchlist }
func contractShown(a *App) bool { return a.topID() == common.PageContract }
func helpOpen(a *App) bool {
	_, ok := a.overlay.(*help.Model)
	return ok
}

// scripted is cfg with a data monitor on cfg's clock whose requests wait
// for the test to answer them (script), and whose timers fire only when
// the test advances its clock: a model test moves time by hand and sends
// what it wants, and no request ever leaves the process.
func scripted(tb testing.TB, cfg Config) (Config, *feedtest.Script) {
	tb.Helper()
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := feedtest.NewScript(feedtest.ClockOf(cfg.Now))
	cfg.Monitor = s.Monitor(tb, cfg.Budget)
	return cfg, s
}

// offline is cfg on a scripted monitor nobody answers.
func offline(tb testing.TB, cfg Config) Config {
	cfg, _ = scripted(tb, cfg)
	return cfg
}

// rig is an App on a scripted monitor, and the requests the test has
// taken from the script but not answered yet.
type rig struct {
	tb   testing.TB
	a    *App
	s    *feedtest.Script
	held []*feedtest.Request
}

// newRig builds cfg's App on a scripted monitor (see scripted).
func newRig(tb testing.TB, cfg Config) *rig {
	tb.Helper()
	cfg, s := scripted(tb, cfg)
	return &rig{tb: tb, a: New(cfg), s: s}
}

// pump hands the App everything the monitor has posted to it.
func (r *rig) pump() {
	for _, m := range r.a.link.Sub.Pending() {
		r.a.Update(link.Msg{Msg: m})
	}
}

// fire runs the monitor's timers due by the App's clock (the test moved
// it), and hands the App what they posted.
func (r *rig) fire() {
	r.s.Clock.Advance(0)
	r.pump()
}

// take is the App's next request of feed f, waiting at most 5 s for it;
// requests of other feeds taken on the way are held for later.
func (r *rig) take(f feed.Feed) *feedtest.Request {
	r.tb.Helper()
	for i, q := range r.held {
		if q.Feed == f {
			r.held = append(r.held[:i], r.held[i+1:]...)
			return q
		}
	}
	for range 64 {
		q := r.s.Next(r.tb)
		if q.Feed == f {
			return q
		}
		r.held = append(r.held, q)
	}
	r.tb.Fatalf("no %s request among 64", f)
	return nil
}

// asked is how many requests of f the App has made and the test not
// answered, without waiting.
func (r *rig) asked(f feed.Feed) int {
	r.held = append(r.held, r.s.Pending()...)
	n := 0
	for _, q := range r.held {
		if q.Feed == f {
			n++
		}
	}
	return n
}

// answer answers the App's next request of f with msg (its query, start
// and time filled from the request and the clock where left zero) and
// hands the App what the monitor then posts.
func (r *rig) answer(f feed.Feed, msg any) *feedtest.Request {
	r.tb.Helper()
	q := r.take(f)
	r.answerTo(q, msg)
	return q
}

// answerTo answers request q with msg, hands the App what the monitor then
// posts, and returns the command the App's Update returned for the reply.
func (r *rig) answerTo(q *feedtest.Request, msg any) tea.Cmd {
	r.tb.Helper()
	r.pump()
	q.Answer(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, ok := r.a.link.Sub.Next(ctx)
	if !ok {
		r.tb.Fatalf("the %s reply was not posted in 5 s", q.Feed)
	}
	_, cmd := r.a.Update(link.Msg{Msg: m})
	r.pump()
	return cmd
}

// want is the App's want of f as handed to the monitor (the first, when
// two queries' are: a symbol looked up).
func (a *App) want(f feed.Feed) (feed.Want, bool) {
	_, ws := a.wants()
	for _, w := range ws {
		if w.Feed == f {
			return w, true
		}
	}
	return feed.Want{}, false
}

// polled reports whether the App hands the monitor f shown: some page
// that shows wants it.
func (a *App) polled(f feed.Feed) bool {
	_, ws := a.wants()
	for _, w := range ws {
		if w.Feed == f && !w.Hidden {
			return true
		}
	}
	return false
}

// due is when the monitor plans f's next fetch, from the App's snapshot.
func (r *rig) due(f feed.Feed) time.Time { return r.a.feeds().Due(f) }

// The pages, for their exported state.
func (a *App) ws() *watch.Screen   { return a.built[common.PageWatch].(*watch.Screen) }
func (a *App) cp() *contract.Page  { return a.built[common.PageContract].(*contract.Page) }
func (a *App) wl() *watchlist.Page { return a.built[common.PageWatchlist].(*watchlist.Page) }

// openContractPage opens the contract page of osi as enter on the watch
// screen does.
func (a *App) openContractPage(osi string) tea.Cmd {
	return a.do(common.Open{Page: common.PageContract, Msg: common.OpenContract{OSI: osi}})
}

// fetchNow fetches each of fs at once, as the refresh key does.
func (a *App) fetchNow(fs ...feed.Feed) { a.link.Sub.Refresh(fs...) }

// feedView is what the tests read of the feeds: when each is due, what
// is in flight, how often the budget lets it run, the points; from the
// snapshot taken after the last message.
type feedView struct{ snap *feed.Snapshot }

func (a *App) feeds() feedView { return feedView{&a.link.Snap} }

func (v feedView) Due(f feed.Feed) time.Time { return v.snap.Feeds[f].Due }

func (v feedView) InFlight(f feed.Feed) bool { return v.snap.Feeds[f].InFlight }

func (v feedView) Interval(f feed.Feed, _ time.Time) time.Duration { return v.snap.Feeds[f].Interval }

func (v feedView) Stats(time.Time) feed.Stats { return v.snap.Stats }
