package scan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"chainwatch/api"
)

func TestNulls(t *testing.T) {
	dropped := []string{
		"put_call_ratio > 0", "put_call_ratio <= 0", "not (put_call_ratio > 0)", "!(put_call_ratio > 0)",
		`implied_indicator == "green"`, `implied_indicator != "green"`, "put_call_ratio == put_call_ratio",
		`earnings_date > "2000-01-01"`, `ex_dividend_date != ""`, "days_to_earnings >= 0", "abs(put_call_ratio) >= 0",
		"implied_mid > 0 and price > 0", "put_call_ratio > 0 or price < 0", "min(put_call_ratio, 1) < 5",
	}
	for _, f := range dropped {
		if v, kept := eval(t, f, nullQuote()); kept {
			t.Errorf("%s over nulls: kept with %v, want dropped", f, v)
		}
		if v, kept := eval(t, f, sample()); kept && v != true {
			t.Errorf("%s without nulls: %v", f, v)
		}
	}
	// Three-valued logic: a null is unknown, and unknown or true is true.
	for f, want := range map[string]bool{"put_call_ratio > 0 or price > 0": true, "price > 0 || implied_mid > 0": true, "put_call_ratio > 0 and price < 0": false} {
		if _, kept := eval(t, f, nullQuote()); kept != want {
			t.Errorf("%s over nulls: kept %v, want %v", f, kept, want)
		}
	}
	for _, f := range []string{"put_call_ratio", "put_call_ratio * 2", "implied_mid - price", "-put_call_ratio", "max(1, put_call_ratio)", "earnings_date", "implied_indicator", "days_to_earnings + 1", "ex_dividend_date"} {
		s, err := Compile(fields(f))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Run([]Quote{nullQuote()}, false, when)
		if len(r.Output) != 1 {
			t.Fatalf("%s: value column dropped the row", f)
		}
		if v, ok := r.Output[0].Values[f]; !ok || v != nil {
			t.Errorf("%s over nulls = %v (present %v), want null", f, v, ok)
		}
	}
}

func TestNonFinite(t *testing.T) {
	for _, f := range []string{"price / 0", "price % 0", "0 / 0", "price / (change + 3)", "1e308 * 10", "-1e308 - 1e308"} {
		v, kept := eval(t, f, sample())
		if !kept || v != nil {
			t.Errorf("%s = %v (kept %v), want null", f, v, kept)
		}
	}
	if _, kept := eval(t, "price / 0 > 1", sample()); kept {
		t.Error("price / 0 > 1 kept the row")
	}
	q := sample()
	q.IVHVRatio = q.IV30 / 0 // a simulator's +Inf is null, not an unencodable number
	if v, _ := eval(t, "iv_hv_ratio", q); v != nil {
		t.Errorf("iv_hv_ratio of +Inf = %v", v)
	}
}

func TestSortNullsLast(t *testing.T) {
	mk := func(sym, sector string, pcr *float64) Quote {
		q := sample()
		q.Symbol, q.Sector, q.PutCallRatio = sym, sector, pcr
		return q
	}
	rows := []Quote{
		mk("E", "B", nil), mk("D", "A", ptr(1.0)), mk("C", "B", ptr(2.0)),
		mk("B", "A", nil), mk("A", "A", ptr(1.0)), mk("F", "B", ptr(3.0)),
	}
	for _, c := range []struct {
		params []api.ScanFieldParam
		want   string
	}{
		{[]api.ScanFieldParam{{Formula: "sector", Sort: api.SortAsc}, {Formula: "put_call_ratio", Sort: api.SortDesc}}, "ADBFCE"},
		{[]api.ScanFieldParam{{Formula: "sector", Sort: api.SortDesc}, {Formula: "put_call_ratio", Sort: api.SortAsc}}, "CFEADB"},
		{[]api.ScanFieldParam{{Formula: "put_call_ratio", Sort: api.SortAsc}, {Formula: "sector", Sort: api.SortNone}}, "ADCFBE"},
		{[]api.ScanFieldParam{{Formula: "put_call_ratio", Sort: api.SortDesc}}, "FCADBE"},
		{[]api.ScanFieldParam{{Formula: "put_call_ratio"}}, "ABCDEF"},
	} {
		s, err := Compile(c.params)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range s.Run(rows, true, when).Output {
			got += r.Symbol
		}
		if got != c.want {
			t.Errorf("%+v: order %s, want %s", c.params, got, c.want)
		}
	}
}

