package ui

import "math"

// tapeNotFetched is the IV cell of a print whose greeks have not been
// asked for yet: the tape asks one contract at a time, as the points
// budget allows, so a busy tape shows some; "-" is the service's null.
// ASCII: tapeCell measures its text in bytes.
const tapeNotFetched = "?"

// tapeIVLegend says in the tape's title why prints on screen have no IV:
// "? to fetch" (not asked yet) and "- none" (the service has none for
// that print: no bid, or a market too wide to imply a vol). "" when
// every print shown has one.
func tapeIVLegend(trades []TapeTrade) string {
	var pending, none bool
	for i := range trades {
		if !math.IsNaN(trades[i].IV) {
			continue
		}
		if trades[i].GreeksAsked {
			none = true
		} else {
			pending = true
		}
	}
	switch {
	case pending && none:
		return "IV " + tapeNotFetched + " to fetch, - none"
	case pending:
		return "IV " + tapeNotFetched + " to fetch"
	case none:
		return "IV - none: no bid or too wide"
	}
	return ""
}
