package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/feed"
	"chainwatch/model/frameclock"
)

// appAt is offlineApp on a clock that starts at now.
func appAt(t *testing.T, now time.Time) (*App, *clock) {
	t.Helper()
	c := &clock{t: now}
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	loadRig(t, r, now)
	return r.a, c
}

// TestFrameClockClosedMarketDrawsOnceAMinute: on a closed market nothing
// on screen counts seconds, so the only tick is at the next minute, when
// the pause's countdown changes; between ticks nothing is drawn, an
// outdated tick included.
func TestFrameClockClosedMarketDrawsOnceAMinute(t *testing.T) {
	a, c := appAt(t, closedEvening.Add(17*time.Second))
	if want := closedEvening.Add(time.Minute + frameclock.Margin); !a.scr.frame.Due.Equal(want) {
		t.Fatalf("next frame at %v, want the next minute %v", a.scr.frame.Due, want)
	}
	first := a.View().Content
	renders := a.scr.frame.Renders
	if !strings.Contains(ansi.Strip(first), "(in 13h30m)") {
		t.Fatalf("the status bar does not show the pause:\n%s", ansi.Strip(first))
	}
	a.Update(frameclock.TickMsg{Gen: a.scr.frame.Gen - 1}) // a tick an earlier plan armed
	if a.View().Content != first || a.scr.frame.Renders != renders {
		t.Fatalf("an outdated tick drew a frame: %d renders, was %d", a.scr.frame.Renders, renders)
	}
	c.t = a.scr.frame.Due
	a.Update(frameclock.TickMsg{Gen: a.scr.frame.Gen})
	next := ansi.Strip(a.View().Content)
	if a.scr.frame.Renders != renders+1 || !strings.Contains(next, "(in 13h29m)") {
		t.Fatalf("the minute's tick: %d renders (was %d), status %q", a.scr.frame.Renders, renders, lastLine(next))
	}
	if want := closedEvening.Add(2*time.Minute + frameclock.Margin); !a.scr.frame.Due.Equal(want) {
		t.Fatalf("after the tick the next frame is at %v, want %v", a.scr.frame.Due, want)
	}
}

// TestFrameClockSecondsWhileCounting: a live session shows the quote's
// age and the next refresh in seconds, so the clock ticks every second;
// an error's age appearing on a quiet screen outdates the minute's tick.
func TestFrameClockSecondsWhileCounting(t *testing.T) {
	a, c := appAt(t, testNow.Add(300*time.Millisecond))
	if d := a.scr.frame.Due.Sub(c.t); d <= 0 || d > time.Second+frameclock.Margin {
		t.Fatalf("live session: next frame in %v, want within the second", d)
	}

	a, c = appAt(t, closedEvening.Add(17*time.Second))
	minute := a.scr.frame.Gen
	a.Update(feed.CalendarMsg{Query: a.q, Err: errors.New("connection refused"), At: c.t})
	if a.scr.frame.Gen == minute || a.scr.frame.Due.Sub(c.t) > time.Second+frameclock.Margin {
		t.Fatalf("an error's age on screen: next frame in %v (gen %d, was %d), want within the second",
			a.scr.frame.Due.Sub(c.t), a.scr.frame.Gen, minute)
	}
}

func lastLine(s string) string { return s[strings.LastIndexByte(strings.TrimRight(s, "\n"), '\n')+1:] }