func TestTopAndAll(t *testing.T) {
	rows := universe(110)
	s, err := Compile(fields("price"))
	if err != nil {
		t.Fatal(err)
	}
	top := s.Run(rows, false, when).Output
	if len(top) != TopResults || top[0].Symbol != "S000" || top[19].Symbol != "S019" {
		t.Errorf("top: %d rows, %s..%s; want 20, S000..S019", len(top), top[0].Symbol, top[len(top)-1].Symbol)
	}
	if all := s.Run(rows, true, when).Output; len(all) != 110 {
		t.Errorf("all: %d rows, want 110", len(all))
	}
	s, _ = Compile([]api.ScanFieldParam{{Formula: "iv30", Sort: api.SortDesc}, {Formula: "iv30 > 50"}})
	if few := s.Run(rows, false, when).Output; len(few) == 0 || len(few) >= TopResults {
		t.Errorf("filtered top: %d rows", len(few))
	}
}

func TestIncludeAndKeys(t *testing.T) {
	rows := universe(110)
	bySymbol := map[string]Quote{}
	for _, q := range rows {
		bySymbol[q.Symbol] = q
	}
	params := []api.ScanFieldParam{
		{Formula: "iv30 > 30", IncludeInResultset: ptr(false)},
		{Formula: "price", DisplayName: "Px", Sort: api.SortAsc},
		{Formula: "iv30 * 2"},
		{Formula: `sector == "Energy"`, IncludeInResultset: ptr(true)},
	}
	s, err := Compile(params)
	if err != nil {
		t.Fatal(err)
	}
	out := s.Run(rows, true, when).Output
	if len(out) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range out {
		q := bySymbol[r.Symbol]
		if q.IV30 <= 30 || q.Sector != "Energy" || r.CompanyName != q.CompanyName {
			t.Errorf("%s kept with iv30 %v, sector %s", r.Symbol, q.IV30, q.Sector)
		}
		want := map[string]any{"Px": q.Price, "iv30 * 2": q.IV30 * 2, `sector == "Energy"`: true}
		if !reflect.DeepEqual(r.Values, want) {
			t.Errorf("%s values %v, want %v", r.Symbol, r.Values, want)
		}
	}
}

func TestResultShape(t *testing.T) {
	params := []api.ScanFieldParam{{Formula: "price > 1e9", DisplayName: "rich", Sort: api.SortNone}}
	s, err := Compile(params)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Run(universe(5), false, when)
	if r.LastUpdated != "2026-11-20T10:04:05-05:00" {
		t.Errorf("last_updated %s, want Eastern RFC 3339", r.LastUpdated)
	}
	b, _ := json.Marshal(r)
	if want := `{"last_updated":"2026-11-20T10:04:05-05:00","inputs":[{"formula":"price \u003e 1e9","display_name":"rich","sort":"none"}],"output":[]}`; string(b) != want {
		t.Errorf("JSON %s\nwant %s", b, want)
	}
	r.Inputs[0].Formula = "changed"
	if again := s.Run(nil, false, when); again.Inputs[0].Formula != "price > 1e9" {
		t.Error("a result's inputs share the scan's")
	}
}

func TestDeterministic(t *testing.T) {
	params := []api.ScanFieldParam{
		{Formula: "sector", Sort: api.SortAsc}, {Formula: "put_call_ratio", Sort: api.SortDesc},
		{Formula: "volume > 2000"}, {Formula: "price / iv30", DisplayName: "ratio"},
	}
	s, err := Compile(params)
	if err != nil {
		t.Fatal(err)
	}
	rows := universe(110)
	first, _ := json.Marshal(s.Run(rows, true, when))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5; i++ {
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		s2, _ := Compile(params)
		if b, _ := json.Marshal(s2.Run(rows, true, when)); string(b) != string(first) {
			t.Fatalf("run %d over shuffled rows differs", i)
		}
	}
}

func TestConcurrent(t *testing.T) {
	c := NewCompiler(8)
	rows := universe(110)
	var wg sync.WaitGroup
	results := make([]string, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				s, err := c.Compile(fields("iv30 > 20", "price * 2", fmt.Sprintf("volume + %d", i%10)))
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := json.Marshal(s.Run(rows, false, when))
				results[g] = string(b)
			}
		}()
	}
	wg.Wait()
	for _, r := range results[1:] {
		if r != results[0] {
			t.Fatal("concurrent runs differ")
		}
	}
}
