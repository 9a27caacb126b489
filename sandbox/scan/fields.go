package scan

import (
	"math"

	"chainwatch/api"
)

// field is one entry of the catalogue: what the metadata endpoint lists,
// and how a Quote yields the value (nil, float64 or string).
type field struct {
	name, display, description, category, dataType string
	nullable                                       bool
	get                                            func(*Quote) any
}

// Categories and data types of the metadata.
const (
	catIdentity   = "Identity"
	catPrice      = "Price"
	catVolume     = "Volume"
	catVolatility = "Volatility"
	catOptions    = "Options"
	catEvents     = "Events"
	catDividends  = "Dividends"

	typeNumber  = "number"
	typeInteger = "integer"
	typeString  = "string"
	typeDate    = "date"
)

// catalogue is every field a formula may name, in the order the metadata
// lists them. Descriptions are what a trader reads when picking a field, so
// they give units and when a value is null.
var catalogue = []field{
	{"symbol", "Symbol", "Ticker of the underlying, e.g. AAPL or SPX.", catIdentity, typeString, false, func(q *Quote) any { return q.Symbol }},
	{"company_name", "Company Name", "Name of the company, fund or index.", catIdentity, typeString, false, func(q *Quote) any { return q.CompanyName }},
	{"sector", "Sector", `Sector, e.g. "Technology"; funds and indices carry a category of their own.`, catIdentity, typeString, false, func(q *Quote) any { return q.Sector }},
	{"asset_type", "Asset Type", `"stock", "etf" or "index".`, catIdentity, typeString, false, func(q *Quote) any { return q.AssetType }},

	{"price", "Price", "Last price of the underlying, dollars.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.Price) }},
	{"change", "Change", "Price change from the previous close, dollars.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.Change) }},
	{"change_percent", "Change %", "Price change from the previous close, percent (1.5 means up 1.5 %).", catPrice, typeNumber, false, func(q *Quote) any { return num(q.ChangePercent) }},
	{"open", "Open", "Opening price of today's session (the previous close before the open).", catPrice, typeNumber, false, func(q *Quote) any { return num(q.Open) }},
	{"high", "High", "Highest price of today's session so far.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.High) }},
	{"low", "Low", "Lowest price of today's session so far.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.Low) }},
	{"prev_close", "Previous Close", "Close of the previous trading day.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.PrevClose) }},
	{"high_52w", "52-Week High", "Highest close of the last 52 weeks.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.High52) }},
	{"low_52w", "52-Week Low", "Lowest close of the last 52 weeks.", catPrice, typeNumber, false, func(q *Quote) any { return num(q.Low52) }},

	{"volume", "Volume", "Shares traded today so far.", catVolume, typeInteger, false, func(q *Quote) any { return float64(q.Volume) }},
	{"avg_volume", "Average Volume", "Average shares traded per day.", catVolume, typeInteger, false, func(q *Quote) any { return float64(q.AvgVolume) }},
	{"relative_volume", "Relative Volume", "Today's share volume relative to an ordinary day at this time (1.0 is ordinary, 2.0 twice as busy).", catVolume, typeNumber, false, func(q *Quote) any { return num(q.RelativeVolume) }},

	{"iv30", "IV30", "30-day at-the-money implied volatility, percentage points (22.08 means 22.08 %).", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.IV30) }},
	{"iv30_change", "IV30 Change", "Change of iv30 since the previous close, percentage points.", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.IV30Change) }},
	{"iv30_change_percent", "IV30 Change %", "Change of iv30 since the previous close, percent of the previous value.", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.IV30ChangePercent) }},
	{"iv_rank", "IV Rank", "Where iv30 stands in its 52-week range: 0 at the low, 100 at the high.", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.IVRank) }},
	{"hv30", "HV30", "30-day historical (realized) volatility of daily closes, annualized, percentage points.", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.HV30) }},
	{"iv_hv_ratio", "IV/HV", "iv30 divided by hv30: above 1 the options price more movement than the stock has shown.", catVolatility, typeNumber, false, func(q *Quote) any { return num(q.IVHVRatio) }},

	{"implied_indicator", "Implied Indicator", `Quality of the options-implied underlying price: "green" (spread under 1 % of the price), "yellow" (1 to 2 %) or "red" (wider); null when there is none.`, catOptions, typeString, true, func(q *Quote) any { return optStr(q.ImpliedIndicator) }},
	{"implied_mid", "Implied Mid", "Underlying price implied by put-call parity of near-the-money options, dollars; null when there is none.", catOptions, typeNumber, true, func(q *Quote) any { return optNum(q.ImpliedMid) }},
	{"option_volume", "Option Volume", "Option contracts traded today so far, all series.", catOptions, typeInteger, false, func(q *Quote) any { return float64(q.OptionVolume) }},
	{"call_volume", "Call Volume", "Call contracts traded today so far.", catOptions, typeInteger, false, func(q *Quote) any { return float64(q.CallVolume) }},
	{"put_volume", "Put Volume", "Put contracts traded today so far.", catOptions, typeInteger, false, func(q *Quote) any { return float64(q.PutVolume) }},
	{"put_call_ratio", "Put/Call Ratio", "put_volume divided by call_volume; null while no call has traded.", catOptions, typeNumber, true, func(q *Quote) any { return optNum(q.PutCallRatio) }},
	{"open_interest", "Open Interest", "Open option contracts, all series, as of the start of the day.", catOptions, typeInteger, false, func(q *Quote) any { return float64(q.OpenInterest) }},

	{"earnings_date", "Earnings Date", `Next earnings report, yyyy-MM-dd; compare it with a quoted date, e.g. earnings_date <= "2026-12-31". Null when none is scheduled.`, catEvents, typeDate, true, func(q *Quote) any { return optStr(q.EarningsDate) }},
	{"days_to_earnings", "Days to Earnings", "Calendar days until the next earnings report (0 is today); null when none is scheduled.", catEvents, typeInteger, true, func(q *Quote) any { return optInt(q.DaysToEarnings) }},

	{"dividend_yield", "Dividend Yield", "Annual dividend yield, percent of the price (0 for non-payers).", catDividends, typeNumber, false, func(q *Quote) any { return num(q.DividendYield) }},
	{"ex_dividend_date", "Ex-Dividend Date", `Next ex-dividend date, yyyy-MM-dd; compare it with a quoted date. Null when none is scheduled.`, catDividends, typeDate, true, func(q *Quote) any { return optStr(q.ExDividendDate) }},
}

