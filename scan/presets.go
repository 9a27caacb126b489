package scan

import "chainwatch/api"

// Presets are the scans chainwatch ships: starting points a new user can
// run at once and copy into their own, each a screen options traders
// actually run. They are written only with field names of the scanner
// metadata (the sandbox's catalogue, which mirrors the service's), and a
// test checks each one with the formula grammar and runs it against the
// sandbox, so a renamed field breaks the build, not a user's first scan.
//
// Filters are not included in the results (their column would be "true"
// on every row); the values a trader judges the rows by are, with short
// display names so the table stays narrow. Each preset sorts, because a
// top-20 answer is only useful when the best 20 come first.
//
// A fresh slice each call: callers may change what they get.
func Presets() []Scan {
	scans := presetList()
	for i := range scans {
		scans[i].Preset = true
	}
	return scans
}

// presetList is the presets as written, before they are marked.
func presetList() []Scan {
	return []Scan{
		{
			Name:        "High IV",
			Description: "30-day implied volatility of 40 % or more, highest first: premium sellers' hunting ground",
			Fields: []api.ScanFieldParam{
				presetFilter("iv30 >= 40"),
				presetValue("iv30", "IV30", api.SortDesc),
				presetValue("iv_rank", "IV Rank", api.SortNone),
				presetValue("hv30", "HV30", api.SortNone),
				presetValue("price", "Price", api.SortNone),
			},
		},
		{
			Name:        "IV rank 80+",
			Description: "IV in the top fifth of its 52-week range: expensive options relative to their own history",
			Fields: []api.ScanFieldParam{
				presetFilter("iv_rank >= 80"),
				presetValue("iv_rank", "IV Rank", api.SortDesc),
				presetValue("iv30", "IV30", api.SortNone),
				presetValue("iv30_change", "IV30 Chg", api.SortNone),
				presetValue("price", "Price", api.SortNone),
			},
		},
		{
			Name:        "IV well above HV",
			Description: "Options price at least 25 % more movement than the stock has shown (iv30 / hv30 >= 1.25)",
			Fields: []api.ScanFieldParam{
				presetFilter("iv_hv_ratio >= 1.25"),
				presetValue("iv_hv_ratio", "IV/HV", api.SortDesc),
				presetValue("iv30", "IV30", api.SortNone),
				presetValue("hv30", "HV30", api.SortNone),
				presetValue("days_to_earnings", "Days to Earn", api.SortNone),
			},
		},
		{
			Name:        "Earnings this week",
			Description: "Earnings report within 7 days, soonest first, with the IV the options price in",
			Fields: []api.ScanFieldParam{
				presetFilter("days_to_earnings <= 7"),
				presetValue("earnings_date", "Earnings", api.SortAsc),
				presetValue("days_to_earnings", "Days", api.SortNone),
				presetValue("iv30", "IV30", api.SortDesc),
				presetValue("iv_rank", "IV Rank", api.SortNone),
			},
		},
		{
			Name:        "Put-heavy flow",
			Description: "At least 1.5 puts traded per call on 10,000+ contracts today: hedging or bearish bets",
			Fields: []api.ScanFieldParam{
				presetFilter("put_call_ratio >= 1.5 and option_volume >= 10000"),
				presetValue("put_call_ratio", "P/C", api.SortDesc),
				presetValue("option_volume", "Opt Vol", api.SortNone),
				presetValue("relative_volume", "Rel Vol", api.SortNone),
				presetValue("change_percent", "Chg %", api.SortNone),
			},
		},
		{
			Name:        "Dividend capture",
			Description: "Yield of 2 % or more, next ex-dividend date first: candidates for a covered call over the ex-date",
			Fields: []api.ScanFieldParam{
				presetFilter("dividend_yield >= 2"),
				presetValue("ex_dividend_date", "Ex-Div", api.SortAsc),
				presetValue("dividend_yield", "Yield %", api.SortNone),
				presetValue("iv30", "IV30", api.SortNone),
				presetValue("price", "Price", api.SortNone),
			},
		},
	}
}

// presetFilter is a boolean formula that keeps rows but is not a column.
func presetFilter(formula string) api.ScanFieldParam {
	return api.ScanFieldParam{Formula: formula, IncludeInResultset: api.Ptr(false), Sort: api.SortNone}
}

// presetValue is a column shown under name, optionally sorted.
func presetValue(formula, name string, sort api.SortOrder) api.ScanFieldParam {
	return api.ScanFieldParam{Formula: formula, DisplayName: name, Sort: sort}
}
