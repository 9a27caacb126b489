package scan_test

import (
	"chainwatch/scan"
	"errors"
	"slices"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	sbscan "chainwatch/sandbox/scan"
)

// startScanSandbox starts a sandbox with cfg on the tests' stopped clock
// and returns a client of it (no retries, so a 429 comes back at once).
func startScanSandbox(t *testing.T, cfg sandbox.Config) *api.Client {
	t.Helper()
	return modeltest.StartSandbox(t, cfg, api.WithRetryPolicy(api.RetryPolicy{MaxAttempts: 1}))
}

// TestPresets: every preset is checked by the grammar against the
// scanner metadata, is a request the client accepts, and returns rows
// from the sandbox in the order it asks for.
func TestPresets(t *testing.T) {
	g := api.NewGrammar(sbscan.Metadata().Fields)
	c := modeltest.StartSandbox(t, sandbox.Config{})
	presets := scan.Presets()
	if len(presets) < 4 || len(presets) > 6 {
		t.Fatalf("%d presets, want 4 to 6", len(presets))
	}
	names := map[string]bool{}
	for _, p := range presets {
		t.Run(p.Name, func(t *testing.T) {
			if !p.Preset || p.Description == "" || strings.ContainsAny(p.Description, "\n\r") || names[strings.ToLower(p.Name)] {
				t.Fatalf("preset %+v: want Preset, a one-line description and a unique name", p)
			}
			names[strings.ToLower(p.Name)] = true
			sorted := -1
			for i, f := range p.Fields {
				info, err := g.Check(f.Formula)
				if err != nil {
					t.Fatalf("formula %q: %v", f.Formula, err)
				}
				if info.Kind == api.FormulaBool && f.Included() {
					t.Errorf("filter %q is a column of true on every row", f.Formula)
				}
				if info.Kind != api.FormulaBool && f.DisplayName == "" {
					t.Errorf("column %q has no display name", f.Formula)
				}
				if sorted < 0 && (f.Sort == api.SortAsc || f.Sort == api.SortDesc) {
					sorted = i
				}
			}
			if sorted < 0 {
				t.Fatal("the preset does not sort: the top 20 would be any 20")
			}
			if err := p.Params(api.Live).Validate(); err != nil {
				t.Fatal(err)
			}
			out, err := scan.Run(t.Context(), c, g, p, api.Live, modeltest.Now)
			if err != nil {
				t.Fatal(err)
			}
			if out.Rows() == 0 || out.Resp == nil || out.Resp.Cost != 30 || !slices.Equal(out.Columns, p.Columns()) || !out.At.Equal(modeltest.Now) {
				t.Fatalf("%d rows, resp %+v, columns %v", out.Rows(), out.Resp, out.Columns)
			}
			key, desc := p.Fields[sorted].Key(), p.Fields[sorted].Sort == api.SortDesc
			for i, r := range out.Result.Output {
				for _, col := range out.Columns {
					if _, ok := r.Values[col]; !ok {
						t.Fatalf("row %s has no %q", r.Symbol, col)
					}
				}
				if i == 0 {
					continue
				}
				prev, cur := out.Result.Output[i-1].Values[key], r.Values[key]
				switch {
				case prev == nil && cur != nil:
					t.Fatalf("a null %s before a value", key) // nulls last
				case prev == nil || cur == nil:
				case desc && less(prev, cur), !desc && less(cur, prev):
					t.Fatalf("rows out of order by %s: %v then %v", key, prev, cur)
				}
			}
		})
	}
}

func less(a, b any) bool {
	switch a := a.(type) {
	case float64:
		bf, _ := b.(float64)
		return a < bf
	case string:
		bs, _ := b.(string)
		return a < bs
	}
	return false
}

func TestScanCostParamsColumns(t *testing.T) {
	s := scan.Scan{Fields: []api.ScanFieldParam{
		{Formula: "iv30 > 40", IncludeInResultset: api.Ptr(false)},
		{Formula: "iv30", DisplayName: "IV30", Sort: api.SortDesc},
		{Formula: "price"},
	}}
	if got := [4]int{s.Cost(api.Live), s.Cost(api.Delayed), scan.Scan{AllResults: true}.Cost(api.Live), scan.Scan{AllResults: true}.Cost(api.Delayed)}; got != [4]int{30, 50, 150, 250} {
		t.Fatalf("costs %v", got)
	}
	if cols := s.Columns(); !slices.Equal(cols, []string{"IV30", "price"}) {
		t.Fatalf("columns %v", cols)
	}
	p := s.Params(api.Delayed)
	p.Fields[1].Formula = "changed"
	if s.Fields[1].Formula != "iv30" || p.Mode != api.Delayed || p.AllResults {
		t.Fatalf("params share the scan's fields or lost the mode: %+v", p)
	}
	c := s.Clone()
	*c.Fields[0].IncludeInResultset = true
	if s.Fields[0].Included() {
		t.Fatal("Clone shares the include flag")
	}
}

