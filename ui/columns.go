package ui

// ColumnSet is a named choice of ladder columns the user cycles through.
type ColumnSet struct {
	Name string
	// Cols is the display order on the call side, from the outside in
	// towards the strike. The put side mirrors it (the strike stays in the
	// middle), except that Bid stays left of Ask (and BidSz left of AskSz):
	// every order book and chain a trader knows reads bid then ask, and a
	// mirrored "Ask Bid" on the put side invites hitting the wrong price.
	Cols []Col
}

// ColumnSets are the ladder's column sets, in the order the Columns key
// cycles them: each answers one question and fits a 120-column terminal
// whole. Every set carries Bid and Ask next to the strike, since a price
// without the market is not something a trader acts on; FitColumns keeps
// them last when the width shrinks.
var ColumnSets = []ColumnSet{
	// What can I trade at, and how much is there.
	{Name: "quotes", Cols: []Col{ColOI, ColVolume, ColLast, ColBidSize, ColBid, ColAsk, ColAskSize}},
	// What is the risk.
	{Name: "greeks", Cols: []Col{ColVega, ColTheta, ColGamma, ColDelta, ColIV, ColBid, ColAsk}},
	// Where is the money going today.
	{Name: "activity", Cols: []Col{ColVolOI, ColOI, ColVolume, ColChange, ColLast, ColBid, ColAsk}},
}

// colInfo is what the ladder knows of a column: its title, its narrowest
// width in cells (the content, without the one-cell gap before it) and
// how much it matters.
type colInfo struct {
	title string
	// width of the text; prices may be narrower (see priceWidth).
	width int
	// priority: higher stays longer when the width shrinks.
	priority int
	price    bool // a price: its width follows the chain's price scale
}

// cols holds every column's facts. Priorities: the market (bid, ask) goes
// last, then what a trader picks strikes by (iv, delta), then the rest of
// the quote (mid, last), activity (volume, open interest), sizes, and the
// higher-order greeks first.
var cols = [NumCols]colInfo{
	ColBid:     {"Bid", maxPriceWidth, 100, true},
	ColAsk:     {"Ask", maxPriceWidth, 99, true},
	ColIV:      {"IV", 5, 90, false},
	ColDelta:   {"Delta", 5, 85, false},
	ColMid:     {"Mid", maxPriceWidth, 70, true},
	ColLast:    {"Last", maxPriceWidth, 65, true},
	ColVolume:  {"Vol", 5, 60, false},
	ColOI:      {"OI", 5, 55, false},
	ColBidSize: {"BidSz", 5, 50, false},
	ColAskSize: {"AskSz", 5, 49, false},
	ColTheta:   {"Theta", 5, 45, false},
	ColGamma:   {"Gamma", 5, 40, false},
	ColVega:    {"Vega", 5, 35, false},
	ColChange:  {"Chg", 6, 62, false},
	ColVolOI:   {"V/OI", 5, 30, false},
}

const (
	// maxPriceWidth fits "9999.99": index options such as SPX. FitColumns,
	// which sees no prices, assumes it.
	maxPriceWidth = 7
	// minPriceWidth fits "0.05" and the titles "Last"/"Bid".
	minPriceWidth = 4
	// strikeWidth is the middle column: a blank, the cursor mark, the
	// strike centred in 8 cells ("12345.25"), the other mark, a blank.
	strikeWidth = 12
	strikeText  = 8
)

// Title returns the column's header text.
func (c Col) Title() string {
	if c < NumCols {
		return cols[c].title
	}
	return "?"
}

// FitColumns returns the columns of set that fit a ladder width wide,
// calls and puts alike: the highest-priority columns are taken first and
// a column is left out when it does not fit in what remains, so the
// lowest-priority ones go first and bid and ask go last. The result keeps
// the set's call-side order. It assumes the widest prices (index
// options); the ladder, which knows the chain's price scale, may fit one
// more column.
func FitColumns(set ColumnSet, width int) []Col {
	var w [NumCols]int
	widths(&w, maxPriceWidth)
	return fitColumns(set, width, &w, nil)
}

// widths fills each column's text width for a price width.
func widths(w *[NumCols]int, priceW int) {
	for c := Col(0); c < NumCols; c++ {
		w[c] = cols[c].width
		if cols[c].price {
			w[c] = priceW
		}
	}
}

// fitColumns is FitColumns for given column widths, appending to dst
// (which may be a reused buffer).
func fitColumns(set ColumnSet, width int, w *[NumCols]int, dst []Col) []Col {
	// One side's room: the strike column is in the middle and the two
	// sides are drawn the same width.
	room := (width - strikeWidth) / 2
	var keep ColMask
	used := 0
	// Highest priority first; the sets are a dozen columns, so a
	// selection per step is cheaper than sorting a copy.
	var taken ColMask
	for range set.Cols {
		best, bestP := Col(NumCols), -1
		for _, c := range set.Cols {
			if c < NumCols && !taken.Has(c) && cols[c].priority > bestP {
				best, bestP = c, cols[c].priority
			}
		}
		if best == NumCols {
			break
		}
		taken = taken.With(best)
		need := w[best]
		if used > 0 {
			need++ // the gap before it
		}
		if used+need <= room {
			used += need
			keep = keep.With(best)
		}
	}
	dst = dst[:0]
	for _, c := range set.Cols {
		if c < NumCols && keep.Has(c) {
			dst = append(dst, c)
			keep &^= 1 << c // a column listed twice shows once
		}
	}
	return dst
}

// putOrder writes the put side's order, left to right from the strike
// outwards, for call-side columns calls (outside in): the mirror image,
// with Bid/Ask and BidSz/AskSz swapped back into reading order.
func putOrder(calls []Col, dst []Col) []Col {
	dst = dst[:0]
	for i := len(calls) - 1; i >= 0; i-- {
		dst = append(dst, calls[i])
	}
	swapCols(dst, ColBid, ColAsk)
	swapCols(dst, ColBidSize, ColAskSize)
	return dst
}

// swapCols exchanges the places of a and b in cs when both are there.
func swapCols(cs []Col, a, b Col) {
	ia, ib := -1, -1
	for i, c := range cs {
		switch c {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	if ia >= 0 && ib >= 0 {
		cs[ia], cs[ib] = cs[ib], cs[ia]
	}
}

// sideWidth is the cells one side takes for cols at widths w plus extra
// cells per column.
func sideWidth(cs []Col, w *[NumCols]int, extra int) int {
	if len(cs) == 0 {
		return 0
	}
	n := len(cs) - 1 // the gaps
	for _, c := range cs {
		n += w[c] + extra
	}
	return n
}
