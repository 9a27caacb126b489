package model

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
)

// strikeRows counts the ladder's strike rows in a frame: lines that start
// with the calls' open interest and end with the puts'.
func strikeRows(frame string) int {
	n := 0
	for _, line := range strings.Split(frame, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 {
			continue
		}
		_, e1 := strconv.Atoi(f[0])
		_, e2 := strconv.Atoi(f[len(f)-1])
		if e1 == nil && e2 == nil {
			n++
		}
	}
	return n
}

// TestAppBannerKeepsTheLaddersStrikes: at 80x24 the first-run banner goes
// over the tape and calendar, not the ladder, which keeps its strikes;
// t alone (the banner gone) gives the ladder ui.MinLadderStrikes, and the
// banner shown then leaves it as many.
func TestAppBannerKeepsTheLaddersStrikes(t *testing.T) {
	now := testNow
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark", FirstRun: true})
	a := r.a
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	frame := ansi.Strip(a.drawAt(now))
	with := strikeRows(frame)
	if !strings.Contains(frame, "Welcome to chainwatch.") || !strings.Contains(frame, "Any key dismisses this") {
		t.Fatalf("no whole banner at 80x24:\n%s", frame)
	}
	a.Update(runeKey('x')) // dismisses the banner, nothing else
	frame = ansi.Strip(a.drawAt(now))
	if a.ws().Banner() || strikeRows(frame) != with || with < 8 {
		t.Fatalf("strikes: %d under the banner, %d without it; want the same, 8 or more:\n%s", with, strikeRows(frame), frame)
	}
	a.Update(runeKey('t'))
	frame = ansi.Strip(a.drawAt(now))
	if n := strikeRows(frame); n < ui.MinLadderStrikes || !strings.Contains(frame, "Events") {
		t.Fatalf("t alone: %d strikes (want %d) with the events still shown:\n%s", n, ui.MinLadderStrikes, frame)
	}
	a.ws().ShowBanner()
	frame = ansi.Strip(a.drawAt(now))
	if n := strikeRows(frame); n < ui.MinLadderStrikes || !strings.Contains(frame, "Welcome to chainwatch.") {
		t.Fatalf("the banner with the tape hidden: %d strikes, want %d:\n%s", n, ui.MinLadderStrikes, frame)
	}
}

// TestBannerNamesHelpAndPassesItOn: at 80x24 the first-run banner names
// the help key and the status bar keeps "? help"; that key dismisses the
// banner and opens the help (it was swallowed, as every key was), whose
// box is whole; any other key only dismisses the banner.
func TestBannerNamesHelpAndPassesItOn(t *testing.T) {
	now := testNow
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: func() time.Time { return now }, Theme: "dark", FirstRun: true})
	a := r.a
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	frame := ansi.Strip(a.drawAt(now))
	lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
	if !strings.Contains(frame, "Any key dismisses this; ? shows every key.") || !strings.Contains(lines[len(lines)-1], " ? help") {
		t.Fatalf("the banner or the status bar does not name the help:\n%s", frame)
	}
	a.Update(runeKey('?'))
	frame = ansi.Strip(a.drawAt(now))
	if a.ws().Banner() || a.overlay == nil || !strings.Contains(frame, "chainwatch · keys") {
		t.Fatalf("? under the banner: banner %v, overlay %v:\n%s", a.ws().Banner(), a.overlay, frame)
	}
	for _, corner := range []string{"╭", "╮", "╰", "╯"} {
		if !strings.Contains(frame, corner) {
			t.Errorf("the help box lacks its %s corner at 80x24:\n%s", corner, frame)
		}
	}
	a.Update(runeKey('?'))
	a.ws().ShowBanner()
	a.Update(runeKey('q')) // dismisses the banner, does not quit
	if a.ws().Banner() || a.overlay != nil {
		t.Fatalf("q under the banner: banner %v, overlay %v", a.ws().Banner(), a.overlay)
	}
}