// byName indexes the catalogue; built once, read-only afterwards.
var byName = func() map[string]*field {
	m := make(map[string]*field, len(catalogue))
	for i := range catalogue {
		m[catalogue[i].name] = &catalogue[i]
	}
	return m
}()

// num is v, or nil (null) when JSON cannot carry it: a simulator glitch
// must not turn into an unencodable response.
func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func optNum(p *float64) any {
	if p == nil {
		return nil
	}
	return num(*p)
}

func optInt(p *int64) any {
	if p == nil {
		return nil
	}
	return float64(*p)
}

func optStr(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// operators is the grammar as the metadata endpoint lists it, in the order
// a trader reads it: literals, arithmetic, comparisons, logic, grouping,
// functions. api's Grammar admits exactly these.
var operators = []api.ScanOperator{
	{Operator: `"text"`, Description: `A quoted string (double or single quotes), compared with string and date fields, e.g. sector == "Technology" or earnings_date <= "2026-12-31".`},
	{Operator: "+", Description: "Addition; also a leading + on a number."},
	{Operator: "-", Description: "Subtraction; also negation, e.g. -change."},
	{Operator: "*", Description: "Multiplication."},
	{Operator: "/", Description: "Division; dividing by zero gives null."},
	{Operator: "%", Description: "Remainder of a division, e.g. days_to_earnings % 7; by zero gives null."},
	{Operator: "<", Description: "Less than: numbers by value, strings and dates alphabetically."},
	{Operator: "<=", Description: "Less than or equal."},
	{Operator: ">", Description: "Greater than."},
	{Operator: ">=", Description: "Greater than or equal."},
	{Operator: "==", Description: `Equal, e.g. implied_indicator == "green" (case sensitive for strings).`},
	{Operator: "!=", Description: "Not equal."},
	{Operator: "and", Description: "Both conditions hold, e.g. iv30 > 40 and volume > 1000000."},
	{Operator: "&&", Description: "Same as and."},
	{Operator: "or", Description: "Either condition holds."},
	{Operator: "||", Description: "Same as or."},
	{Operator: "not", Description: "The condition does not hold, e.g. not (sector == \"Utilities\")."},
	{Operator: "!", Description: "Same as not."},
	{Operator: "(", Description: "Opens a group or a function's arguments."},
	{Operator: ")", Description: "Closes a group or a function's arguments."},
	{Operator: "abs", Description: "Absolute value, e.g. abs(change_percent) > 3."},
	{Operator: "min", Description: "Smallest of two or more numbers, e.g. min(iv30, hv30)."},
	{Operator: "max", Description: "Largest of two or more numbers, e.g. max(call_volume, put_volume)."},
}

// Metadata is the answer of the scanner's GET: every field a formula may
// name and every operator, in a stable order. The slices are fresh copies,
// so a caller may keep or change them.
//
// A value of a comparison or arithmetic over a null field is null: a filter
// over it drops the row, a value column shows null.
func Metadata() api.ScannerMetadata {
	fields := make([]api.ScanField, len(catalogue))
	for i, f := range catalogue {
		fields[i] = api.ScanField{
			Name:           f.name,
			DisplayName:    f.display,
			Description:    f.description,
			Category:       f.category,
			DataType:       f.dataType,
			MayContainNull: f.nullable,
		}
	}
	ops := make([]api.ScanOperator, len(operators))
	copy(ops, operators)
	return api.ScannerMetadata{Fields: fields, Operators: ops}
}
