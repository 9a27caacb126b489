package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/theme"
)

// volApp is the SPY screen on the sandbox with its whole chain applied
// (the first fetch of a screen), at the clock *now points to.
func volApp(t *testing.T, now *time.Time) *App {
	t.Helper()
	sh := startTestSandbox(t)
	a := New(offline(t, Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return *now }, Theme: "dark"}))
	a.resize(120, 40)
	m := a.sh.Source().Chain(t.Context(), a.q, 0)
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	a.update(m)
	if a.w.chain.FullAt().IsZero() {
		t.Fatal("the whole chain was not applied")
	}
	return a
}

// TestGoldenVolScreen: the vol page as the App composes it, under the
// header and over the status bar, at 80x24 and 160x48, and without
// colour at 120x40.
func TestGoldenVolScreen(t *testing.T) {
	now := testNow
	a := volApp(t, &now)
	a.update(runeKey('v'))
	for _, tc := range []struct {
		w, h    int
		noColor bool
	}{{80, 24, false}, {160, 48, false}, {120, 40, true}} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.noColor {
			name += "-nocolor"
		}
		t.Run(name, func(t *testing.T) {
			a.resize(tc.w, tc.h)
			a.sh.Styles = theme.New(theme.Dark(), tc.noColor)
			out := a.drawAt(now)
			lines := strings.Split(out, "\n")
			if len(lines) != tc.h {
				t.Fatalf("%d lines", len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != tc.w {
					t.Fatalf("line %d is %d cells: %q", i, w, ansi.Strip(l))
				}
			}
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range []string{"SPY volatility", "Smile Nov20 0d", "Term structure", "● call", "○ put", "Expiry", "ATM IV", "RR25", "next expiries 5m00s (4 pts)"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the page lacks %q:\n%s", want, plain)
				}
			}
			if tc.noColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;")) {
				t.Error("NO_COLOR page carries colours")
			}
		})
	}
}

