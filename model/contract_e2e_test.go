package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/feed"
)

// contractSnap is what the contract flow reads of the running App.
type contractSnap struct {
	loaded, open  bool
	osi           string
	held, quotes  int
	ladder, tape  string // what enter would open from each
	focusTape     bool
	chainPolled   bool // the ladder's next refresh is planned
	contractTimed bool // the page's trades are planned or in flight
	frame         string
	greeks        int // tape prints with their IV
}

func contractSnapOf(a *App) contractSnap {
	p := a.cp()
	fv := a.feeds()
	return contractSnap{
		loaded: !a.ws().Chain().LastOK().IsZero() && a.ws().Tape().Held() > 0, open: contractShown(a),
		osi: p.OSI(), held: p.Held(), quotes: p.Quotes(),
		ladder: a.ws().Chain().SelectedOSI(), tape: a.ws().Tape().SelectedOSI(), focusTape: a.ws().TapeFocused(),
		chainPolled:   !fv.Due(feed.FeedChain).IsZero() || fv.InFlight(feed.FeedChain),
		contractTimed: !fv.Due(feed.FeedContractTrades).IsZero() || fv.InFlight(feed.FeedContractTrades),
		frame:         ansi.Strip(a.drawAt(a.sh.Now())),
		greeks:        a.ws().Tape().GreeksFilled(),
	}
}

// TestContractPageFlow: on the SPY ladder, enter opens the page of the
// contract under the cursor, which loads its trades with greeks, its
// quotes for the chart and its summary, while the ladder is not polled;
// esc comes back to the ladder, which is polled again; enter on a tape
// row opens that print's contract.
func TestContractPageFlow(t *testing.T) {
	sh := startTestSandbox(t)
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark"})
	tm := teatest.NewTestModel(t, probed[contractSnap]{app, contractSnapOf}, teatest.WithInitialTermSize(120, 40))
	wait := func(what string, cond func(contractSnap) bool) contractSnap {
		t.Helper()
		return waitProbe(t, tm, what, cond)
	}

	start := wait("SPY ladder and tape loaded", func(s contractSnap) bool { return s.loaded && s.ladder != "" })
	// A contract with prints: the ladder's call at the money trades all day.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	page := wait("contract page loaded", func(s contractSnap) bool { return s.open && s.held > 0 && s.quotes > 0 })
	if page.osi != start.ladder {
		t.Fatalf("enter on the ladder opened %s, the cursor is on %s", page.osi, start.ladder)
	}
	if page.chainPolled {
		t.Error("the ladder is polled under the contract page")
	}
	if !page.contractTimed {
		t.Error("the page's trades are not polled")
	}
	for _, want := range []string{page.osi, "Time & Sales", "IV traded", "Largest", "Sweeps", "Blocks", "bought", "IV (right axis)", "Theo", "pts a refresh", "esc back"} {
		if !strings.Contains(page.frame, want) {
			t.Errorf("the contract page lacks %q:\n%s", want, page.frame)
		}
	}

	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	back := wait("back on the ladder", func(s contractSnap) bool { return !s.open && s.chainPolled })
	if back.contractTimed {
		t.Error("the page's trades are still polled after esc")
	}
	if back.ladder != start.ladder {
		t.Errorf("the ladder's cursor moved from %s to %s", start.ladder, back.ladder)
	}

	// The tape: focus it, and enter opens the selected print's contract.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	onTape := wait("tape focused with a print selected", func(s contractSnap) bool { return s.focusTape && s.tape != "" })
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	fromTape := wait("the print's contract page", func(s contractSnap) bool { return s.open && s.osi == onTape.tape && s.held > 0 })
	if fromTape.osi == "" {
		t.Fatal("no contract from the tape")
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	wait("back from the print's page", func(s contractSnap) bool { return !s.open })

	// i shows the tape's IV, delta and premium columns, filled from the
	// trades with greeks of the contracts on screen.
	tm.Type("i")
	filled := wait("the tape's IV filled", func(s contractSnap) bool { return s.greeks > 0 })
	if !strings.Contains(filled.frame, "%") {
		t.Errorf("the tape shows no IV column:\n%s", filled.frame)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
