package scan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

func ptr[T any](v T) *T { return &v }

// sample is one fully filled quote, the row the grammar tests evaluate on.
func sample() Quote {
	return Quote{
		Symbol: "AAPL", CompanyName: "Apple Inc.", Sector: "Technology", AssetType: "stock",
		Price: 200, Change: -3, ChangePercent: -1.5, Open: 202, High: 204, Low: 198, PrevClose: 203,
		Volume: 40_000_000, AvgVolume: 50_000_000, RelativeVolume: 0.8,
		High52: 250, Low52: 160,
		IV30: 28.5, IV30Change: 1.5, IV30ChangePercent: 5.56, IVRank: 40, HV30: 25, IVHVRatio: 1.14,
		ImpliedIndicator: ptr("green"), ImpliedMid: ptr(200.01),
		EarningsDate: ptr("2026-12-03"), DaysToEarnings: ptr(int64(13)),
		DividendYield: 0.5, ExDividendDate: ptr("2026-11-28"),
		OptionVolume: 1_000_000, CallVolume: 600_000, PutVolume: 400_000, PutCallRatio: ptr(2.0 / 3), OpenInterest: 5_000_000,
	}
}

// nullQuote has every nullable field null.
func nullQuote() Quote {
	q := sample()
	q.Symbol = "NULL"
	q.ImpliedIndicator, q.ImpliedMid, q.EarningsDate, q.DaysToEarnings, q.ExDividendDate, q.PutCallRatio = nil, nil, nil, nil, nil, nil
	return q
}

// universe is n deterministic rows with varied values, symbols S000...
// in reverse order so that tests see the engine order them.
func universe(n int) []Quote {
	rows := make([]Quote, n)
	for i := range rows {
		q := sample()
		k := n - 1 - i
		q.Symbol = fmt.Sprintf("S%03d", k)
		q.CompanyName = fmt.Sprintf("Company %d", k)
		q.Sector = []string{"Technology", "Financials", "Energy"}[k%3]
		q.Price = 10 + float64(k*7%50)
		q.IV30 = 15 + float64(k*13%40)
		q.Volume = int64(1000 * (k%10 + 1))
		if k%4 == 0 {
			q.PutCallRatio = nil
		} else {
			q.PutCallRatio = ptr(float64(k%5) / 2)
		}
		rows[i] = q
	}
	return rows
}

func fields(formulas ...string) []api.ScanFieldParam {
	p := make([]api.ScanFieldParam, len(formulas))
	for i, f := range formulas {
		p[i] = api.ScanFieldParam{Formula: f}
	}
	return p
}

var when = time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)

// eval compiles one formula and returns its value on q, and whether the
// row was kept.
func eval(t *testing.T, formula string, q Quote) (any, bool) {
	t.Helper()
	s, err := Compile(fields(formula))
	if err != nil {
		t.Fatalf("%s: %v", formula, err)
	}
	r := s.Run([]Quote{q}, true, when)
	if len(r.Output) == 0 {
		return nil, false
	}
	return r.Output[0].Values[formula], true
}

// BenchmarkRun is a typical screen over the sandbox's ~110 optionable
// symbols: two filters, three value columns, two sorted.
func BenchmarkRun(b *testing.B) {
	benchRun(b, []api.ScanFieldParam{
		{Formula: "iv30 > 20 and volume > 1000"},
		{Formula: `sector != "Energy"`, IncludeInResultset: ptr(false)},
		{Formula: "iv30 - hv30", DisplayName: "premium", Sort: api.SortDesc},
		{Formula: "put_call_ratio", Sort: api.SortAsc},
		{Formula: "abs(change_percent)"},
	})
}

// BenchmarkRunWorst is the costliest scan the limits allow: 50 fields of
// close to maxNodes nodes each, over 110 rows.
func BenchmarkRunWorst(b *testing.B) {
	p := make([]api.ScanFieldParam, MaxFields)
	for i := range p {
		p[i] = api.ScanFieldParam{Formula: fmt.Sprintf("%d + iv30", i) + strings.Repeat(" * 1 + price", 49)}
	}
	benchRun(b, p)
}

// benchRun compiles p and runs it over the ~110 symbols in a loop.
func benchRun(b *testing.B, p []api.ScanFieldParam) {
	s, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	rows := universe(110)
	b.ReportAllocs()
	for b.Loop() {
		s.Run(rows, true, when)
	}
}

func BenchmarkCompile(b *testing.B) {
	p := fields("iv30 > 20 and volume > 1000", `sector != "Energy"`, "iv30 - hv30", "put_call_ratio", "abs(change_percent)")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(p); err != nil {
			b.Fatal(err)
		}
	}
}
