package chain

import (
	"cmp"
	"math"
	"slices"

	"chainwatch/config"
	"chainwatch/ui"
)

// The strike window: which strikes around the money the ladder shows, and
// where among them the cursor is.

// window returns the strikes around the money that the ladder shows and
// the row the cursor is on among them.
func (c *Model) window() (rows []ui.StrikeRow, cursor int) {
	all := c.st.rowsOf(c.expiry, c.root)
	if len(all) == 0 {
		return nil, 0
	}
	atm := nearestRow(all, c.Spot())
	if math.IsNaN(c.Spot()) {
		atm = len(all) / 2
	}
	rows = all
	if n := config.StrikeWindows[c.win]; n > 0 && n < len(all) {
		lo := c.windowStart(all, atm, n)
		rows, atm = all[lo:lo+n], atm-lo
	}
	if math.IsNaN(c.strike) {
		return rows, atm
	}
	return rows, nearestRow(rows, c.strike)
}

// windowStart is the first of the n strikes of all that the window shows,
// with the money at row atm of all. The window stays where it is while
// the money is in its middle half, and centres on the money again once it
// nears an edge: a window that followed every tick across a strike would
// move every row of the ladder under the trader's eyes (and rewrite the
// whole pane on the terminal) each time; a steady one moves the spot line
// and the cursor by a row.
func (c *Model) windowStart(all []ui.StrikeRow, atm, n int) int {
	lo := -1
	if !math.IsNaN(c.winLo) {
		if i, ok := slices.BinarySearchFunc(all, c.winLo, byStrike); ok {
			lo = i
		}
	}
	if margin := n / 4; lo < 0 || atm < lo+margin || atm >= lo+n-margin {
		lo = atm - n/2
	}
	lo = min(max(lo, 0), len(all)-n)
	c.winLo = all[lo].Strike
	return lo
}

// rows is the window the ladder shows (tests ask how much is loaded).
func (c *Model) rows() []ui.StrikeRow {
	r, _ := c.window()
	return r
}

// nearestRow is the row whose strike is closest to x (ties: the lower).
func nearestRow(rows []ui.StrikeRow, x float64) int {
	i, _ := slices.BinarySearchFunc(rows, x, byStrike)
	if i == len(rows) || (i > 0 && x-rows[i-1].Strike <= rows[i].Strike-x) {
		i--
	}
	return max(i, 0)
}

// byStrike orders rows by strike for a binary search for strike x.
func byStrike(r ui.StrikeRow, x float64) int { return cmp.Compare(r.Strike, x) }

// moveTo puts the cursor on row i of the window (clamped into it).
func (c *Model) moveTo(rows []ui.StrikeRow, i int) {
	if len(rows) > 0 {
		c.strike = rows[min(max(i, 0), len(rows)-1)].Strike
	}
}

// cycleWindow goes to the next window size. The selected strike stays
// selected when the new window still holds it; otherwise the cursor goes
// back to the money rather than to an arbitrary edge.
func (c *Model) cycleWindow() {
	c.win = (c.win + 1) % len(config.StrikeWindows)
	c.center, c.winLo = true, math.NaN()
	if math.IsNaN(c.strike) {
		return
	}
	rows, cur := c.window()
	if len(rows) == 0 || rows[cur].Strike != c.strike {
		c.strike = math.NaN()
	}
}
