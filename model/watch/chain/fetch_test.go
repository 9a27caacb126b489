package chain

import (
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"context"
	"math"
	"testing"
)

func TestFetchChain(t *testing.T) {
	sh := modeltest.SandboxCommon(t)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	c := New(sh)
	c.SetQuery(q)

	m := sh.Source().Chain(ctx, q, 0)
	if m.Err != nil || m.Chain == nil || m.Query != q || m.Expiry != 0 || !m.At.Equal(modeltest.Now) {
		t.Fatalf("whole chain: %T %v", m, m.Err)
	}
	if m.Resp == nil || m.Resp.Cost != api.Cost(api.EndpointOptionQuotes, api.Live, false) {
		t.Errorf("response %+v", m.Resp)
	}
	if !c.Apply(m) {
		t.Fatal("whole chain dropped")
	}
	tabs, _ := c.Tabs()
	if len(tabs) < 5 || c.Expiry() != api.NewDate(2026, 11, 20) {
		t.Fatalf("%d expiries, selected %s", len(tabs), c.Expiry())
	}
	// The cursor is at the money: no strike of the window is nearer.
	spot := c.Spot()
	d, ok := c.Selected()
	if math.IsNaN(spot) || !ok || d.Type != api.Call {
		t.Fatalf("spot %v, selected %+v", spot, d)
	}
	rows, _ := c.window()
	for _, r := range rows {
		if math.Abs(r.Strike-spot) < math.Abs(d.Strike-spot) {
			t.Fatalf("strike %v is nearer to %v than the cursor's %v", r.Strike, spot, d.Strike)
		}
	}
	if h := c.Header(); h.Symbol != "SPY" || h.Indicator == "" || math.IsNaN(h.Last) {
		t.Errorf("header %+v", h)
	}

	// One expiry: only its contracts come back, and they apply.
	exp := tabs[1].Date
	if _, changed := c.handleKey(runeKey(']')); !changed || c.Expiry() != exp {
		t.Fatalf("next expiry: %s", c.Expiry())
	}
	m = sh.Source().Chain(ctx, q, exp)
	if m.Err != nil || len(m.Chain.Options) == 0 {
		t.Fatalf("expiry %s: %v", exp, m.Err)
	}
	for _, o := range m.Chain.Options {
		if o.Expiry != exp {
			t.Fatalf("an expiry fetch for %s returned %s", exp, o.Expiry)
		}
	}
	if !c.Apply(m) || c.LastOK() != modeltest.Now {
		t.Error("expiry reply dropped")
	}
}
