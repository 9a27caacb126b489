package positions

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	strat "chainwatch/strategy"
	"chainwatch/ui"
)

// positionsOn is a page holding n verticals on the synthetic chain,
// marked by one run of its job's reply (the chain as the job brings it).
func positionsOn(tb testing.TB, n int) *Page {
	tb.Helper()
	sh := modeltest.Common(modeltest.Now)
	path := filepath.Join(tb.TempDir(), "positions.toml")
	p := NewPage(sh, common.Config{PositionsPath: path})
	var ps []strat.Position
	exp := modeltest.SynthDay.AddDays(1)
	for i := range n {
		// The last a single call: on the synthetic chain, whose contracts
		// share their greeks, a vertical's net to nothing.
		legs, fills := fmt.Sprintf("SPY %s +C%d@2.5 -C%d@1.25", exp, 500+i%40, 505+i%40), []float64{2.5, 1.25}
		if i == n-1 {
			legs, fills = fmt.Sprintf("SPY %s +C%d@2.5", exp, 500+i%40), []float64{2.5}
		}
		st, err := strat.Parse(legs)
		if err != nil {
			tb.Fatal(err)
		}
		saved := strat.Saved(i+1, &st, fills, modeltest.Now)
		pos, err := strat.FromSaved(saved)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, pos)
	}
	p.Update(LoadedMsg{Positions: ps})
	p.SetSize(160, 46)
	ws := p.Wants(common.Sight{Mode: api.Live, OnStack: true})
	if len(ws) != 1 || ws[0].Job == nil || ws[0].Hidden {
		tb.Fatalf("wants %+v", ws)
	}
	chain := modeltest.SynthChain(3, 60, 0)
	p.Update(marks(ws[0].Job.Name, chain))
	return p
}

// marks is a run of the page's job: the chain its legs are on.
func marks(name string, chain *api.SymbolWithOptions) feed.JobMsg {
	return feed.JobMsg{Name: name, JobResult: feed.JobResult{Value: feed.LegsResult{{Symbol: "SPY", Chain: chain}}}}
}

// TestPositionsMarked: each open position shows its greeks (delta in
// shares, theta and vega in dollars) and the table a total row; at 160
// columns no heading or cell is cut ("TodaySince open", "…-1 C711 D",
// "closed Nov2" were).
func TestPositionsMarked(t *testing.T) {
	p := positionsOn(t, 3)
	frame := ansi.Strip(strings.Join(p.View(), "\n"))
	if !strings.Contains(frame, "3 open") || strings.Count(frame, " open ") < 3 {
		t.Fatalf("frame:\n%s", frame)
	}
	for _, want := range []string{"  Today  ", " Since open", "Δ sh", "Θ $/day", "Vega $", "Total", " total "} {
		if !strings.Contains(frame, want) {
			t.Errorf("the page lacks %q:\n%s", want, frame)
		}
	}
	exp := modeltest.SynthDay.AddDays(1).Time(api.Eastern).Format("Jan02")
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "SPY "+exp) && (!strings.Contains(l, "+1 C50") || strings.Contains(l, "…")) {
			t.Errorf("a position's legs are cut: %q", l)
		}
	}
	marks := strat.Mark(p.ps, p.chains, p.sh.Now())
	var theta float64
	for _, m := range marks {
		theta += m.Greeks.Theta
	}
	if last := marks[len(marks)-1].Greeks; last.Delta <= 0 || math.IsNaN(last.Theta) || last.Theta == 0 {
		t.Fatalf("a long call's greeks: %+v", last)
	}
	if cell := ui.PositionGreek(marks[len(marks)-1].Greeks.Delta); !strings.Contains(frame, " "+cell+" ") {
		t.Errorf("the long call's delta %s is not shown:\n%s", cell, frame)
	}
	total := ""
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "Total") {
			total = l
		}
	}
	if f := strings.Fields(total); len(f) < 3 || f[len(f)-2] != ui.PositionGreek(theta) {
		t.Errorf("the total's theta: %q, want %s", total, ui.PositionGreek(theta))
	}
}

// TestPositionsCloseAsksAndUndoes: c asks first and writes nothing; any
// key but y keeps the position; y closes it at mid; u opens it again.
func TestPositionsCloseAsksAndUndoes(t *testing.T) {
	p := positionsOn(t, 3)
	closeKey, yes := tea.KeyPressMsg{Code: 'c', Text: "c"}, tea.KeyPressMsg{Code: 'y', Text: "y"}
	cmd, _ := p.Update(closeKey)
	frame := ansi.Strip(strings.Join(p.View(), "\n"))
	if cmd != nil || !strings.Contains(frame, "Close position 1 at mid now? y yes, any other key no") {
		t.Fatalf("c did not ask (cmd %v):\n%s", cmd, frame)
	}
	cmd, act := p.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if n, ok := act.(common.Notice); cmd != nil || !ok || n.Text != "position 1 kept open" {
		t.Fatalf("n: %v %#v", cmd, act)
	}
	if frame := ansi.Strip(strings.Join(p.View(), "\n")); strings.Contains(frame, "Close position") {
		t.Fatalf("the question stays:\n%s", frame)
	}
	p.Update(closeKey)
	cmd, act = p.Update(yes)
	if cmd == nil || act == nil {
		t.Fatalf("y: %v %v", cmd, act)
	}
	msg := cmd()
	if w, ok := msg.(WrittenMsg); !ok || w.Err != nil {
		t.Fatalf("%#v", msg)
	}
	saved, err := config.LoadPositions(p.path)
	if err != nil || len(saved) != 1 || saved[0].Open() || len(saved[0].Close) != 2 {
		t.Fatalf("%+v %v", saved, err)
	}
	p.Update(Load(p.path))
	cmd, act = p.Update(tea.KeyPressMsg{Code: 'u', Text: "u"})
	if cmd == nil {
		t.Fatalf("u: %#v", act)
	}
	if w, ok := cmd().(WrittenMsg); !ok || w.Err != nil {
		t.Fatalf("undo: %#v", w)
	}
	saved, err = config.LoadPositions(p.path)
	if err != nil || len(saved) != 1 || !saved[0].Open() || len(saved[0].Close) != 0 {
		t.Fatalf("after undo %+v %v", saved, err)
	}
	if _, act := p.Update(tea.KeyPressMsg{Code: 'u', Text: "u"}); act == nil {
		t.Error("a second undo says nothing")
	}
}

// BenchmarkPositionsRefresh is one refresh of the page with 50 positions:
// the job's reply taken, each position marked at mid on its
// underlying's chain, the totals, the table laid out.
func BenchmarkPositionsRefresh(b *testing.B) {
	p := positionsOn(b, 50)
	msg := marks(p.job.Name, modeltest.SynthChain(3, 60, 1))
	b.ReportAllocs()
	for b.Loop() {
		p.Update(msg)
	}
}

// TestGoldenPositions: the page at 80x24 and 160x48 (the status bar's
// row is the root's), three positions marked, the close of the first
// asked. Regenerate with go test ./model/positions -run Golden -update.
func TestGoldenPositions(t *testing.T) {
	for _, sz := range [][2]int{{80, 23}, {160, 47}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]+1), func(t *testing.T) {
			p := positionsOn(t, 3)
			p.Update(tea.KeyPressMsg{Code: 'c', Text: "c"})
			p.SetSize(sz[0], sz[1])
			golden.RequireEqual(t, []byte(strings.Join(p.View(), "\n")))
		})
	}
}
