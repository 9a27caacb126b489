package api

import (
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"
)

// Rule-case generators shared by the params tests: each returns the cases
// of one kind of rule for the parameter set assigns.

// Cases every struct shares: the symbol rule and the path mode.
func symbolCases[P any](param string, set func(*P, string)) []paramCase[P] {
	return []paramCase[P]{
		{param + " missing", func(p *P) { set(p, "") }, param, "is required"},
		{param + " with space", func(p *P) { set(p, "SP X") }, param, `"SP X" has a character a symbol cannot hold`},
		{param + " with comma", func(p *P) { set(p, "SPY,QQQ") }, param, "cannot hold"},
		{param + " with control char", func(p *P) { set(p, "SPY\n") }, param, "cannot hold"},
		{param + " non-ASCII", func(p *P) { set(p, "SPÿ") }, param, "cannot hold"},
		{param + " 33 chars", func(p *P) { set(p, strings.Repeat("A", 33)) }, param, "longer than 32"},
		{param + " 32 chars", func(p *P) { set(p, strings.Repeat("A", 32)) }, "", ""},
		{param + " punctuation", func(p *P) { set(p, "^BRK.B/W-I_X") }, "", ""},
	}
}

func modeCases[P any](set func(*P, Mode)) []paramCase[P] {
	return []paramCase[P]{
		{"mode default", func(p *P) { set(p, "") }, "", ""},
		{"mode live", func(p *P) { set(p, Live) }, "", ""},
		{"mode delayed", func(p *P) { set(p, Delayed) }, "", ""},
		{"mode upper case", func(p *P) { set(p, "LIVE") }, "{mode}", `must be "live" or "delayed"`},
		{"mode historical", func(p *P) { set(p, "historical") }, "{mode}", "live"},
	}
}

// dateCases covers a date parameter's format; required adds the missing case.
func dateCases[P any](param string, required bool, set func(*P, string)) []paramCase[P] {
	bad := "must be a date of the form yyyy-MM-dd"
	cs := []paramCase[P]{
		{param + " one-digit month", func(p *P) { set(p, "2024-1-05") }, param, bad},
		{param + " no dashes", func(p *P) { set(p, "20240105") }, param, bad},
		{param + " slashes", func(p *P) { set(p, "2024/01/05") }, param, bad},
		{param + " no such day", func(p *P) { set(p, "2023-02-29") }, param, bad},
		{param + " month 13", func(p *P) { set(p, "2024-13-01") }, param, bad},
		{param + " trailing space", func(p *P) { set(p, "2024-01-05 ") }, param, bad},
		{param + " with time", func(p *P) { set(p, "2024-01-05T00:00:00") }, param, bad},
		{param + " leap day", func(p *P) { set(p, "2024-02-29") }, "", ""},
	}
	if required {
		cs = append(cs, paramCase[P]{param + " missing", func(p *P) { set(p, "") }, param, "is required"})
	} else {
		cs = append(cs, paramCase[P]{param + " absent", func(p *P) { set(p, "") }, "", ""})
	}
	return cs
}

// floatMinCases covers an optional decimal with a lower bound.
func floatMinCases[P any](param string, lo, below float64, set func(*P, *float64)) []paramCase[P] {
	return []paramCase[P]{
		{param + " absent", func(p *P) { set(p, nil) }, "", ""},
		{param + " at minimum", func(p *P) { set(p, Ptr(lo)) }, "", ""},
		{param + " below minimum", func(p *P) { set(p, Ptr(below)) }, param, "must be >= " + formatFloat(lo)},
		{param + " negative", func(p *P) { set(p, Ptr(-1.0)) }, param, ">="},
		{param + " NaN", func(p *P) { set(p, Ptr(math.NaN())) }, param, "finite"},
		{param + " +Inf", func(p *P) { set(p, Ptr(math.Inf(1))) }, param, "finite"},
		{param + " -Inf", func(p *P) { set(p, Ptr(math.Inf(-1))) }, param, "finite"},
		{param + " max double", func(p *P) { set(p, Ptr(math.MaxFloat64)) }, "", ""},
	}
}

