package model

import (
	"fmt"
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
// (the first fetch of a screen, answered through the monitor, which books
// it), at the clock *now points to; the screen's tape and calendar
// requests are left unanswered.
func volApp(t *testing.T, now *time.Time) *rig {
	t.Helper()
	sh := startTestSandbox(t)
	r := newRig(t, Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return *now }, Theme: "dark"})
	a := r.a
	a.resize(120, 40)
	a.Init()
	m := a.sh.Source().Chain(t.Context(), a.q, 0)
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	if q := r.answer(feed.FeedChain, m); q.Expiry != 0 {
		t.Fatalf("the screen's first chain asked for the expiry %v, not the whole chain", q.Expiry)
	}
	if a.ws().Chain().FullAt().IsZero() {
		t.Fatal("the whole chain was not applied")
	}
	return r
}

// TestGoldenVolScreen: the vol page as the App composes it, under the
// header and over the status bar, at 80x24 and 160x48, and without
// colour at 120x40.
func TestGoldenVolScreen(t *testing.T) {
	now := testNow
	a := volApp(t, &now).a
	a.Update(runeKey('v')) // the monitor plans the term structure
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

// TestVolTermFetchOnlyWhileShown: the term structure (a whole chain, 4
// points) is planned only while the page shows: from the whole chain
// held (no fetch while it is fresh), at least TermFirstDelay after
// opening, and not at all once the page is closed; its reply refreshes
// the ladder's chain and is counted.
//
// The scripted source files a term-structure request under FeedChain
// (it is a whole chain, Expiry 0): it is told from the chain's by the
// snapshot's InFlight(FeedTerm) and by the chain's own request being
// taken first.
func TestVolTermFetchOnlyWhileShown(t *testing.T) {
	now := testNow
	r := volApp(t, &now)
	a := r.a
	if due := r.due(feed.FeedTerm); !due.IsZero() {
		t.Fatalf("the term structure is planned with the page hidden: %v", due)
	}
	a.Update(runeKey('v'))
	if !volShown(a) || !a.polled(feed.FeedTerm) || a.polled(feed.FeedTape) {
		t.Fatalf("open: %v, term polled %v, tape polled %v", volShown(a), a.polled(feed.FeedTerm), a.polled(feed.FeedTape))
	}
	armed := r.due(feed.FeedTerm) // the timer armed at opening
	if !armed.Equal(a.ws().Chain().FullAt().Add(5 * time.Minute)) {
		t.Fatalf("a fresh whole chain: next term fetch %v, want its time + 5m", armed)
	}
	a.Update(runeKey('v')) // v closes it too
	if volShown(a) || !r.due(feed.FeedTerm).IsZero() {
		t.Fatalf("closed: open %v, due %v", volShown(a), r.due(feed.FeedTerm))
	}
	// The time the timer armed at opening was for: the page hidden, no
	// term fetch. The chain's own refresh comes due meanwhile (its
	// request is taken and left unanswered: the chain stays in flight).
	now = armed
	r.fire()
	if a.feeds().InFlight(feed.FeedTerm) {
		t.Fatal("a term timer fired with the page hidden")
	}
	if q := r.take(feed.FeedChain); q.Expiry == 0 || !a.feeds().InFlight(feed.FeedChain) {
		t.Fatalf("the chain's refresh: expiry %v (want the selected one), in flight %v", q.Expiry, a.feeds().InFlight(feed.FeedChain))
	}
	if n := r.asked(feed.FeedChain); n != 0 {
		t.Fatalf("%d whole-chain requests besides the chain's refresh with the page hidden", n)
	}

	now = testNow.Add(20 * time.Minute) // the held whole chain is now old
	a.Update(runeKey('v'))
	if due := r.due(feed.FeedTerm); !due.Equal(now.Add(config.TermFirstDelay)) {
		t.Fatalf("an old whole chain: next term fetch %v, want now + %v", due, config.TermFirstDelay)
	}
	plain := ansi.Strip(a.drawAt(now))
	if !strings.Contains(plain, "next expiries 3s (4 pts)") || !strings.Contains(plain, "all expiries 20m00s old") {
		t.Fatalf("the cost before the first fetch:\n%s", plain)
	}
	spent := a.feeds().Stats(now).SessionSpent
	now = now.Add(config.TermFirstDelay)
	r.fire()
	if !a.feeds().InFlight(feed.FeedTerm) {
		t.Fatalf("the term timer did not fetch: in flight %v", a.feeds().InFlight(feed.FeedTerm))
	}
	if p := ansi.Strip(a.drawAt(now)); !strings.Contains(p, "fetching 4 pts") {
		t.Errorf("no fetching mark:\n%s", p)
	}
	reply := a.sh.Source().Term(t.Context(), a.q)
	r.answer(feed.FeedTerm, reply)
	if got := a.feeds().Stats(now).SessionSpent - spent; got != 4 {
		t.Errorf("the term fetch cost %d points, want 4", got)
	}
	if !a.ws().Chain().FullAt().Equal(reply.At) || a.feeds().InFlight(feed.FeedTerm) {
		t.Errorf("the whole chain was not taken: %v", a.ws().Chain().FullAt())
	}
	if due := r.due(feed.FeedTerm); !due.Equal(reply.At.Add(5 * time.Minute)) {
		t.Errorf("next term fetch %v, want 5m after the reply", due)
	}
	a.Update(keyEsc())
	if volShown(a) || !a.polled(feed.FeedTape) || !r.due(feed.FeedTerm).IsZero() {
		t.Fatalf("esc: open %v, tape polled %v, term due %v", volShown(a), a.polled(feed.FeedTape), r.due(feed.FeedTerm))
	}
}

// TestVolPastDayIsNotRefreshed: a past day's whole chain never changes,
// so the page never fetches it again and says so.
func TestVolPastDayIsNotRefreshed(t *testing.T) {
	now := testNow
	r := volApp(t, &now)
	a := r.a
	a.changeQuery(feed.Query{Symbol: "SPY", Mode: api.Live, Date: api.NewDate(2026, 11, 19)})
	a.syncFeeds() // as Update does after the date prompt
	if q := r.answer(feed.FeedChain, a.sh.Source().Chain(t.Context(), a.q, 0)); q.Query.Date != a.q.Date {
		t.Fatalf("the chain answered was for %v, not the past day", q.Query.Date)
	}
	a.Update(runeKey('v'))
	if due := r.due(feed.FeedTerm); !due.IsZero() || a.feeds().InFlight(feed.FeedTerm) {
		t.Fatalf("a past day's term structure is planned: %v", due)
	}
	if p := ansi.Strip(a.drawAt(now)); !strings.Contains(p, "a past day: not refreshed") {
		t.Errorf("the page does not say it:\n%s", p)
	}
}

// TestVolHelpListsThePageKeys: the help over the vol page lists the
// page's keys (its keys themselves are model/watch's TestVolKeys).
func TestVolHelpListsThePageKeys(t *testing.T) {
	now := testNow
	a := volApp(t, &now).a
	a.update(runeKey('v'))
	a.update(runeKey('?'))
	if p := ansi.Strip(a.drawAt(now)); !helpOpen(a) || !strings.Contains(p, "strike (the ladder's cursor)") {
		t.Errorf("help over the page shows the page's keys:\n%s", p)
	}
}

func keyEsc() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyEscape} }
