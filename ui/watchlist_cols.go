package ui

import (
	"math"

	"chainwatch/api"
)

// WatchCol is a column of the watchlist page, in the order drawn.
type WatchCol uint8

// The watchlist's columns. The sparkline is not one: it takes what width
// the columns leave.
const (
	WColSymbol WatchCol = iota
	WColLast
	WColChange
	WColChangePct
	WColBid
	WColAsk
	WColVolume
	WColIV30
	WColIVChange
	WColIVRank
	WColHV30
	WColImplied
	WColEvent
	NumWatchCols
)

var watchTitles = [NumWatchCols]string{"SYMBOL", "LAST", "CHG", "CHG%", "BID", "ASK", "VOLUME", "IV30", "IVCHG", "IVR", "HV30", "IMPLIED", "NEXT EVENT"}

// watchWidths are the columns' widths; the symbol's grows with the
// longest symbol. Each leaves a cell for the sort mark.
var watchWidths = [NumWatchCols]int{6, 9, 7, 7, 9, 9, 7, 7, 6, 4, 7, 8, 11}

// watchPrio is which columns stay when the width runs out: the price and
// its move, then the badge a trader trusts the price by, IV and the next
// event; bid and ask go first (the details line shows them with sizes).
// IV rank and HV30 (from the store of past days) are shown only when
// some row has them (WatchlistView.Past).
var watchPrio = [NumWatchCols]int{100, 95, 85, 90, 45, 44, 65, 75, 50, 72, 48, 80, 70}

// Title is the column's heading.
func (c WatchCol) Title() string {
	if c < NumWatchCols {
		return watchTitles[c]
	}
	return ""
}

// numeric columns are right-aligned.
func (c WatchCol) numeric() bool { return c != WColSymbol && c != WColImplied && c != WColEvent }

// watchLayout is where the columns of one frame are: the kept columns in
// order, their x and width, and the sparkline's.
type watchLayout struct {
	cols           []WatchCol
	x, w           [NumWatchCols]int
	sparkX, sparkW int
	width          int
	vol            sizeUnit // the volume column's form, by its largest
}

// Margins of the table: one blank before the first column, one between
// columns.
const (
	watchMargin = 1
	watchGap    = 1
	// minSpark is the narrowest sparkline worth drawing; maxSpark the
	// widest (more cells would only stretch the same prices).
	minSpark = 8
	maxSpark = 40
)

// layoutWatch keeps the highest-priority columns that fit width and gives
// the sparkline what is left, if that is enough for one.
func layoutWatch(width, symW int, past bool) watchLayout {
	w := watchWidths
	w[WColSymbol] = max(w[WColSymbol], symW+1)
	var keep [NumWatchCols]bool
	need := func() int {
		n, k := watchMargin, 0
		for c := range NumWatchCols {
			if keep[c] {
				if k > 0 {
					n += watchGap
				}
				n += w[c]
				k++
			}
		}
		return n
	}
	for c := range NumWatchCols {
		keep[c] = past || c != WColIVRank && c != WColHV30
	}
	for need() > width {
		low := -1
		for c := range NumWatchCols {
			if keep[c] && c != WColSymbol && (low < 0 || watchPrio[c] < watchPrio[low]) {
				low = int(c)
			}
		}
		if low < 0 {
			break
		}
		keep[low] = false
	}
	l := watchLayout{width: width}
	x := watchMargin
	for c := range NumWatchCols {
		if !keep[c] {
			continue
		}
		if len(l.cols) > 0 {
			x += watchGap
		}
		l.cols = append(l.cols, c)
		l.x[c], l.w[c] = x, w[c]
		x += w[c]
	}
	if room := width - x - watchGap - watchMargin; room >= minSpark {
		l.sparkX, l.sparkW = x+watchGap, min(room, maxSpark)
	}
	return l
}

// colAt is the column drawn at x, if any.
func (l *watchLayout) colAt(x int) (WatchCol, bool) {
	for _, c := range l.cols {
		if x >= l.x[c] && x < l.x[c]+l.w[c] {
			return c, true
		}
	}
	return 0, false
}

// sparkBars are the eight heights of a sparkline.
var sparkBars = [...]string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// appendSpark appends the last w of prices (oldest first) as bars scaled
// from their low to their high, right-aligned in w cells: the latest
// price always sits at the right edge. A flat line is drawn at mid
// height; NaNs are blanks.
func appendSpark(dst []byte, prices []float64, w int) []byte {
	if len(prices) > w {
		prices = prices[len(prices)-w:]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range prices {
		if !math.IsNaN(p) {
			lo, hi = min(lo, p), max(hi, p)
		}
	}
	dst = appendSpaces(dst, w-len(prices))
	for _, p := range prices {
		switch {
		case math.IsNaN(p):
			dst = append(dst, ' ')
		case hi <= lo:
			dst = append(dst, sparkBars[3]...)
		default:
			i := int((p - lo) / (hi - lo) * float64(len(sparkBars)-1))
			dst = append(dst, sparkBars[min(max(i, 0), len(sparkBars)-1)]...)
		}
	}
	return dst
}

// appendEvent appends a next event as "earn Jan28" or "div Dec19"; "-"
// for none.
func appendEvent(dst []byte, d api.Date, earnings bool) []byte {
	if d == 0 {
		return append(dst, dash...)
	}
	if earnings {
		dst = append(dst, "earn "...)
	} else {
		dst = append(dst, "div "...)
	}
	return appendDate(dst, d)
}
