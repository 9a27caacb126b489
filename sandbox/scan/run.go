// Package scan is the sandbox's custom scanner: the catalogue of fields a
// formula may name, the scanner metadata, and formulas compiled with
// github.com/expr-lang/expr and run over one row per optionable symbol.
//
// The grammar is deliberately small (field names, numbers, quoted strings,
// + - * / %, comparisons, and/or/not, parentheses, abs/min/max) because the
// formulas come from any client over the network: a formula cannot call
// anything, allocate, loop or reach beyond its row, so its cost is bounded
// by its length, which is bounded too.
//
// Nulls follow SQL's three-valued logic, which is what a trader expects of
// a screen: arithmetic or a comparison over a null is null, "false and
// null" is false, "true or null" is true, anything else over a null is
// null. A filter that comes out null drops the row, like false; a value
// column that comes out null is output as null. Results that JSON cannot
// carry (division by zero, NaN, infinities) are null as well.
package scan

import (
	"slices"
	"strings"
	"time"

	"chainwatch/api"

	"github.com/expr-lang/expr/vm"
)

// Quote is one symbol's scanner inputs at a moment, filled by the simulator.
// A pointer field may be null (no earnings scheduled, no implied price, no
// call volume for a ratio); the others always have a value. Each field is
// named in formulas by the snake_case name of the catalogue (see Metadata).
type Quote struct {
	Symbol      string // symbol
	CompanyName string // company_name
	Sector      string // sector
	AssetType   string // asset_type: "stock", "etf" or "index"

	Price         float64 // price: last
	Change        float64 // change: from the previous close, dollars
	ChangePercent float64 // change_percent: from the previous close, percent
	Open          float64 // open
	High          float64 // high: of the session so far
	Low           float64 // low: of the session so far
	PrevClose     float64 // prev_close

	Volume         int64   // volume: shares today
	AvgVolume      int64   // avg_volume: shares per day
	RelativeVolume float64 // relative_volume: 1.0 is an ordinary day

	High52 float64 // high_52w
	Low52  float64 // low_52w

	IV30              float64 // iv30: percentage points
	IV30Change        float64 // iv30_change: percentage points from the previous close
	IV30ChangePercent float64 // iv30_change_percent: percent change from the previous close
	IVRank            float64 // iv_rank: 0-100 over 52 weeks
	HV30              float64 // hv30: percentage points
	IVHVRatio         float64 // iv_hv_ratio: iv30 / hv30

	ImpliedIndicator *string  // implied_indicator: "green", "yellow" or "red"
	ImpliedMid       *float64 // implied_mid

	EarningsDate   *string // earnings_date: yyyy-MM-dd
	DaysToEarnings *int64  // days_to_earnings: calendar days

	DividendYield  float64 // dividend_yield: percent
	ExDividendDate *string // ex_dividend_date: yyyy-MM-dd

	OptionVolume int64    // option_volume: contracts today
	CallVolume   int64    // call_volume
	PutVolume    int64    // put_volume
	PutCallRatio *float64 // put_call_ratio: put_volume / call_volume
	OpenInterest int64    // open_interest: contracts
}

// TopResults is how many rows a scan returns unless all results are asked for.
const TopResults = 20

// row is a quote that passed every filter, with its columns' values.
type row struct {
	q    *Quote
	vals []any // by column: float64, string, bool or nil
}

// Run evaluates the scan over rows (one per symbol, as the simulator gives
// them): a row is kept where every boolean formula is true (false or null
// drops it, whether or not the formula is returned); kept rows are ordered
// by the sorted columns in the request's order, nulls last either way,
// then by symbol; the first TopResults are returned unless all is set.
// Output rows carry the returned columns under their keys; Inputs echo the
// request; LastUpdated is lastUpdated in RFC 3339, Eastern.
//
// Run only reads rows and s, so concurrent Runs are safe.
func (s *Scan) Run(rows []Quote, all bool, lastUpdated time.Time) *api.ScanResult {
	m := vm.VM{MemoryBudget: memoryBudget}
	env := make(map[string]any, len(s.fields))
	n := len(s.cols)
	slab := make([]any, len(rows)*n) // a dropped row's slot is reused by the next
	kept := make([]row, 0, len(rows))
	for i := range rows {
		q := &rows[i]
		for _, f := range s.fields {
			env[f.name] = f.get(q)
		}
		vals := slab[len(kept)*n : (len(kept)+1)*n]
		if !s.keep(&m, env, vals) {
			continue
		}
		for _, c := range s.values {
			vals[c] = s.cols[c].eval(&m, env)
		}
		kept = append(kept, row{q: q, vals: vals})
	}
	slices.SortStableFunc(kept, s.compare)
	if !all && len(kept) > TopResults {
		kept = kept[:TopResults]
	}
	return &api.ScanResult{
		LastUpdated: lastUpdated.In(api.Eastern).Format(time.RFC3339),
		Inputs:      append([]api.ScanFieldParam{}, s.inputs...),
		Output:      s.output(kept),
	}
}

// keep evaluates the filters into vals and reports whether all hold;
// evaluating them first spares the value columns of rows that are dropped.
func (s *Scan) keep(m *vm.VM, env map[string]any, vals []any) bool {
	for _, c := range s.filters {
		v := s.cols[c].eval(m, env)
		if v != true {
			return false
		}
		vals[c] = v
	}
	return true
}

// compare orders two kept rows: sorted columns first (nulls last in either
// direction, since a null is no answer rather than a small one), then the
// symbol, so the order never depends on the input's.
func (s *Scan) compare(a, b row) int {
	for _, c := range s.sorts {
		x, y := a.vals[c], b.vals[c]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return 1
		case y == nil:
			return -1
		}
		o, _ := order(x, y)
		if s.cols[c].sort == api.SortDesc {
			o = -o
		}
		if o != 0 {
			return o
		}
	}
	return strings.Compare(a.q.Symbol, b.q.Symbol)
}

func (s *Scan) output(kept []row) []api.ScanRow {
	out := make([]api.ScanRow, len(kept)) // [] rather than null when nothing is kept
	nKeys := 0
	for _, c := range s.cols {
		if c.include {
			nKeys++
		}
	}
	for i, r := range kept {
		values := make(map[string]any, nKeys)
		for c, col := range s.cols {
			if col.include {
				values[col.key] = r.vals[c]
			}
		}
		out[i] = api.ScanRow{Symbol: r.q.Symbol, CompanyName: r.q.CompanyName, Values: values}
	}
	return out
}
