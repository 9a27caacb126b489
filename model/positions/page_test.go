package positions

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	strat "chainwatch/strategy"
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
		legs := fmt.Sprintf("SPY %s +C%d@2.5 -C%d@1.25", exp, 500+i%40, 505+i%40)
		st, err := strat.Parse(legs)
		if err != nil {
			tb.Fatal(err)
		}
		saved := strat.Saved(i+1, &st, []float64{2.5, 1.25}, modeltest.Now)
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

func TestPositionsMarked(t *testing.T) {
	p := positionsOn(t, 3)
	frame := ansi.Strip(strings.Join(p.View(), "\n"))
	if !strings.Contains(frame, "3 open") || strings.Count(frame, " open ") < 3 {
		t.Fatalf("frame:\n%s", frame)
	}
	// Closing the first writes its closing fills at mid, keeping it in the file.
	cmd, act := p.Update(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if cmd == nil || act == nil {
		t.Fatalf("close: %v %v", cmd, act)
	}
	msg := cmd()
	if w, ok := msg.(WrittenMsg); !ok || w.Err != nil {
		t.Fatalf("%#v", msg)
	}
	saved, err := config.LoadPositions(p.path)
	if err != nil || len(saved) != 1 || saved[0].Open() || len(saved[0].Close) != 2 {
		t.Fatalf("%+v %v", saved, err)
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
