package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/text"
)

// ScanRule checks a saved scan against the client's own rules for a scan
// (two returned fields with one output key, say), in the words the screen
// uses when the scan is run. Package scan owns those rules
// (scan.CheckSaved); config cannot import scan, which reads config's
// defaults. A nil rule checks only the file's own structure.
type ScanRule func(SavedScan) error

// ScanTable is one [[scan]] table of the config file: a saved scan, as
// the modal saves it and `chainwatch scan --name` runs it.
//
//	[[scan]]
//	name = "High IV"
//	description = "optional"
//	all_results = false
//	  [[scan.field]]
//	  formula = "iv30 > 40"
//	  display_name = ""           # optional
//	  include_in_resultset = true # optional, default true
//	  sort = "none"               # optional: asc, desc, none
type ScanTable struct {
	Name        string       `toml:"name"`
	Description string       `toml:"description"`
	AllResults  bool         `toml:"all_results"`
	Fields      []FieldTable `toml:"field"`
}

// FieldTable is one [[scan.field]]: a api.ScanFieldParam. The
// include flag is a pointer so that leaving it out means the service's
// default (true), as on the wire.
type FieldTable struct {
	Formula            string `toml:"formula"`
	DisplayName        string `toml:"display_name"`
	IncludeInResultset *bool  `toml:"include_in_resultset"`
	Sort               string `toml:"sort"`
}

// maxScanName bounds a scan's name: it is a row of the modal's list and
// an argument of --name, not a paragraph.
const maxScanName = 60

// checkScans validates every [[scan]] (name required and unique without
// regard to case, 1 to 50 fields, a formula of at most 1,000 characters in
// each, a known sort), normalising as it goes, so a hand-edited file fails
// at start with a line that names the scan, instead of at the first run.
// The formulas' grammar is not checked here: that needs the service's
// field list, and the scan is checked against it before it is run.
func (fc *File) checkScans(rule ScanRule) error {
	seen := make(map[string]int, len(fc.Scans))
	for i := range fc.Scans {
		sc := &fc.Scans[i]
		if err := sc.check(rule); err != nil {
			return fmt.Errorf("%s: %w", scanLabel(i, sc.Name), err)
		}
		key := strings.ToLower(sc.Name)
		if j, dup := seen[key]; dup {
			return fmt.Errorf("%s: the name is already used by %s (names are compared without regard to case)",
				scanLabel(i, sc.Name), scanLabel(j, fc.Scans[j].Name))
		}
		seen[key] = i
	}
	return nil
}

// scanLabel names a [[scan]] in a message: by its name, or by its position
// when the name is what is wrong.
func scanLabel(i int, name string) string {
	if name = strings.TrimSpace(name); name == "" {
		return fmt.Sprintf("[[scan]] number %d", i+1)
	}
	return fmt.Sprintf("[[scan]] %q", clipName(name))
}

func clipName(s string) string {
	if r := []rune(s); len(r) > maxScanName {
		return string(r[:maxScanName]) + "…"
	}
	return s
}

// check validates and normalises one scan (trimmed name, lower-case sort).
func (sc *ScanTable) check(rule ScanRule) error {
	sc.Name = strings.TrimSpace(sc.Name)
	sc.Description = strings.TrimSpace(sc.Description)
	switch {
	case sc.Name == "":
		return errors.New("name is required")
	case utf8.RuneCountInString(sc.Name) > maxScanName:
		return fmt.Errorf("name must be at most %d characters", maxScanName)
	case strings.IndexFunc(sc.Name, unicode.IsControl) >= 0:
		return errors.New("name must be one line without control characters")
	case strings.IndexFunc(sc.Description, unicode.IsControl) >= 0:
		return errors.New("description must be one line without control characters")
	case len(sc.Fields) == 0:
		return errors.New("needs at least one [[scan.field]] with a formula")
	case len(sc.Fields) > api.MaxScanFields:
		return fmt.Errorf("has %d [[scan.field]] tables; a scan takes at most %d", len(sc.Fields), api.MaxScanFields)
	}
	for j := range sc.Fields {
		f := &sc.Fields[j]
		f.Sort = strings.ToLower(strings.TrimSpace(f.Sort))
		switch n := utf8.RuneCountInString(f.Formula); {
		case strings.TrimSpace(f.Formula) == "":
			return fmt.Errorf("field %d: formula is required", j+1)
		case n > api.MaxFormulaLength:
			return fmt.Errorf("field %d: formula must be at most %d characters, not %d", j+1, api.MaxFormulaLength, n)
		}
		switch api.SortOrder(f.Sort) {
		case "", api.SortAsc, api.SortDesc, api.SortNone:
		default:
			return fmt.Errorf("field %d: sort %s: want asc, desc or none", j+1, text.Quote(f.Sort))
		}
	}
	// The client's own rules (two returned fields with one output key,
	// say) with the same words as when the scan is run.
	if rule != nil {
		return rule(sc.saved())
	}
	return nil
}

// saved is the scan as the rest of chainwatch keeps it.
func (sc ScanTable) saved() SavedScan {
	s := SavedScan{Name: sc.Name, Description: sc.Description, AllResults: sc.AllResults,
		Fields: make([]api.ScanFieldParam, len(sc.Fields))}
	for i, f := range sc.Fields {
		p := api.ScanFieldParam{Formula: f.Formula, DisplayName: f.DisplayName, Sort: api.SortOrder(f.Sort)}
		if f.IncludeInResultset != nil {
			p.IncludeInResultset = api.Ptr(*f.IncludeInResultset)
		}
		if p.Sort == "" {
			p.Sort = api.SortNone
		}
		s.Fields[i] = p
	}
	return s
}

// SavedScans are the file's [[scan]] tables, in file order.
func (fc File) SavedScans() []SavedScan {
	out := make([]SavedScan, 0, len(fc.Scans))
	for _, sc := range fc.Scans {
		out = append(out, sc.saved())
	}
	return out
}
