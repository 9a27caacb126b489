package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// posSnap is what the positioning flow reads of the running App, taken
// on the program's goroutine.
type posSnap struct {
	held     bool // the ladder holds a whole chain
	open     bool
	figures  bool // the page holds the chain and has drawn its figures
	label    string
	fetching bool // a chain request is in flight
	frame    string
}

func posSnapOf(a *App) posSnap {
	f, _ := a.pp().Figures()
	return posSnap{
		held: !a.ws().Chain().FullAt().IsZero(), open: a.topID() == common.PagePositioning,
		figures: a.pp().Held() && len(f.Rows) > 0, label: a.pp().Range().Label(),
		fetching: a.feeds().InFlight(feed.FeedChain) || a.feeds().InFlight(feed.FeedTerm),
		frame:    ansi.Strip(a.drawAt(a.sh.Now())),
	}
}

// TestPositioningEndToEnd runs the real program in a virtual terminal
// against the sandbox over loopback HTTP and OAuth2: the SPY ladder, p
// for the positioning page, which opens on the whole chain the screen
// holds with no request of its own (the sandbox's log counts them), f
// through 0DTE, this week, 30 days and all, the figures and the dealer
// assumption on screen, esc back to the ladder, and q.
func TestPositioningEndToEnd(t *testing.T) {
	var reqs modeltest.Requests
	sh := startSandboxWith(t, sandbox.Config{Logger: reqs.Logger()})
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark"})
	tm := teatest.NewTestModel(t, probed[posSnap]{app, posSnapOf}, teatest.WithInitialTermSize(160, 48))
	var screen screenText

	waitProbe(t, tm, "SPY's whole chain held", func(s posSnap) bool { return s.held })
	tm.Type("p")
	waitProbe(t, tm, "the page open on its figures, nothing in flight", func(s posSnap) bool { return s.open && s.figures && !s.fetching })
	const quotes = "/option-and-underlying-quotes"
	before := reqs.Count(quotes)
	screen.wait(t, tm, "the page", "SPY positioning  30 days", "held: 0 pts", "◀ puts", "calls ▶", "spot ", "Call wall", "Put wall",
		"GEX per 1% move", "Zero gamma", "dealers assumed long calls, short puts", "Max pain")

	var frames []string
	for _, want := range []string{"all", "0DTE", "this week", "30 days"} {
		tm.Type("f")
		s := waitProbe(t, tm, "range "+want, func(s posSnap) bool { return s.label == want })
		if !strings.Contains(s.frame, "SPY positioning  "+want) {
			t.Fatalf("the title does not name %q:\n%s", want, s.frame)
		}
		frames = append(frames, s.frame)
	}
	if frames[0] == frames[1] || frames[1] == frames[3] {
		t.Error("the ranges draw the same page")
	}
	if n := reqs.Count(quotes); n != before {
		t.Errorf("the page made %d chain requests of its own: %v", n-before, reqs.Paths()[len(reqs.Paths())-(n-before):])
	}

	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	back := waitProbe(t, tm, "back on the ladder", func(s posSnap) bool { return !s.open })
	if !strings.Contains(back.frame, "Strike") || strings.Contains(back.frame, "SPY positioning") {
		t.Fatalf("esc did not bring the ladder back:\n%s", back.frame)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
