package model

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// ivSnap is what the tape's IV column shows in the running App.
type ivSnap struct {
	loaded                    bool
	own, quote, waiting, none int
	frame                     string
}

func ivSnapOf(a *App) ivSnap {
	tp := a.ws().Tape()
	s := ivSnap{loaded: !a.ws().Chain().LastOK().IsZero() && tp.Held() > 0, frame: ansi.Strip(a.drawAt(a.sh.Now()))}
	s.own, s.quote, s.waiting, s.none = tp.IVShown()
	return s
}

// TestTapeQuoteIVEndToEnd: the real program on the sandbox mid-session,
// SPY, the tape's greeks columns on (i) in a 160x48 terminal: the prints
// of the ladder's contracts take their quotes' IV as soon as the ladder
// and the tape are in, before any of the tape's own greeks requests could
// cover them, so most prints on screen carry an IV, and the title says
// which are the quote's.
func TestTapeQuoteIVEndToEnd(t *testing.T) {
	sh := startTestSandbox(t)
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark"})
	tm := teatest.NewTestModel(t, probed[ivSnap]{app, ivSnapOf}, teatest.WithInitialTermSize(160, 48))
	waitProbe(t, tm, "SPY ladder and tape loaded", func(s ivSnap) bool { return s.loaded })
	tm.Type("i")
	s := waitProbe(t, tm, "the quotes' IVs on the tape", func(s ivSnap) bool { return s.quote > 0 })
	shown := s.own + s.quote + s.waiting + s.none
	if shown < 10 || 2*(s.own+s.quote) < shown {
		t.Fatalf("%d prints shown: %d with their own IV, %d the quote's, %d waiting, %d none\n%s", shown, s.own, s.quote, s.waiting, s.none, s.frame)
	}
	t.Logf("%d prints shown: %d own IV, %d the quote's, %d waiting, %d none", shown, s.own, s.quote, s.waiting, s.none)
	if !strings.Contains(s.frame, "~ quote's") {
		t.Fatalf("the title does not say which IVs are the quote's:\n%s", s.frame)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
