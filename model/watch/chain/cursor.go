package chain

import (
	"math"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/strategy"
	"chainwatch/ui"
)

// Cursor is where a strategy's template is built and the ticket's leg
// taken from: the symbol, the selected expiry and root, its listed
// strikes with their deltas, the underlying, the strike and side under
// the cursor, and the next expiry.
func (c *Model) Cursor() (strategy.Cursor, bool) {
	r, k := c.selected()
	if r == nil || !k.Listed() {
		return strategy.Cursor{}, false
	}
	o, err := api.ParseOSI(k.OSI)
	if err != nil {
		return strategy.Cursor{}, false
	}
	cur := strategy.Cursor{Symbol: c.q.Symbol, Root: o.Root, Expiry: c.expiry, Strike: r.Strike, Call: c.side == api.Call, Spot: c.Spot()}
	for _, row := range c.st.rowsOf(c.expiry, c.root) { // every strike, not the window's
		cur.Strikes = append(cur.Strikes, row.Strike)
		cur.CallDelta = append(cur.CallDelta, delta(&row.Call))
		cur.PutDelta = append(cur.PutDelta, delta(&row.Put))
	}
	day := feed.ShownDay(c.q, c.sh.Now())
	for i := range c.st.exps {
		if d := c.st.exps[i].date; d > c.expiry && d >= day && c.st.exps[i].root == o.Root {
			cur.Next = d
			break
		}
	}
	return cur, true
}

// delta is a listed contract's delta, NaN when it has none.
func delta(k *ui.Contract) float64 {
	if !k.Listed() || k.Delta == 0 {
		return math.NaN()
	}
	return k.Delta
}
