package api

import (
	"math"
	"net/url"
)

// Bounds shared by the time-and-sales endpoints.
const (
	maxByte          = 255           // exchange_id, condition_id
	maxTradeSize     = math.MaxInt32 // min_size, max_size
	maxOptionTrades  = 10000         // option-trades limit
	maxTAQRecords    = 10000         // trades-and-quotes limit
	maxGreeksRecords = 100000        // option-trades-with-greeks limit
)

// TAQMode selects which quotes trades-and-quotes returns beside the trades.
type TAQMode string

// The trades-and-quotes modes; empty is the server's default, AllQuotes.
const (
	AllQuotes    TAQMode = "ALL_QUOTES"
	NBBOChanges  TAQMode = "NBBO_CHANGES"   // only quotes that change the NBBO
	QuotesOnNBBO TAQMode = "QUOTES_ON_NBBO" // only quotes at the NBBO
)

// Order is the time order of returned records (order_by_time).
type Order string

// The orders; empty is the server's default, Ascending.
const (
	Ascending  Order = "ASC"
	Descending Order = "DESC"
)

// OptionTradesParams asks for option time and sales (option-trades).
//
// Symbol may be an underlying (all its options, narrowed by Root, Expiry,
// Strike and OptionType) or one option's OSI symbol; an OSI symbol is sent
// in its canonical form, so the OCC layout with spaces is accepted.
type OptionTradesParams struct {
	Symbol      string     // symbol: underlying or OSI; required
	Date        string     // date, yyyy-MM-dd, from 2003-01-01; required
	Root        string     // root
	Expiry      string     // expiry, yyyy-MM-dd
	Strike      *float64   // strike, at least 0.01
	OptionType  OptionType // option_type: Call or Put; empty for both
	MinTime     string     // min_time, HH:mm:ss.fff Eastern, inclusive
	MaxTime     string     // max_time, HH:mm:ss.fff Eastern, inclusive
	SeqNo       *int64     // seq_no: first sequence number returned, for paging
	ExchangeID  *int       // exchange_id, 0 to 255
	ConditionID *int       // condition_id, 0 to 255
	Limit       *int       // limit, 0 to 10000; the server's default is 100
	MinSize     *int64     // min_size, 0 to 2147483647
	MaxSize     *int64     // max_size, 0 to 2147483647
	MinPrice    *float64   // min_price, at least 0
	MaxPrice    *float64   // max_price, at least 0
	Mode        Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
func (p OptionTradesParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	r.symbolOrOSI("symbol", p.Symbol)
	r.date("date", p.Date, true, EarliestDate)
	r.root("root", p.Root)
	r.date("expiry", p.Expiry, false, 0)
	r.floatMin("strike", p.Strike, 0.01)
	oneOf(&r, "option_type", p.OptionType, Call, Put)
	r.timeWindow(p.MinTime, p.MaxTime, false)
	intRange(&r, "seq_no", p.SeqNo, 0, math.MaxInt64)
	intRange(&r, "exchange_id", p.ExchangeID, 0, maxByte)
	intRange(&r, "condition_id", p.ConditionID, 0, maxByte)
	intRange(&r, "limit", p.Limit, 0, maxOptionTrades)
	r.sizeAndPrice(p.MinSize, p.MaxSize, p.MinPrice, p.MaxPrice)
	return r.err()
}

func (p OptionTradesParams) query() url.Values {
	q := url.Values{}
	setString(q, "symbol", wireSymbol(p.Symbol))
	setString(q, "date", p.Date)
	setString(q, "root", p.Root)
	setString(q, "expiry", p.Expiry)
	setFloat(q, "strike", p.Strike)
	setString(q, "option_type", string(p.OptionType))
	setString(q, "min_time", p.MinTime)
	setString(q, "max_time", p.MaxTime)
	setInt(q, "seq_no", p.SeqNo)
	setInt(q, "exchange_id", p.ExchangeID)
	setInt(q, "condition_id", p.ConditionID)
	setInt(q, "limit", p.Limit)
	setInt(q, "min_size", p.MinSize)
	setInt(q, "max_size", p.MaxSize)
	setFloat(q, "min_price", p.MinPrice)
	setFloat(q, "max_price", p.MaxPrice)
	return q
}

func (p OptionTradesParams) date() Date { return parsedDate(p.Date) }

// TradesAndQuotesParams asks for the merged trades and quotes of a stock or
// one option (trades-and-quotes). The time window is required: a whole day
// of quotes is far beyond the 10,000-record limit.
type TradesAndQuotesParams struct {
	Symbol              string  // symbol: stock or OSI; required
	Date                string  // date, yyyy-MM-dd; required
	MinTime             string  // min_time, HH:mm:ss.fff Eastern; required
	MaxTime             string  // max_time, HH:mm:ss.fff Eastern; required
	TAQMode             TAQMode // mode
	QuoteConditionIDs   []int   // quote_condition_id, comma-separated, each 0 to 255
	TradeConditionIDs   []int   // trade_condition_id, comma-separated, each 0 to 255
	ConditionIDs        []int   // condition_id, comma-separated, each 0 to 255
	StartSequenceNumber *int64  // start_sequence_number: first returned, for paging
	ExchangeID          *int    // exchange_id, 0 to 255
	Limit               *int    // limit, 0 to 10000; the server's default is 10000
	OrderByTime         Order   // order_by_time
	Mode                Mode    // the path's live or delayed; not the TAQ mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
// Both TAQMode and Mode break rules under the name "mode": the first is the
// query parameter, the second the path segment; the rule text tells them apart.
func (p TradesAndQuotesParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	r.symbolOrOSI("symbol", p.Symbol)
	r.date("date", p.Date, true, EarliestDate)
	r.timeWindow(p.MinTime, p.MaxTime, true)
	oneOf(&r, "mode", p.TAQMode, AllQuotes, NBBOChanges, QuotesOnNBBO)
	r.ids("quote_condition_id", p.QuoteConditionIDs)
	r.ids("trade_condition_id", p.TradeConditionIDs)
	r.ids("condition_id", p.ConditionIDs)
	intRange(&r, "start_sequence_number", p.StartSequenceNumber, 0, math.MaxInt64)
	intRange(&r, "exchange_id", p.ExchangeID, 0, maxByte)
	intRange(&r, "limit", p.Limit, 0, maxTAQRecords)
	oneOf(&r, "order_by_time", p.OrderByTime, Ascending, Descending)
	return r.err()
}

func (p TradesAndQuotesParams) query() url.Values {
	q := url.Values{}
	setString(q, "symbol", wireSymbol(p.Symbol))
	setString(q, "date", p.Date)
	setString(q, "min_time", p.MinTime)
	setString(q, "max_time", p.MaxTime)
	setString(q, "mode", string(p.TAQMode))
	setIDs(q, "quote_condition_id", p.QuoteConditionIDs)
	setIDs(q, "trade_condition_id", p.TradeConditionIDs)
	setIDs(q, "condition_id", p.ConditionIDs)
	setInt(q, "start_sequence_number", p.StartSequenceNumber)
	setInt(q, "exchange_id", p.ExchangeID)
	setInt(q, "limit", p.Limit)
	setString(q, "order_by_time", string(p.OrderByTime))
	return q
}

func (p TradesAndQuotesParams) date() Date { return parsedDate(p.Date) }

// OptionTradesWithGreeksParams asks for one option's trades with the greeks
// at each trade (option-trades-with-greeks). Unlike option-trades it takes
// only an OSI symbol, never an underlying.
type OptionTradesWithGreeksParams struct {
	Symbol              string   // symbol: OSI; required
	Date                string   // date, yyyy-MM-dd; required
	MinTime             string   // min_time, HH:mm:ss.fff Eastern; required
	MaxTime             string   // max_time, HH:mm:ss.fff Eastern; required
	ExchangeID          *int     // exchange_id, 0 to 255
	ConditionID         *int     // condition_id, 0 to 255
	MinSize             *int64   // min_size, 0 to 2147483647
	MaxSize             *int64   // max_size, 0 to 2147483647
	MinPrice            *float64 // min_price, at least 0
	MaxPrice            *float64 // max_price, at least 0
	StartSequenceNumber *int64   // start_sequence_number: first returned, for paging
	Limit               *int     // limit, 0 to 100000; the server's default is 100000
	OrderByTime         Order    // order_by_time
	Mode                Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
func (p OptionTradesWithGreeksParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	r.osi("symbol", p.Symbol)
	r.date("date", p.Date, true, EarliestDate)
	r.timeWindow(p.MinTime, p.MaxTime, true)
	intRange(&r, "exchange_id", p.ExchangeID, 0, maxByte)
	intRange(&r, "condition_id", p.ConditionID, 0, maxByte)
	r.sizeAndPrice(p.MinSize, p.MaxSize, p.MinPrice, p.MaxPrice)
	intRange(&r, "start_sequence_number", p.StartSequenceNumber, 0, math.MaxInt64)
	intRange(&r, "limit", p.Limit, 0, maxGreeksRecords)
	oneOf(&r, "order_by_time", p.OrderByTime, Ascending, Descending)
	return r.err()
}

func (p OptionTradesWithGreeksParams) query() url.Values {
	q := url.Values{}
	setString(q, "symbol", wireSymbol(p.Symbol))
	setString(q, "date", p.Date)
	setString(q, "min_time", p.MinTime)
	setString(q, "max_time", p.MaxTime)
	setInt(q, "exchange_id", p.ExchangeID)
	setInt(q, "condition_id", p.ConditionID)
	setInt(q, "min_size", p.MinSize)
	setInt(q, "max_size", p.MaxSize)
	setFloat(q, "min_price", p.MinPrice)
	setFloat(q, "max_price", p.MaxPrice)
	setInt(q, "start_sequence_number", p.StartSequenceNumber)
	setInt(q, "limit", p.Limit)
	setString(q, "order_by_time", string(p.OrderByTime))
	return q
}

func (p OptionTradesWithGreeksParams) date() Date { return parsedDate(p.Date) }

// timeWindow checks min_time and max_time and their order.
func (r *rules) timeWindow(minTime, maxTime string, required bool) {
	lo, okLo := r.time("min_time", minTime, required)
	hi, okHi := r.time("max_time", maxTime, required)
	inOrder(r, "min_time", "max_time", lo, hi, okLo && okHi)
}

// sizeAndPrice checks the size and price filters and their order.
func (r *rules) sizeAndPrice(minSize, maxSize *int64, minPrice, maxPrice *float64) {
	loS, okLo := intRange(r, "min_size", minSize, 0, maxTradeSize)
	hiS, okHi := intRange(r, "max_size", maxSize, 0, maxTradeSize)
	inOrder(r, "min_size", "max_size", loS, hiS, okLo && okHi)
	loP, okLo := r.floatMin("min_price", minPrice, 0)
	hiP, okHi := r.floatMin("max_price", maxPrice, 0)
	inOrder(r, "min_price", "max_price", loP, hiP, okLo && okHi)
}
