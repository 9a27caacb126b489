package ui

import "math"

// tapeNotFetched is the IV cell of a print whose greeks have not been
// asked for yet: the tape asks one contract at a time, as the points
// budget allows, so a busy tape shows some; "-" is the service's null.
// ASCII: tapeCell measures its text in bytes.
const tapeNotFetched = "?"

// tapeQuoteMark leads the IV cell of a print whose IV is its contract's
// quote's (TapeTrade.IVQuote), whole points ("~22"), as the legend says.
const tapeQuoteMark = "~"

// tapeIVLegend says in the tape's title where the IVs on screen come
// from when not every one is the print's own: "~ quote's" (the ladder's
// quote of the contract, until the print's own is fetched), "? to fetch"
// (not asked yet) and "- none" (the service has none for that print: no
// bid, or a market too wide to imply a vol). "" when every print shown
// has its own.
func tapeIVLegend(trades []TapeTrade) string {
	var k int // bits: 1 quote, 2 pending, 4 none
	for i := range trades {
		switch {
		case trades[i].IVQuote && !math.IsNaN(trades[i].IV):
			k |= 1
		case !math.IsNaN(trades[i].IV):
		case trades[i].GreeksAsked:
			k |= 4
		default:
			k |= 2
		}
	}
	return tapeIVLegends[k]
}

// tapeIVLegends are the legends by tapeIVLegend's bits, spelled once: the
// title is drawn every frame.
var tapeIVLegends = [8]string{
	"",
	"IV " + tapeQuoteMark + " quote's",
	"IV " + tapeNotFetched + " to fetch",
	"IV " + tapeQuoteMark + " quote's, " + tapeNotFetched + " to fetch",
	"IV - none: no bid or too wide",
	"IV " + tapeQuoteMark + " quote's, - none",
	"IV " + tapeNotFetched + " to fetch, - none",
	"IV " + tapeQuoteMark + " quote's, " + tapeNotFetched + " to fetch, - none",
}
