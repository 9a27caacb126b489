package api

import (
	"encoding/json"
	"fmt"
	"time"
)

// SortOrder orders scan rows by a column.
type SortOrder string

// The scanner's sort orders.
const (
	SortNone SortOrder = "none"
	SortAsc  SortOrder = "asc"
	SortDesc SortOrder = "desc"
)

// ScanFieldParam is one formula of a custom scan. XML: scan_params/scan_param.
type ScanFieldParam struct {
	Formula     string `json:"formula" xml:"formula"`
	DisplayName string `json:"display_name,omitempty" xml:"display_name,omitempty"`
	// IncludeInResultset defaults to true when nil.
	IncludeInResultset *bool     `json:"include_in_resultset,omitempty" xml:"include_in_resultset,omitempty"`
	Sort               SortOrder `json:"sort,omitempty" xml:"sort,omitempty"`
}

// Included reports whether the field is returned (the default is yes).
func (p ScanFieldParam) Included() bool { return p.IncludeInResultset == nil || *p.IncludeInResultset }

// Key is the name under which the field's value appears in output rows: its
// display name, or the formula when that is empty.
func (p ScanFieldParam) Key() string {
	if p.DisplayName != "" {
		return p.DisplayName
	}
	return p.Formula
}

// ScanResult is the custom scanner's answer. XML root: scan_result.
type ScanResult struct {
	LastUpdated string           `json:"last_updated"`
	Inputs      []ScanFieldParam `json:"inputs"`
	Output      []ScanRow        `json:"output"`
}

// LastUpdatedTime parses LastUpdated, which the spec calls a date-time
// string: RFC 3339, or a local Eastern date-time without zone.
func (r ScanResult) LastUpdatedTime() (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, r.LastUpdated, Eastern); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ScanRow is one output row: the symbol, its company name, and one value per
// returned field keyed by ScanFieldParam.Key. A value is a float64, a string,
// a bool or nil (null).
type ScanRow struct {
	Symbol      string
	CompanyName string
	Values      map[string]any
}

// UnmarshalJSON reads a flat output object.
func (r *ScanRow) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if m == nil {
		return fmt.Errorf("scan row is not an object")
	}
	r.Symbol, _ = m["symbol"].(string)
	r.CompanyName, _ = m["company_name"].(string)
	delete(m, "symbol")
	delete(m, "company_name")
	r.Values = m
	return nil
}

// MarshalJSON writes a flat output object.
func (r ScanRow) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(r.Values)+2)
	for k, v := range r.Values {
		m[k] = v
	}
	m["symbol"] = r.Symbol
	m["company_name"] = r.CompanyName
	return json.Marshal(m)
}

// Number returns the row's value for key as a number, if it is one.
func (r ScanRow) Number(key string) (float64, bool) {
	v, ok := r.Values[key].(float64)
	return v, ok
}

// ScannerMetadata lists what formulas may use. XML root: scans_metadata.
type ScannerMetadata struct {
	Fields    []ScanField    `json:"fields" xml:"fields>field"`
	Operators []ScanOperator `json:"operators" xml:"operators>operator"`
}

// ScanField is a field a formula may name (case sensitive).
type ScanField struct {
	Name           string `json:"name" xml:"name"`
	DisplayName    string `json:"display_name" xml:"display_name"`
	Description    string `json:"description" xml:"description"`
	Category       string `json:"category" xml:"category"`
	DataType       string `json:"data_type" xml:"data_type"`
	MayContainNull bool   `json:"may_contain_null" xml:"may_contain_null"`
}

// ScanOperator is an operator of the formula grammar.
type ScanOperator struct {
	Operator    string `json:"operator" xml:"operator"`
	Description string `json:"description" xml:"description"`
}