func concat[P any](lists ...[]paramCase[P]) []paramCase[P] {
	var out []paramCase[P]
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// timeCases covers one end of a min_time/max_time window; set assigns it and
// clears the other end, so that order does not interfere.
func timeCases[P any](param string, required bool, set func(*P, string)) []paramCase[P] {
	form := "must be a time of the form HH:mm:ss.fff"
	rng := "must be a time from 00:00:00.000 to 23:59:59.999"
	cs := []paramCase[P]{
		{param + " midnight", func(p *P) { set(p, "00:00:00.000") }, "", ""},
		{param + " last millisecond", func(p *P) { set(p, "23:59:59.999") }, "", ""},
		{param + " no millis", func(p *P) { set(p, "09:30:00") }, param, form},
		{param + " one-digit hour", func(p *P) { set(p, "9:30:00.000") }, param, form},
		{param + " four-digit fraction", func(p *P) { set(p, "09:30:00.0000") }, param, form},
		{param + " comma fraction", func(p *P) { set(p, "09:30:00,000") }, param, form},
		{param + " hour 24", func(p *P) { set(p, "24:00:00.000") }, param, rng},
		{param + " minute 60", func(p *P) { set(p, "09:60:00.000") }, param, rng},
		{param + " letter", func(p *P) { set(p, "09:3a:00.000") }, param, rng},
	}
	if required {
		return append(cs, paramCase[P]{param + " missing", func(p *P) { set(p, "") }, param, "is required"})
	}
	return append(cs, paramCase[P]{param + " absent", func(p *P) { set(p, "") }, "", ""})
}

// intCases covers an optional integer range: both edges, just inside and
// just outside.
func intCases[P any, T int | int64](param string, lo, hi T, set func(*P, *T)) []paramCase[P] {
	cs := []paramCase[P]{
		{param + " absent", func(p *P) { set(p, nil) }, "", ""},
		{param + " at minimum", func(p *P) { set(p, Ptr(lo)) }, "", ""},
		{param + " below minimum", func(p *P) { set(p, Ptr(lo-1)) }, param, "must be from"},
		{param + " at maximum", func(p *P) { set(p, Ptr(hi)) }, "", ""},
		{param + " just inside", func(p *P) { set(p, Ptr(hi-1)) }, "", ""},
	}
	if int64(hi) < math.MaxInt64 {
		cs = append(cs, paramCase[P]{param + " above maximum", func(p *P) { set(p, Ptr(hi+1)) }, param, "must be from"})
	}
	return cs
}

func idListCases[P any](param string, set func(*P, []int)) []paramCase[P] {
	return []paramCase[P]{
		{param + " absent", func(p *P) { set(p, nil) }, "", ""},
		{param + " edges", func(p *P) { set(p, []int{0, 255}) }, "", ""},
		{param + " 256", func(p *P) { set(p, []int{1, 256}) }, param, "entry 2 must be from 0 to 255, not 256"},
		{param + " negative", func(p *P) { set(p, []int{-1}) }, param, "entry 1 must be from 0 to 255"},
	}
}

// sizePriceCases covers min_size/max_size and min_price/max_price.
func sizePriceCases[P any](size func(*P, *int64, *int64), price func(*P, *float64, *float64)) []paramCase[P] {
	return concat(
		intCases("min_size", int64(0), math.MaxInt32, func(p *P, v *int64) { size(p, v, nil) }),
		intCases("max_size", int64(0), math.MaxInt32, func(p *P, v *int64) { size(p, nil, v) }),
		floatMinCases("min_price", 0, -0.01, func(p *P, v *float64) { price(p, v, nil) }),
		floatMinCases("max_price", 0, -0.01, func(p *P, v *float64) { price(p, nil, v) }),
		[]paramCase[P]{
			{"size inverted", func(p *P) { size(p, Ptr[int64](11), Ptr[int64](10)) }, "min_size", "must be <= max_size"},
			{"size equal", func(p *P) { size(p, Ptr[int64](10), Ptr[int64](10)) }, "", ""},
			{"size one bad end", func(p *P) { size(p, Ptr[int64](11), Ptr[int64](-1)) }, "max_size", "from 0 to 2147483647"},
			{"price inverted", func(p *P) { price(p, Ptr(1.5), Ptr(1.49)) }, "min_price", "must be <= max_price"},
			{"price equal", func(p *P) { price(p, Ptr(1.5), Ptr(1.5)) }, "", ""},
			{"price zero both", func(p *P) { price(p, Ptr(0.0), Ptr(0.0)) }, "", ""},
		},
	)
}

func windowCases[P any](required bool, set func(*P, string, string)) []paramCase[P] {
	return concat(
		timeCases("min_time", required, func(p *P, s string) { set(p, s, "23:59:59.999") }),
		timeCases("max_time", required, func(p *P, s string) { set(p, "00:00:00.000", s) }),
		[]paramCase[P]{
			{"times inverted", func(p *P) { set(p, "10:00:00.001", "10:00:00.000") }, "min_time", "must be <= max_time"},
			{"times equal", func(p *P) { set(p, "10:00:00.000", "10:00:00.000") }, "", ""},
			{"times one bad end", func(p *P) { set(p, "11:00:00.000", "10:00") }, "max_time", "HH:mm:ss.fff"},
		},
	)
}

func fullOptionTrades() OptionTradesParams {
	return OptionTradesParams{
		Symbol: "SPX", Date: "2024-12-20", Root: "SPXW", Expiry: "2024-12-20", Strike: Ptr(5925.0),
		OptionType: Put, MinTime: "09:30:00.000", MaxTime: "16:00:00.000", SeqNo: Ptr[int64](1000),
		ExchangeID: Ptr(5), ConditionID: Ptr(18), Limit: Ptr(500), MinSize: Ptr[int64](10), MaxSize: Ptr[int64](500),
		MinPrice: Ptr(0.05), MaxPrice: Ptr(12.5), Mode: Delayed,
	}
}

func TestOptionTradesParamsValidate(t *testing.T) {
	type P = OptionTradesParams
	cases := concat(
		symbolCases("symbol", func(p *P, s string) { p.Symbol = s }),
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("date", true, func(p *P, s string) { p.Date = s }),
		dateCases("expiry", false, func(p *P, s string) { p.Expiry = s }),
		floatMinCases("strike", 0.01, 0.0099, func(p *P, v *float64) { p.Strike = v }),
		windowCases(false, func(p *P, lo, hi string) { p.MinTime, p.MaxTime = lo, hi }),
		intCases("seq_no", int64(0), math.MaxInt64, func(p *P, v *int64) { p.SeqNo = v }),
		intCases("exchange_id", 0, 255, func(p *P, v *int) { p.ExchangeID = v }),
		intCases("condition_id", 0, 255, func(p *P, v *int) { p.ConditionID = v }),
		intCases("limit", 0, 10000, func(p *P, v *int) { p.Limit = v }),
		sizePriceCases(func(p *P, lo, hi *int64) { p.MinSize, p.MaxSize = lo, hi },
			func(p *P, lo, hi *float64) { p.MinPrice, p.MaxPrice = lo, hi }),
		[]paramCase[P]{
			{"minimal", func(p *P) { *p = P{Symbol: "SPY", Date: "2024-01-05"} }, "", ""},
			{"OSI symbol", func(p *P) { p.Symbol = "SPXW241220P05925000" }, "", ""},
			{"OSI symbol, OCC layout", func(p *P) { p.Symbol = "SPX   241220P05925000" }, "", ""},
			{"OSI symbol, lower case", func(p *P) { p.Symbol = "spxw241220p05925000" }, "", ""},
			{"OSI symbol, bad padding", func(p *P) { p.Symbol = "SPX 241220P05925000" }, "symbol", "cannot hold"},
			{"date before depth", func(p *P) { p.Date = "2002-12-31" }, "date", "must be 2003-01-01 or later"},
			{"date at depth", func(p *P) { p.Date = "2003-01-01" }, "", ""},
			{"expiry before depth", func(p *P) { p.Expiry = "2002-12-20" }, "", ""},
			{"root bad", func(p *P) { p.Root = "SPX W" }, "root", "1 to 6 letters or digits"},
			{"root absent", func(p *P) { p.Root = "" }, "", ""},
			{"option_type bad", func(p *P) { p.OptionType = "p" }, "option_type", "must be one of C, P"},
			{"option_type call", func(p *P) { p.OptionType = Call }, "", ""},
		},
	)
	runParamCases(t, fullOptionTrades(), cases)
}

func TestOptionTradesParamsQuery(t *testing.T) {
	checkQuery(t, fullOptionTrades().query(), url.Values{
		"symbol": {"SPX"}, "date": {"2024-12-20"}, "root": {"SPXW"}, "expiry": {"2024-12-20"}, "strike": {"5925"},
		"option_type": {"P"}, "min_time": {"09:30:00.000"}, "max_time": {"16:00:00.000"}, "seq_no": {"1000"},
		"exchange_id": {"5"}, "condition_id": {"18"}, "limit": {"500"}, "min_size": {"10"}, "max_size": {"500"},
		"min_price": {"0.05"}, "max_price": {"12.5"},
	})
	p := OptionTradesParams{Symbol: "spx   241220p04125000", Date: "2024-12-20", Limit: Ptr(0), ExchangeID: Ptr(0)}
	checkQuery(t, p.query(), url.Values{"symbol": {"SPX241220P04125000"}, "date": {"2024-12-20"}, "limit": {"0"}, "exchange_id": {"0"}})
}

func fullTAQ() TradesAndQuotesParams {
	return TradesAndQuotesParams{
		Symbol: "AAPL", Date: "2024-06-03", MinTime: "09:30:00.000", MaxTime: "09:31:00.000",
		TAQMode: NBBOChanges, QuoteConditionIDs: []int{1, 2}, TradeConditionIDs: []int{0, 255}, ConditionIDs: []int{7},
		StartSequenceNumber: Ptr[int64](12345), ExchangeID: Ptr(11), Limit: Ptr(10000), OrderByTime: Descending, Mode: Live,
	}
}

func TestTradesAndQuotesParamsValidate(t *testing.T) {
	type P = TradesAndQuotesParams
	cases := concat(
		symbolCases("symbol", func(p *P, s string) { p.Symbol = s }),
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("date", true, func(p *P, s string) { p.Date = s }),
		windowCases(true, func(p *P, lo, hi string) { p.MinTime, p.MaxTime = lo, hi }),
		idListCases("quote_condition_id", func(p *P, ids []int) { p.QuoteConditionIDs = ids }),
		idListCases("trade_condition_id", func(p *P, ids []int) { p.TradeConditionIDs = ids }),
		idListCases("condition_id", func(p *P, ids []int) { p.ConditionIDs = ids }),
		intCases("start_sequence_number", int64(0), math.MaxInt64, func(p *P, v *int64) { p.StartSequenceNumber = v }),
		intCases("exchange_id", 0, 255, func(p *P, v *int) { p.ExchangeID = v }),
		intCases("limit", 0, 10000, func(p *P, v *int) { p.Limit = v }),
		[]paramCase[P]{
			{"minimal", func(p *P) {
				*p = P{Symbol: "AAPL", Date: "2024-06-03", MinTime: "09:30:00.000", MaxTime: "09:30:00.000"}
			}, "", ""},
			{"OSI symbol, OCC layout", func(p *P) { p.Symbol = "AAPL  240621C00190000" }, "", ""},
			{"TAQ mode all quotes", func(p *P) { p.TAQMode = AllQuotes }, "", ""},
			{"TAQ mode quotes on NBBO", func(p *P) { p.TAQMode = QuotesOnNBBO }, "", ""},
			{"TAQ mode default", func(p *P) { p.TAQMode = "" }, "", ""},
			{"TAQ mode lower case", func(p *P) { p.TAQMode = "all_quotes" }, "mode", "must be one of ALL_QUOTES, NBBO_CHANGES, QUOTES_ON_NBBO"},
			{"TAQ mode path value", func(p *P) { p.TAQMode = "live" }, "mode", "ALL_QUOTES"},
			{"order ascending", func(p *P) { p.OrderByTime = Ascending }, "", ""},
			{"order default", func(p *P) { p.OrderByTime = "" }, "", ""},
			{"order lower case", func(p *P) { p.OrderByTime = "desc" }, "order_by_time", "must be one of ASC, DESC"},
		},
	)
	runParamCases(t, fullTAQ(), cases)
}

func TestTradesAndQuotesParamsQuery(t *testing.T) {
	checkQuery(t, fullTAQ().query(), url.Values{
		"symbol": {"AAPL"}, "date": {"2024-06-03"}, "min_time": {"09:30:00.000"}, "max_time": {"09:31:00.000"},
		"mode": {"NBBO_CHANGES"}, "quote_condition_id": {"1,2"}, "trade_condition_id": {"0,255"}, "condition_id": {"7"},
		"start_sequence_number": {"12345"}, "exchange_id": {"11"}, "limit": {"10000"}, "order_by_time": {"DESC"},
	})
}

func fullGreeks() OptionTradesWithGreeksParams {
	return OptionTradesWithGreeksParams{
		Symbol: "SPXW241220C05925000", Date: "2024-12-20", MinTime: "09:30:00.000", MaxTime: "16:15:00.000",
		ExchangeID: Ptr(0), ConditionID: Ptr(255), MinSize: Ptr[int64](1), MaxSize: Ptr[int64](2147483647),
		MinPrice: Ptr(0.0), MaxPrice: Ptr(99.95), StartSequenceNumber: Ptr[int64](0), Limit: Ptr(100000),
		OrderByTime: Ascending, Mode: Delayed,
	}
}

func TestOptionTradesWithGreeksParamsValidate(t *testing.T) {
	type P = OptionTradesWithGreeksParams
	cases := concat(
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("date", true, func(p *P, s string) { p.Date = s }),
		windowCases(true, func(p *P, lo, hi string) { p.MinTime, p.MaxTime = lo, hi }),
		intCases("exchange_id", 0, 255, func(p *P, v *int) { p.ExchangeID = v }),
		intCases("condition_id", 0, 255, func(p *P, v *int) { p.ConditionID = v }),
		intCases("start_sequence_number", int64(0), math.MaxInt64, func(p *P, v *int64) { p.StartSequenceNumber = v }),
		intCases("limit", 0, 100000, func(p *P, v *int) { p.Limit = v }),
		sizePriceCases(func(p *P, lo, hi *int64) { p.MinSize, p.MaxSize = lo, hi },
			func(p *P, lo, hi *float64) { p.MinPrice, p.MaxPrice = lo, hi }),
		[]paramCase[P]{
			{"minimal", func(p *P) {
				*p = P{Symbol: "SPXW241220C05925000", Date: "2024-12-20", MinTime: "09:30:00.000", MaxTime: "09:30:00.000"}
			}, "", ""},
			{"symbol missing", func(p *P) { p.Symbol = "" }, "symbol", "is required"},
			{"symbol underlying", func(p *P) { p.Symbol = "SPX" }, "symbol", "must be an OSI option symbol"},
			{"symbol no such expiry", func(p *P) { p.Symbol = "SPXW241331C05925000" }, "symbol", `"SPXW241331C05925000" expiry 241331 is not a date`},
			{"symbol bad type", func(p *P) { p.Symbol = "SPXW241220X05925000" }, "symbol", `type "X" must be C or P`},
			{"symbol zero strike", func(p *P) { p.Symbol = "SPXW241220C00000000" }, "symbol", "zero"},
			{"symbol OCC layout", func(p *P) { p.Symbol = "SPX   241220C05925000" }, "", ""},
			{"symbol lower case", func(p *P) { p.Symbol = "spxw241220c05925000" }, "", ""},
			{"order descending", func(p *P) { p.OrderByTime = Descending }, "", ""},
			{"order word", func(p *P) { p.OrderByTime = "newest" }, "order_by_time", "ASC, DESC"},
		},
	)
	runParamCases(t, fullGreeks(), cases)
}

func TestOptionTradesWithGreeksParamsQuery(t *testing.T) {
	checkQuery(t, fullGreeks().query(), url.Values{
		"symbol": {"SPXW241220C05925000"}, "date": {"2024-12-20"}, "min_time": {"09:30:00.000"}, "max_time": {"16:15:00.000"},
		"exchange_id": {"0"}, "condition_id": {"255"}, "min_size": {"1"}, "max_size": {"2147483647"},
		"min_price": {"0"}, "max_price": {"99.95"}, "start_sequence_number": {"0"}, "limit": {"100000"}, "order_by_time": {"ASC"},
	})
	p := OptionTradesWithGreeksParams{Symbol: " spx   241220c04125000 "}
	checkQuery(t, p.query(), url.Values{"symbol": {"SPX241220C04125000"}})
}

// TestEarliestDateBoundsEveryDay holds the one bound on every parameter
// that names a day of data (or ends a range of days): the day before
// EarliestDate is refused naming the parameter and the bound, EarliestDate
// itself is taken. The underlying quotes start later and are held to
// their own depth in TestUnderlyingQuotesParamsValidate.
func TestEarliestDateBoundsEveryDay(t *testing.T) {
	before, first := EarliestDate.AddDays(-1).String(), EarliestDate.String()
	cases := []struct {
		endpoint, param string
		validate        func(day string) error
	}{
		{"option-and-underlying-quotes", "date", func(d string) error { p := fullOptionQuotes(); p.Date = d; return p.Validate() }},
		{"option-trades", "date", func(d string) error { p := fullOptionTrades(); p.Date = d; return p.Validate() }},
		{"trades-and-quotes", "date", func(d string) error { p := fullTAQ(); p.Date = d; return p.Validate() }},
		{"option-trades-with-greeks", "date", func(d string) error { p := fullGreeks(); p.Date = d; return p.Validate() }},
		{"underlying-quotes", "date", func(d string) error {
			p := UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: d}
			return p.Validate()
		}},
		{"calendar", "end_date", func(d string) error {
			p := CalendarParams{Symbols: []string{"SPY"}, StartDate: "1999-01-04", EndDate: d}
			return p.Validate()
		}},
	}
	for _, c := range cases {
		var ve *ValidationError
		if err := c.validate(before); !errors.As(err, &ve) || ve.Param != c.param || !strings.Contains(ve.Rule, "or later") {
			t.Errorf("%s %s=%s: %v, want %s refused as before the data", c.endpoint, c.param, before, err, c.param)
		}
		if c.endpoint == "underlying-quotes" {
			continue // its history starts in 2011
		}
		if err := c.validate(first); err != nil {
			t.Errorf("%s %s=%s: %v", c.endpoint, c.param, first, err)
		}
	}
}
