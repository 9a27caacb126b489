package chain

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/theme"
)

// TestEveryRootOfAnExpiryIsShown loads SPX from the sandbox over
// 127.0.0.1: its Dec 18 is listed by two roots, SPX (the AM-settled
// monthly) and SPXW (the PM-settled weekly), and the ladder had shown only
// the first. Each is now a tab of its own, marked with its root, its ladder
// names the root in its header, and holds exactly the strikes the service
// lists for that root; a fetch of the one expiry keeps both.
func TestEveryRootOfAnExpiryIsShown(t *testing.T) {
	sh := modeltest.SandboxCommon(t)
	sh.Styles = theme.New(theme.Dark(), true)
	ctx := context.Background()
	q := feed.Query{Symbol: "SPX", Mode: api.Live, Gen: 1}
	c := New(sh)
	c.SetQuery(q)
	m := sh.Source().Chain(ctx, q, 0)
	if m.Err != nil || !c.Apply(m) {
		t.Fatalf("whole chain: %v", m.Err)
	}
	dec18 := api.NewDate(2026, 12, 18)
	listed := map[string][]float64{}          // root: its Dec 18 call strikes
	rootsOf := map[api.Date]map[string]bool{} // every expiry's roots
	for _, o := range m.Chain.Options {
		if o.Expiry == dec18 && o.OptionType == api.Call {
			listed[o.Root] = append(listed[o.Root], o.Strike)
		}
		if rootsOf[o.Expiry] == nil {
			rootsOf[o.Expiry] = map[string]bool{}
		}
		rootsOf[o.Expiry][o.Root] = true
	}
	if len(listed["SPX"]) == 0 || len(listed["SPXW"]) == 0 {
		t.Fatalf("the sandbox lists Dec 18 for %d SPX and %d SPXW strikes: the test needs both", len(listed["SPX"]), len(listed["SPXW"]))
	}

	tabs, _ := c.Tabs()
	var roots []string
	for _, tab := range tabs {
		if tab.Date == dec18 {
			roots = append(roots, tab.Root)
		}
		if several := len(rootsOf[tab.Date]) > 1; several != (tab.Root != "") || several && !rootsOf[tab.Date][tab.Root] {
			t.Errorf("%s is listed by %d roots; its tab is marked %q", tab.Date, len(rootsOf[tab.Date]), tab.Root)
		}
	}
	if !slices.Equal(roots, []string{"SPX", "SPXW"}) {
		t.Fatalf("Dec 18 tabs %q, want SPX then SPXW", roots)
	}

	// ] walks the tabs: SPX's Dec 18, then SPXW's, each its own rows.
	c.win = 3 // every strike
	for i := 0; i < len(tabs) && !(c.Expiry() == dec18 && c.Root() == "SPX"); i++ {
		c.handleKey(runeKey(']'))
	}
	for _, root := range []string{"SPX", "SPXW"} {
		if c.Expiry() != dec18 || c.Root() != root {
			t.Fatalf("on %s %q, want Dec 18 %s", c.Expiry(), c.Root(), root)
		}
		rows, _ := c.window()
		var strikes []float64
		for _, r := range rows {
			if !strings.HasPrefix(r.Call.OSI, root+"261218C") {
				t.Fatalf("%s tab holds %s", root, r.Call.OSI)
			}
			strikes = append(strikes, r.Strike)
		}
		if !slices.Equal(strikes, listed[root]) {
			t.Errorf("%s tab: %d strikes, the service lists %d", root, len(strikes), len(listed[root]))
		}
		if d, _ := c.Selected(); d.Root != root {
			t.Errorf("details name root %q, want %s", d.Root, root)
		}
		c.SetSize(120, 6)
		if head := ansi.Strip(c.View()[0]); !strings.Contains(head, " C  "+root) {
			t.Errorf("ladder header %q does not name %s", head, root)
		}
		if bar := ansi.Strip(c.TabsView(200)); !strings.Contains(bar, "[Dec18 28d M "+root+"]") {
			t.Errorf("tab bar %q does not mark %s", bar, root)
		}
		c.handleKey(runeKey(']'))
	}

	// The one expiry's fetch brings both roots back, and both stay.
	c.handleKey(runeKey('['))
	m = sh.Source().Chain(ctx, q, dec18)
	if m.Err != nil || !c.Apply(m) {
		t.Fatalf("Dec 18: %v", m.Err)
	}
	if c.Root() != "SPXW" || len(c.st.rowsOf(dec18, "SPX")) != len(listed["SPX"]) || len(c.st.rowsOf(dec18, "SPXW")) != len(listed["SPXW"]) {
		t.Errorf("after the expiry's fetch: on %q, %d and %d rows", c.Root(), len(c.st.rowsOf(dec18, "SPX")), len(c.st.rowsOf(dec18, "SPXW")))
	}
	// The vol page has a row per date: the one the ladder shows.
	s := c.Surface()
	if i := s.Find(dec18); i < 0 || len(s.Exps[i].Rows) != len(listed["SPXW"]) {
		t.Errorf("the vol page's Dec 18 is not SPXW's %d strikes", len(listed["SPXW"]))
	}
	c.handleKey(runeKey('['))
	if s := c.Surface(); c.Root() != "SPX" || len(s.Exps[s.Find(dec18)].Rows) != len(listed["SPX"]) {
		t.Errorf("on SPX's tab the vol page's Dec 18 is not SPX's %d strikes", len(listed["SPX"]))
	}
	c.handleKey(runeKey(']'))
	c.win = 0 // 10 strikes around the money
	c.SetSize(120, 14)
	out := append([]string{c.TabsView(120), c.StripView(120)}, c.View()...)
	golden.RequireEqual(t, []byte(strings.Join(out, "\n")))
}
