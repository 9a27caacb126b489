package scan

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"chainwatch/api"
)

func TestParams(t *testing.T) {
	many := func(n int) []api.ScanFieldParam {
		p := make([]api.ScanFieldParam, n)
		for i := range p {
			p[i].Formula = fmt.Sprintf("price + %d", i)
		}
		return p
	}
	cases := []struct {
		name   string
		params []api.ScanFieldParam
		want   string // "" for valid
		client bool   // api.ScanParams.Validate refuses it too
	}{
		{"none", nil, "fields is required: at least one field", true},
		{"50", many(50), "", false},
		{"51", many(51), "fields must have at most 50 entries, not 51", true},
		{"blank", []api.ScanFieldParam{{Formula: " \t"}}, "fields[0].formula is required", true},
		{"sort", []api.ScanFieldParam{{Formula: "price"}, {Formula: "iv30", Sort: "up"}}, `fields[1].sort must be one of asc, desc, none, not "up"`, true},
		{"sort case", []api.ScanFieldParam{{Formula: "price", Sort: "ASC"}}, `fields[0].sort must be one of asc, desc, none, not "ASC"`, true},
		{"sorts", []api.ScanFieldParam{{Formula: "price", Sort: "asc"}, {Formula: "iv30", Sort: "desc"}, {Formula: "hv30", Sort: "none"}, {Formula: "volume"}}, "", false},
		{"dup display", []api.ScanFieldParam{{Formula: "price", DisplayName: "x"}, {Formula: "iv30", DisplayName: "x"}}, `fields[1].display_name "x" is already the name of fields[0]`, true},
		{"dup formula", []api.ScanFieldParam{{Formula: "price"}, {Formula: "price"}}, `fields[1].display_name is required: the formula "price" is already the name of fields[0]`, true},
		{"display = formula", []api.ScanFieldParam{{Formula: "price"}, {Formula: "iv30", DisplayName: "price"}}, `fields[1].display_name "price" is already the name of fields[0]`, true},
		{"dup hidden", []api.ScanFieldParam{{Formula: "price"}, {Formula: "price", IncludeInResultset: ptr(false)}}, "", false},
		{"reserved", []api.ScanFieldParam{{Formula: "price", DisplayName: "symbol"}}, `fields[0].display_name "symbol" is the name of every row's own symbol: choose another`, false},
		{"symbol itself", []api.ScanFieldParam{{Formula: "symbol"}, {Formula: "company_name"}}, "", false},
		{"too long", []api.ScanFieldParam{{Formula: strings.Repeat("1", 1001)}}, "fields[0].formula", true},
	}
	for _, c := range cases {
		_, err := Compile(c.params)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		var pe *ParamError
		var fe *FormulaError
		if err != nil && !errors.As(err, &pe) && !errors.As(err, &fe) {
			t.Errorf("%s: %T is neither a *ParamError nor a *FormulaError", c.name, err)
		}
		if clientErr := (api.ScanParams{Fields: c.params}).Validate(); (clientErr != nil) != c.client {
			t.Errorf("%s: the client's Validate says %v", c.name, clientErr)
		}
	}
}

func TestCompilerCache(t *testing.T) {
	c := NewCompiler(2)
	a, err := c.Compile(fields("price", "iv30 > 1"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Compile(fields("iv30 > 1", "price"))
	if a.cols[0].formula != b.cols[1].formula || a.cols[1].formula != b.cols[0].formula {
		t.Error("a formula compiled twice")
	}
	c.Compile(fields("hv30")) // evicts the oldest, price
	if len(c.cache) != 2 || c.cache["price"] != nil || c.cache["hv30"] == nil || c.cache["iv30 > 1"] == nil {
		t.Errorf("cache holds %v", c.cache)
	}
	if _, err := c.Compile(fields("iv31")); err == nil || len(c.cache) != 2 {
		t.Errorf("bad formula: %v, cache %d", err, len(c.cache))
	}
}

// TestCatalogue: one field per Quote field, each reading its own field.
func TestCatalogue(t *testing.T) {
	qt := reflect.TypeFor[Quote]()
	if qt.NumField() != len(catalogue) {
		t.Fatalf("%d Quote fields, %d catalogue fields", qt.NumField(), len(catalogue))
	}
	// Give every Quote field a distinct value; the catalogue must read
	// back all of them, each once.
	var q Quote
	v := reflect.ValueOf(&q).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprint("s", i))
		case reflect.Float64:
			f.SetFloat(float64(i))
		case reflect.Int64:
			f.SetInt(int64(i))
		}
	}
	seen := map[any]string{}
	for _, fd := range catalogue {
		val := fd.get(&q)
		if val == nil || seen[val] != "" {
			t.Errorf("%s reads %v, as does %q", fd.name, val, seen[val])
		}
		seen[val] = fd.name
	}
	for name, goName := range map[string]string{"iv30": "IV30", "high_52w": "High52", "put_call_ratio": "PutCallRatio", "days_to_earnings": "DaysToEarnings", "earnings_date": "EarningsDate"} {
		sf, _ := qt.FieldByName(goName)
		if got := byName[name].get(&q); got != float64(sf.Index[0]) && got != fmt.Sprint("s", sf.Index[0]) {
			t.Errorf("%s reads %v, not %s", name, got, goName)
		}
	}
}

func TestMetadata(t *testing.T) {
	m := Metadata()
	types := map[string]bool{"number": true, "integer": true, "string": true, "date": true}
	for i, f := range m.Fields {
		if f.Name == "" || f.DisplayName == "" || f.Description == "" || f.Category == "" || !types[f.DataType] {
			t.Errorf("field %d incomplete: %+v", i, f)
		}
		s, err := Compile(fields(f.Name))
		if err != nil {
			t.Errorf("%s does not compile: %v", f.Name, err)
			continue
		}
		v := s.Run([]Quote{nullQuote()}, false, when).Output[0].Values[f.Name]
		if (v == nil) != f.MayContainNull {
			t.Errorf("%s: value %v over the null quote, may_contain_null %v", f.Name, v, f.MayContainNull)
		}
	}
	listed := map[string]bool{}
	for _, o := range m.Operators {
		if o.Description == "" {
			t.Errorf("operator %s has no description", o.Operator)
		}
		listed[o.Operator] = true
	}
	for op := range allowedOperators {
		if op != "," && !listed[op] {
			t.Errorf("operator %s is not listed", op)
		}
	}
	for fn := range functions {
		if !listed[fn] {
			t.Errorf("function %s is not listed", fn)
		}
	}
	m.Fields[0].Name, m.Operators[0].Operator = "changed", "changed"
	if again := Metadata(); again.Fields[0].Name != "symbol" || again.Operators[0].Operator == "changed" {
		t.Error("Metadata shares its tables")
	}
}
