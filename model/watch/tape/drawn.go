package tape

import (
	"math"

	"chainwatch/theme"
	"chainwatch/ui"
)

// drawnTape is the lines View returns and what they were drawn from. The
// tape is laid out after every message (the size is set on each), but
// most messages (a chain refresh, a key for another pane) change nothing
// it shows; under chainwatch serve every session draws every refresh, so
// layout draws again only when what it shows changed.
type drawnTape struct {
	tv     ui.TapeView
	trades []ui.TapeTrade // tv.Trades, copied: the model reuses its own
	w, h   int
	st     *theme.Styles
	lines  []string
}

// draw makes the lines of tv at w x h, only when they differ from the
// last ones drawn.
func (d *drawnTape) draw(tv *ui.TapeView, w, h int, st *theme.Styles) {
	if d.lines != nil && d.w == w && d.h == h && d.st == st && sameView(&d.tv, tv) {
		return
	}
	d.lines = ui.Tape(tv, w, h, st)
	d.trades = append(d.trades[:0], tv.Trades...)
	d.tv, d.tv.Trades, d.w, d.h, d.st = *tv, d.trades, w, h, st
}

// sameView reports whether a and b draw the same.
func sameView(a, b *ui.TapeView) bool {
	if len(a.Trades) != len(b.Trades) {
		return false
	}
	for i := range a.Trades {
		if !sameTrade(a.Trades[i], b.Trades[i]) {
			return false
		}
	}
	return a.Held == b.Held && a.BlockSize == b.BlockSize && a.Filter == b.Filter && a.Focused == b.Focused &&
		a.Message == b.Message && a.Session == b.Session && a.Cursor == b.Cursor && a.Greeks == b.Greeks &&
		a.GreeksNote == b.GreeksNote && a.Paused == b.Paused && a.Newer == b.Newer && a.ResumeKey == b.ResumeKey
}

// sameTrade is == with a NaN (a greek not fetched yet) equal to itself.
func sameTrade(a, b ui.TapeTrade) bool {
	for _, f := range [][2]*float64{{&a.Strike, &b.Strike}, {&a.Price, &b.Price}, {&a.Bid, &b.Bid}, {&a.Ask, &b.Ask}, {&a.IV, &b.IV}, {&a.Delta, &b.Delta}} {
		if math.Float64bits(*f[0]) != math.Float64bits(*f[1]) {
			return false
		}
		*f[0], *f[1] = 0, 0
	}
	return a == b
}
