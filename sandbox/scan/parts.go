package scan

// Parts are the costly parts of a Quote, each a piece of the simulator's
// work for every optionable symbol: a scan's first run of a day pays for
// each part its formulas need, so the simulator fills only those (see
// Scan.Parts). What is left out is the zero value, which no formula of the
// scan reads. Identity, price, volume and dividend fields need no part:
// they come from the underlying's day alone.
type Parts uint8

// The parts, each named by what the simulator computes for it.
const (
	// PartIV30 is the tick's 30-day ATM vol: the day's listing of every
	// expiry and strike, and the quotes of a few contracts.
	PartIV30 Parts = 1 << iota
	// PartIVChange is the previous close's iv30: the previous day's listing.
	PartIVChange
	// PartImplied is the options-implied underlying of the nearest expiry.
	PartImplied
	// PartHistory is a year of daily closes and vol levels (the 52-week
	// range, hv30, iv rank) and the next earnings and ex-dividend dates.
	PartHistory
	// PartOptionVolume is the day's option trades up to the tick.
	PartOptionVolume
	// PartOpenInterest is the start-of-day open interest, which draws the
	// previous day's trades.
	PartOpenInterest

	// AllParts is every part: a Quote with every field filled.
	AllParts = PartIV30 | PartIVChange | PartImplied | PartHistory | PartOptionVolume | PartOpenInterest
)

// partsOf is what each field needs beyond the underlying's day; a field
// not listed needs nothing more. A test in the simulator checks each field
// of the catalogue computed with only its parts against the full row.
var partsOf = map[string]Parts{
	"high_52w":            PartHistory,
	"low_52w":             PartHistory,
	"iv30":                PartIV30,
	"iv30_change":         PartIV30 | PartIVChange,
	"iv30_change_percent": PartIV30 | PartIVChange,
	"iv_rank":             PartIV30 | PartHistory,
	"hv30":                PartHistory,
	"iv_hv_ratio":         PartIV30 | PartHistory,
	"implied_indicator":   PartImplied,
	"implied_mid":         PartImplied,
	"option_volume":       PartOptionVolume,
	"call_volume":         PartOptionVolume,
	"put_volume":          PartOptionVolume,
	"put_call_ratio":      PartOptionVolume,
	"open_interest":       PartOpenInterest,
	"earnings_date":       PartHistory,
	"days_to_earnings":    PartHistory,
	"ex_dividend_date":    PartHistory,
}

// FieldParts is what the catalogue's field name needs (none for an
// unknown name).
func FieldParts(name string) Parts { return partsOf[name] }

// Parts is what the scan's formulas need: the union of their fields'.
func (s *Scan) Parts() Parts {
	var p Parts
	for _, f := range s.fields {
		p |= partsOf[f.name]
	}
	return p
}

// FieldValue is the value the catalogue's field name has in q, as a
// formula reads it: a float64, a string or nil; nil for an unknown name.
func FieldValue(name string, q *Quote) any {
	if f, ok := byName[name]; ok {
		return f.get(q)
	}
	return nil
}