// TestVolPageMatchesTheLadder: the selected expiry's ATM IV and expected
// move are the ladder's own numbers (its ATM call and put: IVs averaged,
// mids added), and every tab's strip shows the page's figures.
func TestVolPageMatchesTheLadder(t *testing.T) {
	now := testNow
	a := volApp(t, &now)
	a.update(keyDown) // a step off the money and back: the cursor is the ladder's
	a.update(keyUp)
	call, ok := a.w.chain.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	a.update(keyRight())
	put, _ := a.w.chain.Selected()
	a.update(runeKey('v'))
	a.drawAt(now)
	figs := a.parts.vol.Figures()
	sel := -1
	for i, f := range figs {
		if f.Date == a.w.chain.Expiry() {
			sel = i
		}
	}
	if sel < 0 {
		t.Fatalf("the selected expiry %v is not on the page", a.w.chain.Expiry())
	}
	f := figs[sel]
	if f.ATMStrike != call.Strike {
		t.Fatalf("ATM %v, the ladder's money %v", f.ATMStrike, call.Strike)
	}
	if want := (call.Contract.IV + put.Contract.IV) / 2; math.Abs(f.ATMIV-want) > 1e-12 {
		t.Errorf("ATM IV %v, the ladder's %v and %v", f.ATMIV, call.Contract.IV, put.Contract.IV)
	}
	if want := call.Contract.Mid + put.Contract.Mid; math.Abs(f.Move-want) > 1e-9 {
		t.Errorf("move %v, the ladder's mids %v + %v", f.Move, call.Contract.Mid, put.Contract.Mid)
	}
	if f.RR25 >= 0 || math.IsNaN(f.BF25) || !(f.PCVolume > 0) {
		t.Errorf("SPY's skew and volumes: %+v", f)
	}
	tabs, _ := a.w.chain.Tabs()
	if len(tabs) != len(figs) {
		t.Fatalf("%d tabs, %d expiries on the page", len(tabs), len(figs))
	}
	for i, tab := range tabs {
		if tab.Date != figs[i].Date || !same(tab.ATMIV, figs[i].ATMIV) || !same(tab.Move, figs[i].Move) {
			t.Errorf("tab %v: strip %v ±%v, page %v ±%v", tab.Date, tab.ATMIV, tab.Move, figs[i].ATMIV, figs[i].Move)
		}
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestVolTermFetchOnlyWhileShown: the term structure (a whole chain, 4
// points) is planned only while the page shows: from the whole chain
// held (no fetch while it is fresh), at least TermFirstDelay after
// opening, and not at all once the page is closed; its reply refreshes
// the ladder's chain and is counted.
func TestVolTermFetchOnlyWhileShown(t *testing.T) {
	now := testNow
	a := volApp(t, &now)
	if due := a.poll.due[feed.FeedTerm]; !due.IsZero() {
		t.Fatalf("the term structure is planned with the page hidden: %v", due)
	}
	a.update(runeKey('v'))
	if !volShown(a) || !a.poll.cond.VolVisible || a.poll.cond.TapeVisible {
		t.Fatalf("open: %v, conditions %+v", volShown(a), a.poll.cond)
	}
	if due := a.poll.due[feed.FeedTerm]; !due.Equal(a.w.chain.FullAt().Add(5 * time.Minute)) {
		t.Fatalf("a fresh whole chain: next term fetch %v, want its time + 5m", due)
	}
	armed := pollMsg{feed: feed.FeedTerm, gen: a.poll.gen[feed.FeedTerm]} // the timer armed at opening
	a.update(runeKey('v'))                                                // v closes it too
	if volShown(a) || !a.poll.due[feed.FeedTerm].IsZero() {
		t.Fatalf("closed: open %v, due %v", volShown(a), a.poll.due[feed.FeedTerm])
	}
	if cmd := a.update(armed); cmd != nil || a.poll.inflight[feed.FeedTerm] != 0 {
		t.Fatal("a term timer fired with the page hidden")
	}
	stale := pollMsg{feed: feed.FeedTerm, gen: a.poll.gen[feed.FeedTerm]}
	if cmd := a.update(stale); cmd != nil || a.poll.inflight[feed.FeedTerm] != 0 {
		t.Fatal("a term timer fired with the page hidden")
	}

	now = now.Add(20 * time.Minute) // the held whole chain is now old
	a.update(runeKey('v'))
	if due := a.poll.due[feed.FeedTerm]; !due.Equal(now.Add(config.TermFirstDelay)) {
		t.Fatalf("an old whole chain: next term fetch %v, want now + %v", due, config.TermFirstDelay)
	}
	plain := ansi.Strip(a.drawAt(now))
	if !strings.Contains(plain, "next expiries 3s (4 pts)") || !strings.Contains(plain, "all expiries 20m00s old") {
		t.Fatalf("the cost before the first fetch:\n%s", plain)
	}
	spent := a.poll.sched.Stats(now).SessionSpent
	cmd := a.update(pollMsg{feed: feed.FeedTerm, gen: a.poll.gen[feed.FeedTerm]})
	if cmd == nil || a.poll.inflight[feed.FeedTerm] != 1 {
		t.Fatal("the term timer did not fetch")
	}
	if p := ansi.Strip(a.drawAt(now)); !strings.Contains(p, "fetching 4 pts") {
		t.Errorf("no fetching mark:\n%s", p)
	}
	reply := findMsg[termMsg](t, cmd)
	a.update(reply)
	if got := a.poll.sched.Stats(now).SessionSpent - spent; got != 4 {
		t.Errorf("the term fetch cost %d points, want 4", got)
	}
	if !a.w.chain.FullAt().Equal(reply.At) || a.poll.inflight[feed.FeedTerm] != 0 {
		t.Errorf("the whole chain was not taken: %v", a.w.chain.FullAt())
	}
	if due := a.poll.due[feed.FeedTerm]; !due.Equal(reply.At.Add(5 * time.Minute)) {
		t.Errorf("next term fetch %v, want 5m after the reply", due)
	}
	a.update(keyEsc())
	if volShown(a) || !a.poll.cond.TapeVisible || !a.poll.due[feed.FeedTerm].IsZero() {
		t.Fatalf("esc: open %v, conditions %+v", volShown(a), a.poll.cond)
	}
}

// TestVolPastDayIsNotRefreshed: a past day's whole chain never changes,
// so the page never fetches it again and says so.
func TestVolPastDayIsNotRefreshed(t *testing.T) {
	now := testNow
	a := volApp(t, &now)
	a.changeQuery(feed.Query{Symbol: "SPY", Mode: api.Live, Date: api.NewDate(2026, 11, 19)})
	m := a.sh.Source().Chain(t.Context(), a.q, 0)
	a.update(m)
	a.update(runeKey('v'))
	if due := a.poll.due[feed.FeedTerm]; !due.IsZero() {
		t.Fatalf("a past day's term structure is planned: %v", due)
	}
	if p := ansi.Strip(a.drawAt(now)); !strings.Contains(p, "a past day: not refreshed") {
		t.Errorf("the page does not say it:\n%s", p)
	}
}

// TestVolKeys: up and down (and the expiry keys) pick the expiry, left
// and right the strike, o the smile's mode; the ladder follows, since it
// is the ladder's selection.
func TestVolKeys(t *testing.T) {
	now := testNow
	a := volApp(t, &now)
	a.update(runeKey('v'))
	first := a.w.chain.Expiry()
	a.update(keyDown)
	if a.w.chain.Expiry() <= first {
		t.Fatalf("down: expiry %v", a.w.chain.Expiry())
	}
	a.update(runeKey('['))
	if a.w.chain.Expiry() != first {
		t.Fatalf("[: expiry %v, want %v", a.w.chain.Expiry(), first)
	}
	k := a.w.chain.CursorStrike()
	a.update(keyRight())
	if a.w.chain.CursorStrike() <= k {
		t.Fatalf("right: strike %v after %v", a.w.chain.CursorStrike(), k)
	}
	a.update(runeKey('o'))
	if !a.parts.vol.Both() || !strings.Contains(ansi.Strip(a.drawAt(now)), "◐ both") {
		t.Error("o does not show calls and puts apart")
	}
	a.update(runeKey('?'))
	if p := ansi.Strip(a.drawAt(now)); !helpOpen(a) || !strings.Contains(p, "strike (the ladder's cursor)") {
		t.Errorf("help over the page shows the page's keys:\n%s", p)
	}
}

func keyRight() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyRight} }
func keyEsc() tea.KeyPressMsg   { return tea.KeyPressMsg{Code: tea.KeyEscape} }

// findMsg runs cmd (timers skipped) and returns its one message of type M.
func findMsg[M any](t *testing.T, cmd tea.Cmd) M {
	t.Helper()
	for _, m := range newScanDriver(t, nil).run(cmd) {
		if v, ok := m.(M); ok {
			return v
		}
	}
	var zero M
	t.Fatalf("no %T among the command's messages", zero)
	return zero
}

// TestVolPageBeforeTheChain: v before the first chain arrives says it is
// loading, at its exact size, and the page fills in when the chain comes.
func TestVolPageBeforeTheChain(t *testing.T) {
	now := testNow
	sh := startTestSandbox(t)
	a := New(offline(t, Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark"}))
	a.resize(80, 24)
	a.update(runeKey('v'))
	out := a.drawAt(now)
	if lines := strings.Split(out, "\n"); len(lines) != 24 || ansi.StringWidth(lines[10]) != 80 {
		t.Fatalf("%d lines", len(lines))
	}
	if !strings.Contains(ansi.Strip(out), "loading SPY…") {
		t.Fatalf("no loading message:\n%s", ansi.Strip(out))
	}
	a.update(a.sh.Source().Chain(t.Context(), a.q, 0))
	if p := ansi.Strip(a.drawAt(now)); !strings.Contains(p, "Term structure") || strings.Contains(p, "loading") {
		t.Fatalf("the chain did not fill the page:\n%s", p)
	}
}
