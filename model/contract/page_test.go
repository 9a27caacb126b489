package contract

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
)

// TestContractPageOpensAndGoesBack: an OpenContract opens the contract
// on the screen's query with a generation of the page's own; its feeds
// are wanted only while it is on the stack; DrawMsg readies the cost
// line from the snapshot; esc goes back with a new generation, so the
// replies still in flight are dropped.
func TestContractPageOpensAndGoesBack(t *testing.T) {
	sh := modeltest.Common(modeltest.Now)
	p := NewPage(context.Background(), sh, 100)
	screen := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 7}
	p.Update(common.QueryMsg{Query: screen})
	if _, act := p.Update(common.OpenContract{OSI: "nonsense"}); act != (common.Notice{Text: "no contract selected"}) {
		t.Fatalf("a bad OSI: %#v", act)
	}
	const osi = "SPY   261120C00600000"
	want, _ := api.ParseOSI(osi)
	p.Update(common.OpenContract{OSI: osi})
	cq := p.Query()
	if cq.OSI != want || cq.Symbol != "SPY" || cq.Mode != api.Live || cq.Gen != 1 {
		t.Fatalf("opened %+v", cq)
	}
	if ws := p.Wants(common.Sight{Mode: api.Live}); len(ws) != 0 {
		t.Fatalf("wanted off the stack: %v", ws)
	}
	ws := p.Wants(common.Sight{Mode: api.Live, OnStack: true})
	if !p.Covers() || len(ws) != len(Feeds) || ws[0].OSI != cq.OSI || ws[0].Query != cq.Query || ws[0].Hidden {
		t.Fatalf("wants on the stack: %+v", ws)
	}
	var snap feed.Snapshot
	for _, f := range Feeds {
		snap.Feeds[f].Interval = 68 * time.Second
	}
	p.SetSize(120, 39)
	p.Update(common.DrawMsg{Feeds: snap})
	if page := strings.Join(p.View(), "\n"); !strings.Contains(page, "pts a refresh") || !strings.Contains(page, "every 1m8s") {
		t.Errorf("the cost line is not on the page")
	}
	_, act := p.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if r, ok := act.(common.Refresh); !ok || !slices.Equal(r.Feeds, Feeds[:]) {
		t.Fatalf("r: %#v", act)
	}
	if st := p.Status(modeltest.Now); st.Title != "chainwatch · "+want.String() || st.Shown != feed.FeedContractTrades {
		t.Errorf("status %+v", st)
	}
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); act != (common.Back{}) {
		t.Fatalf("esc: %#v", act)
	}
	p.Update(common.OpenContract{OSI: osi})
	if p.Query().Gen <= cq.Gen+1 {
		t.Fatalf("reopened at generation %d after %d: the first page's replies would be taken", p.Query().Gen, cq.Gen)
	}
}
