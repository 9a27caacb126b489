package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"chainwatch/api"
	"chainwatch/model/scanner"
)

// scanSnap is what the scanner flow reads of the running App, taken on
// the program's goroutine like snapshot.
type scanSnap struct {
	open    bool
	state   scanner.Screen
	checked bool // the field list arrived
	focused string
	sel     int
	rows    []scanner.Row
	results []string // the last run's symbols, in its order
	symbol  string
	loaded  bool
	header  string // the frame's first line, plain
}

// scanSnapOf is the snapshot of the scanner flow.
func scanSnapOf(a *App) scanSnap {
	s := a.scan.State()
	snap := scanSnap{
		open: s.Open, state: s.Screen, checked: s.Checked, sel: s.Sel, rows: s.Rows, focused: s.Focused,
		symbol: a.q.Symbol, loaded: !a.ws().Chain().LastOK().IsZero(),
	}
	if s.Last != nil && s.Last.Result != nil {
		for _, r := range s.Last.Result.Output {
			snap.results = append(snap.results, r.Symbol)
		}
	}
	snap.header, _, _ = strings.Cut(ansi.Strip(a.drawAt(a.sh.Now())), "\n")
	return snap
}

// waitScan probes the program until cond holds, for at most 30 s.
func waitScan(t *testing.T, tm *teatest.TestModel, what string, cond func(scanSnap) bool) scanSnap {
	t.Helper()
	return waitProbe(t, tm, what, cond)
}

// TestScannerEndToEnd runs the real program in a virtual terminal against
// the sandbox over loopback HTTP and OAuth2, as a new user would: open
// the scanner, type iv30 > 40, add a row iv30 sorted highest first, run,
// see the rows, pick one, and land on its chain.
func TestScannerEndToEnd(t *testing.T) {
	sh := startMarketSandbox(t)
	app := New(Config{Client: sh.Client, Source: "SANDBOX", Symbol: "SPY", Now: sh.Now, Theme: "dark"})
	tm := teatest.NewTestModel(t, probed[scanSnap]{app, scanSnapOf}, teatest.WithInitialTermSize(120, 40))
	var screen screenText
	waitScan(t, tm, "SPY loaded", func(s scanSnap) bool { return s.loaded && s.symbol == "SPY" })

	tm.Type("S")
	waitScan(t, tm, "the scanner open, its field list in", func(s scanSnap) bool {
		return s.open && s.checked && s.focused == "formula"
	})
	screen.wait(t, tm, "the scanner", "Scanner", "live · top 20 · 30 points", "Formula")

	tm.Type("iv30 > 40")
	waitScan(t, tm, "row 1 typed", func(s scanSnap) bool { return s.rows[0].Formula == "iv30 > 40" })
	tm.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	waitScan(t, tm, "row 2 added", func(s scanSnap) bool { return len(s.rows) == 2 && s.sel == 1 && s.focused == "formula" })
	tm.Type("iv30")
	waitScan(t, tm, "row 2 typed", func(s scanSnap) bool { return s.rows[1].Formula == "iv30" })
	screen.wait(t, tm, "the verdicts", "✓ filter", "✓ value")
	// To Sort through the display name and the include switch.
	for _, field := range []string{"name", "include", "sort"} {
		tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
		waitScan(t, tm, "focus on "+field, func(s scanSnap) bool { return s.focused == field })
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
	waitScan(t, tm, "sorted desc", func(s scanSnap) bool { return s.rows[1].Sort == api.SortDesc })

	tm.Send(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	res := waitScan(t, tm, "the results", func(s scanSnap) bool { return s.state == scanner.Results && len(s.results) > 1 })
	screen.wait(t, tm, "the result rows", "scan order", "Symbol", res.results[0], res.results[1])

	pick := res.results[1]
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	got := waitScan(t, tm, pick+" loaded", func(s scanSnap) bool { return !s.open && s.symbol == pick && s.loaded })
	if !strings.HasPrefix(strings.TrimSpace(got.header), pick+" ") {
		t.Fatalf("the header is not %s's: %q", pick, got.header)
	}
	screen.wait(t, tm, "the watch screen again", "Strike", "Time & Sales")

	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := tm.FinalModel(t).(probed[scanSnap])
	if final.Query().Symbol != pick {
		t.Fatalf("final symbol %q, want %q", final.Query().Symbol, pick)
	}
}
