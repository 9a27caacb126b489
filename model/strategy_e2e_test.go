package model

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/config"
	"chainwatch/model/common"
)

// stratSnap is what the strategy flow reads of the running App.
type stratSnap struct {
	loaded bool
	top    common.PageID
	frame  string
}

func stratSnapOf(a *App) stratSnap {
	return stratSnap{loaded: !a.ws().Chain().LastOK().IsZero() && a.ws().Chain().Strikes() > 0, top: a.topID(),
		frame: ansi.Strip(a.drawAt(a.sh.Now()))}
}

// TestStrategyEndToEnd is the "done when", in a virtual terminal
// against the sandbox over loopback HTTP and OAuth2: on the SPY ladder,
// space buys the call under the cursor, two strikes down z sells one,
// T shows the vertical with its net greeks, breakevens and risk graph; s
// saves it as a position, which the positions page (P) shows marked.
func TestStrategyEndToEnd(t *testing.T) {
	sh := startTestSandbox(t)
	path := filepath.Join(t.TempDir(), "positions.toml")
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark", PositionsPath: path})
	tm := teatest.NewTestModel(t, probed[stratSnap]{app, stratSnapOf}, teatest.WithInitialTermSize(160, 48))
	var screen screenText

	waitProbe(t, tm, "SPY ladder loaded", func(s stratSnap) bool { return s.loaded })
	tm.Type(" ")
	screen.wait(t, tm, "a leg in the ticket", "ticket: single of 1 legs on SPY")
	tm.Type("jj")
	tm.Type("z")
	screen.wait(t, tm, "a vertical in the ticket", "ticket: vertical of 2 legs on SPY")
	tm.Type("T")
	page := waitProbe(t, tm, "the strategy page", func(s stratSnap) bool {
		return s.top == common.PageStrategy && strings.Contains(s.frame, "Breakevens")
	})
	for _, want := range []string{"Strategy · SPY · vertical", "debit at mid", "natural", "Δ ", "Θ ", "Max profit", "Max loss", "PoP", "Risk graph", "┊"} {
		if !strings.Contains(page.frame, want) {
			t.Errorf("the strategy page lacks %q:\n%s", want, page.frame)
		}
	}
	tm.Type(">")
	screen.wait(t, tm, "IV shifted a point", "IV +1 pt")
	tm.Type("s")
	screen.wait(t, tm, "saved", "saved as position 1")
	for _, l := range strings.Split(string(frameNow(tm)), "\n") {
		if strings.Contains(l, "saved as position 1") && strings.Contains(l, "⚠") {
			t.Errorf("a position saved shows a warning: %q", l)
		}
	}
	saved, err := config.LoadPositions(path)
	if err != nil || len(saved) != 1 || len(saved[0].Legs) != 2 || saved[0].Name != "vertical" {
		t.Fatalf("%+v %v", saved, err)
	}
	tm.Type("P")
	pos := waitProbe(t, tm, "the position marked", func(s stratSnap) bool {
		return s.top == common.PagePositions && strings.Contains(s.frame, "1 open")
	})
	if !strings.Contains(pos.frame, "SPY ") || !strings.Contains(pos.frame, " +1 C") || !strings.Contains(pos.frame, "open") {
		t.Fatalf("positions page:\n%s", pos.frame)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
