package config_test

import (
	"fmt"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/scan"
)

const scansConfig = `
symbol = "SPY"

[[scan]]
name = "  High IV "
description = "iv30 over 40"
  [[scan.field]]
  formula = "iv30 > 40"
  include_in_resultset = false
  [[scan.field]]
  formula = "iv30"
  display_name = "IV30"
  sort = "DESC"

[[scan]]
name = "everything"
all_results = true
  [[scan.field]]
  formula = "price"
  sort = ""
`

func TestConfigScans(t *testing.T) {
	path := configtest.Write(t, t.TempDir(), scansConfig, 0o600)
	fc, _, err := config.Load(path, true, scan.CheckSaved)
	if err != nil {
		t.Fatal(err)
	}
	got := fc.SavedScans()
	want := []config.SavedScan{
		{Name: "High IV", Description: "iv30 over 40", Fields: []api.ScanFieldParam{
			{Formula: "iv30 > 40", IncludeInResultset: api.Ptr(false), Sort: api.SortNone},
			{Formula: "iv30", DisplayName: "IV30", Sort: api.SortDesc},
		}},
		{Name: "everything", AllResults: true, Fields: []api.ScanFieldParam{{Formula: "price", Sort: api.SortNone}}},
	}
	if fmt.Sprintf("%+v", deref(got)) != fmt.Sprintf("%+v", deref(want)) {
		t.Fatalf("got  %+v\nwant %+v", deref(got), deref(want))
	}
	var scans []scan.Scan
	for _, c := range got {
		scans = append(scans, scan.FromSaved(c))
	}
	if s, ok := scan.Find(scans, "HIGH iv"); !ok || s.Preset || s.Fields[1].Sort != api.SortDesc {
		t.Fatalf("FindScan: %+v %v", s, ok)
	}
}

// deref prints include flags by value, for comparing scans as text.
func deref(scans []config.SavedScan) []string {
	var out []string
	for _, s := range scans {
		line := fmt.Sprintf("%q %q all=%v:", s.Name, s.Description, s.AllResults)
		for _, f := range s.Fields {
			inc := "default"
			if f.IncludeInResultset != nil {
				inc = fmt.Sprint(*f.IncludeInResultset)
			}
			line += fmt.Sprintf(" [%q %q %s %q]", f.Formula, f.DisplayName, inc, f.Sort)
		}
		out = append(out, line)
	}
	return out
}

func TestConfigScanErrors(t *testing.T) {
	field := "  [[scan.field]]\n  formula = \"iv30\"\n"
	var many strings.Builder
	many.WriteString("[[scan]]\nname = \"many\"\n")
	for i := range 51 {
		fmt.Fprintf(&many, "  [[scan.field]]\n  formula = \"iv30 + %d\"\n", i)
	}
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"no name", "[[scan]]\n" + field, []string{"[[scan]] number 1: name is required"}},
		{"blank name", "[[scan]]\nname = \"a\"\n" + field + "[[scan]]\nname = \"  \"\n" + field, []string{"[[scan]] number 2: name is required"}},
		{"duplicate", "[[scan]]\nname = \"High IV\"\n" + field + "[[scan]]\nname = \"high iv\"\n" + field,
			[]string{`[[scan]] "high iv": the name is already used by [[scan]] "High IV"`, "without regard to case"}},
		{"no fields", "[[scan]]\nname = \"x\"\n", []string{`[[scan]] "x": needs at least one [[scan.field]]`}},
		{"too many fields", many.String(), []string{`[[scan]] "many": has 51 [[scan.field]] tables; a scan takes at most 50`}},
		{"empty formula", "[[scan]]\nname = \"x\"\n" + field + "  [[scan.field]]\n  formula = \" \"\n", []string{`[[scan]] "x": field 2: formula is required`}},
		{"long formula", "[[scan]]\nname = \"x\"\n  [[scan.field]]\n  formula = \"" + strings.Repeat("1+", 500) + "1\"\n",
			[]string{`[[scan]] "x": field 1: formula must be at most 1000 characters, not 1001`}},
		{"sort", "[[scan]]\nname = \"x\"\n  [[scan.field]]\n  formula = \"iv30\"\n  sort = \"up\"\n", []string{`[[scan]] "x": field 1: sort "up": want asc, desc or none`}},
		{"same output name", "[[scan]]\nname = \"x\"\n" + field + field, []string{`[[scan]] "x": the name of formula 2`, "already the name of formula 1"}},
		{"multi-line name", "[[scan]]\nname = \"a\\nb\"\n" + field, []string{"name must be one line"}},
		{"unknown key", "[[scan]]\nname = \"x\"\n  [[scan.field]]\n  formual = \"iv30\"\n", []string{"unknown key scan.field.formual", "scan.field.formula"}},
		{"wrong type", "[[scan]]\nname = \"x\"\nall_results = \"yes\"\n" + field, []string{"scan.all_results", "wrong type"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configtest.Write(t, t.TempDir(), tc.body, 0o600)
			_, _, err := config.Load(path, true, scan.CheckSaved)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), path) {
				t.Errorf("%q does not start with the file's path", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
}
