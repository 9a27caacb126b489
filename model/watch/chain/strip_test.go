package chain

import (
	"testing"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/vol"
)

// TestStripFiguresFollowEachExpirysRefresh: the strip under the tabs shows
// each expiry's ATM IV and straddle. A refresh of the selected expiry
// changes that expiry's figures, to what vol.ATM makes of its new rows,
// and leaves every other expiry's as they were, not computed again (a
// desk's sessions each draw every refresh, so the strip must not redo the
// whole chain for one expiry's change).
func TestStripFiguresFollowEachExpirysRefresh(t *testing.T) {
	c := loadedChain(t)
	q := c.Query()
	day := feed.ShownDay(q, c.sh.Now())
	check := func(when string) []atmFigs {
		t.Helper()
		figs := append([]atmFigs(nil), c.stripFigs(day)...)
		if len(figs) != 5 {
			t.Fatalf("%s: %d expiries' figures, want 5", when, len(figs))
		}
		for i, f := range figs {
			e := &c.st.exps[i]
			_, iv, move := vol.ATM(volRows(nil, e.rows), c.Spot())
			if f.date != e.date || !same(f.iv, iv) || !same(f.move, move) {
				t.Errorf("%s: %s figures %.4f %.4f, its rows give %.4f %.4f", when, e.date, f.iv, f.move, iv, move)
			}
		}
		return figs
	}
	before := check("whole chain")

	sel := c.Expiry()
	next := modeltest.SynthChain(5, 200, 1)
	one := next.Options[:0:0]
	for _, o := range next.Options {
		if o.Expiry == sel {
			o.IV = api.Some(0.31)
			if o.Bid.Valid {
				o.Bid, o.Ask, o.Mid = api.Some(api.OrNaN(o.Bid)+1), api.Some(api.OrNaN(o.Ask)+1), api.Some(api.OrNaN(o.Mid)+1)
			}
			one = append(one, o)
		}
	}
	next.Options = one
	if !c.Apply(feed.ChainMsg{Query: q, Expiry: sel, Chain: next, At: testNow}) {
		t.Fatal("the expiry's refresh was dropped")
	}
	after := check("one expiry refreshed")
	for i := range after {
		switch {
		case after[i].date == sel && (after[i].ver == before[i].ver || !same(after[i].iv, 0.31)):
			t.Errorf("%s (refreshed): ATM IV %.4f from rows %d, want 0.31 from new rows", sel, after[i].iv, after[i].ver)
		case after[i].date != sel && !sameFigs(after[i], before[i]):
			t.Errorf("%s (not refreshed): figures %+v became %+v", after[i].date, before[i], after[i])
		}
	}
}

func sameFigs(a, b atmFigs) bool {
	return a.date == b.date && a.root == b.root && a.ver == b.ver && same(a.iv, b.iv) && same(a.move, b.move)
}