func TestFindScan(t *testing.T) {
	saved := []scan.Scan{{Name: "Mine", Fields: []api.ScanFieldParam{{Formula: "iv30"}}}, {Name: "high iv", Fields: []api.ScanFieldParam{{Formula: "hv30"}}}}
	if s, ok := scan.Find(saved, "  MINE "); !ok || s.Name != "Mine" || s.Preset {
		t.Fatalf("saved: %+v %v", s, ok)
	}
	// A saved scan of a preset's name is the one the user means.
	if s, ok := scan.Find(saved, "High IV"); !ok || s.Preset || s.Fields[0].Formula != "hv30" {
		t.Fatalf("shadowed preset: %+v %v", s, ok)
	}
	if s, ok := scan.Find(nil, "high iv"); !ok || !s.Preset || s.Name != "High IV" {
		t.Fatalf("preset: %+v %v", s, ok)
	}
	if _, ok := scan.Find(saved, "nope"); ok {
		t.Fatal("found a scan that does not exist")
	}
	if _, ok := scan.Find(saved, " "); ok {
		t.Fatal("found a scan without a name")
	}
	s, _ := scan.Find(saved, "mine")
	s.Fields[0].Formula = "x"
	if saved[0].Fields[0].Formula != "iv30" {
		t.Fatal("Find returned the saved scan's own fields")
	}
}

// TestRunScanChecksFirst: a formula the grammar refuses is a FormulaError
// and no request; without a grammar the service's 400 says the same. A
// scan without rows is not an error.
func TestRunScanChecksFirst(t *testing.T) {
	c := modeltest.StartSandbox(t, sandbox.Config{})
	g := api.NewGrammar(sbscan.Metadata().Fields)
	s := scan.Scan{Fields: []api.ScanFieldParam{{Formula: "iv30 > 40"}, {Formula: "iv31 > 4"}}}
	out, err := scan.Run(t.Context(), c, g, s, api.Live, modeltest.Now)
	var fe *scan.FormulaError
	if !errors.As(err, &fe) || fe.Index != 1 || out.Resp != nil || out.Result != nil {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if want := `formula 2 "iv31 > 4": unknown field iv31; did you mean iv30?`; err.Error() != want {
		t.Fatalf("%q, want %q", err, want)
	}
	_, err = scan.Run(t.Context(), c, nil, s, api.Live, modeltest.Now)
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 {
		t.Fatalf("without a grammar: %v", err)
	}
	if msg, field := scan.DescribeError(err, s); field != 1 || !strings.Contains(msg, "unknown field iv31") {
		t.Fatalf("%q %d", msg, field)
	}

	// A scan that matches nothing is a success without rows, and was
	// charged; an empty mode is the client's.
	none := scan.Scan{Fields: []api.ScanFieldParam{{Formula: "iv30 > 1000"}, {Formula: "iv30"}}}
	out, err = scan.Run(t.Context(), c, g, none, "", modeltest.Now)
	if err != nil || out.Result == nil || out.Result.Output != nil || out.Rows() != 0 || out.Mode != api.Live || out.Resp.Cost != 30 {
		t.Fatalf("no rows: err %v, outcome %+v", err, out)
	}
}

// TestRunFilterNotAColumn: a filter returned with the results (a typed
// formula keeps in-results on by default) is no column of the outcome,
// whether the grammar tells it (the modal, `chainwatch scan`) or only the
// rows' booleans do (no field list: alerts' runs); the table shows the
// values, and no cell reads "yes".
func TestRunFilterNotAColumn(t *testing.T) {
	c := modeltest.StartSandbox(t, sandbox.Config{})
	s := scan.Scan{Fields: []api.ScanFieldParam{
		{Formula: "iv30 > 40"},
		{Formula: "iv30", Sort: api.SortDesc},
		{Formula: "sector != \"Energy\"", DisplayName: "not energy"},
		{Formula: "price"},
	}}
	for _, g := range []*api.Grammar{api.NewGrammar(sbscan.Metadata().Fields), nil} {
		out, err := scan.Run(t.Context(), c, g, s, api.Live, modeltest.Now)
		if err != nil {
			t.Fatal(err)
		}
		if out.Rows() == 0 || !slices.Equal(out.Columns, []string{"iv30", "price"}) {
			t.Fatalf("grammar %v: %d rows, columns %q", g != nil, out.Rows(), out.Columns)
		}
		if v, ok := out.Result.Output[0].Values["iv30 > 40"]; v != true || !ok {
			t.Fatalf("the service no longer returns the filter (%v): the test proves nothing", v)
		}
		tb := out.Table()
		if !slices.Equal(tb.Titles, []string{"Symbol", "Company", "iv30", "price"}) {
			t.Fatalf("titles %q", tb.Titles)
		}
		for _, r := range tb.Rows {
			if slices.Contains(r, "yes") {
				t.Fatalf("row %q", r)
			}
		}
	}
}

// TestValueColumns: a returned boolean column of rows is a filter without
// a grammar; with no rows and no grammar nothing tells, and it stays.
func TestValueColumns(t *testing.T) {
	s := scan.Scan{Fields: []api.ScanFieldParam{{Formula: "a > 1"}, {Formula: "b"}, {Formula: "c > 2", IncludeInResultset: api.Ptr(false)}}}
	rows := []api.ScanRow{{Symbol: "X", Values: map[string]any{"a > 1": true, "b": 2.0}}, {Symbol: "Y", Values: map[string]any{"a > 1": true, "b": nil}}}
	if got := scan.ValueColumns(s, nil, rows); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("with rows: %q", got)
	}
	if got := scan.ValueColumns(s, nil, nil); !slices.Equal(got, []string{"a > 1", "b"}) {
		t.Fatalf("no rows: %q", got)
	}
	mixed := []api.ScanRow{{Values: map[string]any{"a > 1": true, "b": true}}, {Values: map[string]any{"a > 1": "yes", "b": 1.0}}}
	if got := scan.ValueColumns(s, nil, mixed); !slices.Equal(got, []string{"a > 1", "b"}) {
		t.Fatalf("mixed: %q", got)
	}
}
