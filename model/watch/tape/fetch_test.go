package tape

import (
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"context"
	"testing"
)

func TestFetchTape(t *testing.T) {
	sh := modeltest.SandboxCommon(t)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	tp := New(sh, 50000, 100)
	tp.SetQuery(q)

	m := sh.Source().Tape(ctx, q, feed.ShownDay(q, sh.Now()), tp.NextFrom())
	if m.Err != nil || len(m.Trades) == 0 || m.From != 0 {
		t.Fatalf("first page: %d trades, %v", len(m.Trades), m.Err)
	}
	if first := m.Trades[0].Timestamp; first < api.NewTimeOfDay(11, 15, 0, 0) {
		t.Errorf("first page starts at %s, before the 15-minute window", first)
	}
	if !tp.Apply(m) {
		t.Fatal("first page dropped")
	}
	held := tp.r.len()
	t.Logf("first page: %d trades from %s, more %v", held, m.Trades[0].Timestamp, tp.More())
	// Then pages from NextFrom; the sandbox's clock is stopped, so they
	// run out (a 204, or a short page). Bounded in any case.
	for i := 0; i < 10; i++ {
		from := tp.NextFrom()
		m = sh.Source().Tape(ctx, q, feed.ShownDay(q, sh.Now()), from)
		if m.Err != nil && !api.IsNoData(m.Err) {
			t.Fatalf("page from %d: %v", from, m.Err)
		}
		for _, tr := range m.Trades {
			if tr.SeqNo < from {
				t.Fatalf("page from %d holds seq_no %d", from, tr.SeqNo)
			}
		}
		if !tp.Apply(m) {
			t.Fatalf("page from %d dropped", from)
		}
		if !tp.More() {
			break
		}
	}
	seen := map[int64]bool{}
	for i := range tp.r.len() {
		s := tp.r.at(i).tr.SeqNo
		if seen[s] {
			t.Fatalf("seq_no %d held twice", s)
		}
		seen[s] = true
	}
	if tp.r.len() < held {
		t.Errorf("held %d after %d", tp.r.len(), held)
	}
}
