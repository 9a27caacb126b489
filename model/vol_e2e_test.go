package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/api"
	"chainwatch/feed"
)

// volSnap is what the vol flow reads of the running App, taken on the
// program's goroutine.
type volSnap struct {
	loaded   bool
	open     bool
	expiry   api.Date
	tapeSeen bool // the tape is polled (the App's wants)
	termDue  bool // a term-structure fetch is planned
	smile    string
	frame    string // the frame as drawn, plain
}

func volSnapOf(a *App) volSnap {
	s := volSnap{
		loaded: !a.ws().Chain().LastOK().IsZero() && a.ws().Chain().Strikes() > 0, open: volShown(a), expiry: a.ws().Chain().Expiry(),
		tapeSeen: a.polled(feed.FeedTape), termDue: !a.feeds().Due(feed.FeedTerm).IsZero(),
	}
	s.frame = ansi.Strip(a.drawAt(a.sh.Now()))
	for _, l := range strings.Split(s.frame, "\n") {
		if i := strings.Index(l, "Smile "); i >= 0 {
			s.smile = strings.Fields(l[i:])[1]
		}
	}
	return s
}

// TestVolPageEndToEnd runs the real program in a virtual terminal against
// the sandbox over loopback HTTP and OAuth2, as a new user would: the
// SPY ladder with its expiry strip, v for the vol page (smile, term
// structure, table, what the term structure costs), ] to the next expiry
// (the smile follows), esc back to the ladder, which polls its tape
// again, and q.
func TestVolPageEndToEnd(t *testing.T) {
	sh := startTestSandbox(t)
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark"})
	tm := teatest.NewTestModel(t, probed[volSnap]{app, volSnapOf}, teatest.WithInitialTermSize(120, 40))
	var screen screenText

	first := waitProbe(t, tm, "SPY ladder loaded", func(s volSnap) bool { return s.loaded })
	if first.open || first.termDue {
		t.Fatalf("the vol page is not open yet: %+v", first)
	}
	screen.wait(t, tm, "the ladder and its strip", "Strike", "Time & Sales", "±")

	tm.Type("v")
	open := waitProbe(t, tm, "vol page open", func(s volSnap) bool { return s.open })
	if open.tapeSeen || !open.termDue {
		t.Fatalf("under the page the tape rests and the term structure is planned: %+v", open)
	}
	screen.wait(t, tm, "the vol page", "SPY volatility", "Smile Nov20", "Term structure", "ATM IV", "RR25", "next expiries")

	tm.Type("]")
	next := waitProbe(t, tm, "next expiry", func(s volSnap) bool { return s.open && s.expiry > first.expiry })
	if next.smile == first.smile || next.smile == "" {
		t.Fatalf("the smile does not follow the expiry: %q", next.smile)
	}
	if !strings.Contains(next.frame, "▶ "+next.smile) {
		t.Errorf("the table does not mark the selected expiry %q:\n%s", next.smile, next.frame)
	}

	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	back := waitProbe(t, tm, "back on the ladder", func(s volSnap) bool { return !s.open })
	if !back.tapeSeen || back.termDue || back.expiry != next.expiry {
		t.Fatalf("back on the ladder: the tape polls, no term fetch, the expiry kept: %+v", back)
	}
	if !strings.Contains(back.frame, "Strike") || strings.Contains(back.frame, "SPY volatility") {
		t.Fatalf("esc did not bring the ladder back:\n%s", back.frame)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
