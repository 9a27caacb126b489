package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Every params struct of this package follows one pattern: string fields hold
// dates and times in the wire format (so what the user typed is what is sent),
// optional numbers are pointers (nil is absent; see Ptr), Mode picks the path
// (empty is the client's default), Validate reports every broken rule before
// anything is sent, and query writes only the parameters that are set.

// OptionQuotesParams asks for an option chain snapshot with its underlying
// (option-and-underlying-quotes).
type OptionQuotesParams struct {
	Symbol     string     // symbol: the underlying; required
	Date       string     // date, yyyy-MM-dd, from EarliestDate; required; before today is an end-of-day snapshot
	Root       string     // root: one option root of the underlying, e.g. SPXW
	OptionType OptionType // option_type: Call or Put; empty for both
	MinExpiry  string     // min_expiry, yyyy-MM-dd
	MaxExpiry  string     // max_expiry, yyyy-MM-dd
	MinStrike  *float64   // min_strike, at least 0.01
	MaxStrike  *float64   // max_strike, at least 0.01
	Mode       Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
func (p OptionQuotesParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	r.symbol("symbol", p.Symbol)
	r.date("date", p.Date, true, EarliestDate)
	r.root("root", p.Root)
	oneOf(&r, "option_type", p.OptionType, Call, Put)
	lo := r.date("min_expiry", p.MinExpiry, false, 0)
	hi := r.date("max_expiry", p.MaxExpiry, false, 0)
	inOrder(&r, "min_expiry", "max_expiry", lo, hi, lo != 0 && hi != 0)
	loS, okLo := r.floatMin("min_strike", p.MinStrike, 0.01)
	hiS, okHi := r.floatMin("max_strike", p.MaxStrike, 0.01)
	inOrder(&r, "min_strike", "max_strike", loS, hiS, okLo && okHi)
	return r.err()
}

func (p OptionQuotesParams) query() url.Values {
	q := url.Values{}
	setString(q, "symbol", p.Symbol)
	setString(q, "date", p.Date)
	setString(q, "root", p.Root)
	setString(q, "option_type", string(p.OptionType))
	setString(q, "min_expiry", p.MinExpiry)
	setString(q, "max_expiry", p.MaxExpiry)
	setFloat(q, "min_strike", p.MinStrike)
	setFloat(q, "max_strike", p.MaxStrike)
	return q
}

func (p OptionQuotesParams) date() Date { return parsedDate(p.Date) }

// UnderlyingQuotesParams asks for quote snapshots of several underlyings
// (underlying-quotes).
type UnderlyingQuotesParams struct {
	Symbols []string // symbols, sent comma-separated; at least one
	Date    string   // date, yyyy-MM-dd, from 2011-01-01; required
	SeqNo   *int64   // seq_no, at least 0
	Mode    Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
func (p UnderlyingQuotesParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	r.symbolList("symbols", p.Symbols)
	r.date("date", p.Date, true, underlyingQuotesFrom)
	intRange(&r, "seq_no", p.SeqNo, 0, math.MaxInt64)
	return r.err()
}

func (p UnderlyingQuotesParams) query() url.Values {
	q := url.Values{}
	setString(q, "symbols", strings.Join(p.Symbols, ","))
	setString(q, "date", p.Date)
	setInt(q, "seq_no", p.SeqNo)
	return q
}

func (p UnderlyingQuotesParams) date() Date { return parsedDate(p.Date) }

// symbolList checks a required list of symbols, each on its own, because
// one bad entry (a space, a comma) would silently change the whole list.
func (r *rules) symbolList(param string, symbols []string) {
	if len(symbols) == 0 {
		r.add(param, "is required: at least one symbol")
		return
	}
	for i, s := range symbols {
		if s == "" {
			r.add(param, "entry %d is empty", i+1)
		} else if problem := symbolProblem(s); problem != "" {
			r.add(param, "%q %s", truncate(s, 40), problem)
		}
	}
}

// The calendar's special values of symbols, each to be used alone.
const (
	AllSymbols           = "all_symbols"
	AllOptionableSymbols = "all_optionable_symbols"
)

// CalendarParams asks for earnings and dividend events (calendar).
type CalendarParams struct {
	Symbols   []string  // symbols in the path; or exactly one of AllSymbols, AllOptionableSymbols
	EventType EventType // event_type; empty is the server's default, all
	StartDate string    // start_date, yyyy-MM-dd; the server's default is EarliestDate
	EndDate   string    // end_date, yyyy-MM-dd, from EarliestDate; the server's default is 2100-01-01
	Mode      Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
func (p CalendarParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	special := ""
	for _, s := range p.Symbols {
		if s == AllSymbols || s == AllOptionableSymbols {
			special = s
		}
	}
	switch {
	case special != "" && len(p.Symbols) > 1:
		r.add("symbols", "%s must be the only entry", special)
	case special == "":
		r.symbolList("symbols", p.Symbols)
	}
	oneOf(&r, "event_type", p.EventType, EventsAll, EventsEarnings, EventsDividends)
	// A range that starts before the data still reaches it; one that ends
	// before it can only come back empty.
	lo := r.date("start_date", p.StartDate, false, 0)
	hi := r.date("end_date", p.EndDate, false, EarliestDate)
	inOrder(&r, "start_date", "end_date", lo, hi, lo != 0 && hi != 0)
	return r.err()
}

func (p CalendarParams) query() url.Values {
	q := url.Values{}
	setString(q, "event_type", string(p.EventType))
	setString(q, "start_date", p.StartDate)
	setString(q, "end_date", p.EndDate)
	return q
}

// pathSymbols is the {symbols} path segment: each symbol escaped (BRK/B
// holds a slash), joined by plain commas as the spec writes the list, since
// a strict server or proxy may not take %2C for a separator.
func (p CalendarParams) pathSymbols() string {
	esc := make([]string, len(p.Symbols))
	for i, sym := range p.Symbols {
		esc[i] = url.PathEscape(sym)
	}
	return strings.Join(esc, ",") // a literal comma, as the spec writes the list
}

// date is 0: the calendar costs the same in every mode and has no snapshot day.
func (p CalendarParams) date() Date { return 0 }

// ScanParams is a custom scan (custom-scanner, a POST).
type ScanParams struct {
	Fields     []ScanFieldParam // the body: 1 to 50 formulas
	AllResults bool             // all_results: every row rather than the top 20 (costs five times more)
	Mode       Mode
}

// Validate returns nil, or every broken rule joined (each a *ValidationError).
// A field is named by its zero-based index, as in fields[2].formula.
//
// Output rows are keyed by display name (or the formula when there is none),
// so two returned fields with one key would overwrite each other's values in
// every row; that is refused here rather than discovered in the results.
func (p ScanParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	switch {
	case len(p.Fields) == 0:
		r.add("fields", "is required: at least one field")
	case len(p.Fields) > MaxScanFields:
		r.add("fields", "must have at most %d entries, not %d", MaxScanFields, len(p.Fields))
	}
	keys := make(map[string]int, len(p.Fields))
	for i, f := range p.Fields {
		name := fmt.Sprintf("fields[%d]", i)
		switch n := utf8.RuneCountInString(f.Formula); {
		case strings.TrimSpace(f.Formula) == "":
			r.add(name+".formula", "is required")
		case n > MaxFormulaLength:
			r.add(name+".formula", "must be at most %d characters, not %d", MaxFormulaLength, n)
		}
		oneOf(&r, name+".sort", f.Sort, SortAsc, SortDesc, SortNone)
		if !f.Included() || f.Key() == "" {
			continue
		}
		if j, dup := keys[f.Key()]; dup {
			if f.DisplayName != "" {
				r.add(name+".display_name", "%q is already the name of fields[%d]", truncate(f.DisplayName, 40), j)
			} else {
				r.add(name+".display_name", "is required: the formula %q is already the name of fields[%d]", truncate(f.Formula, 40), j)
			}
			continue
		}
		keys[f.Key()] = i
	}
	return r.err()
}

func (p ScanParams) query() url.Values {
	q := url.Values{}
	if p.AllResults {
		q.Set("all_results", "true")
	}
	return q
}

// date is 0: the scanner has no date parameter; it is live or delayed only.
func (p ScanParams) date() Date { return 0 }

// scanParamsXML is the XML body: root scan_params, one scan_param per field.
type scanParamsXML struct {
	XMLName xml.Name         `xml:"scan_params"`
	Fields  []ScanFieldParam `xml:"scan_param"`
}

// body encodes the fields as the request body in format f.
func (p ScanParams) body(f Format) ([]byte, error) {
	fields := p.Fields
	if fields == nil {
		fields = []ScanFieldParam{} // [] rather than null
	}
	if f == XML {
		var buf bytes.Buffer
		buf.WriteString(xml.Header)
		if err := xml.NewEncoder(&buf).Encode(scanParamsXML{Fields: fields}); err != nil {
			return nil, fmt.Errorf("encoding scan params as XML: %w", err)
		}
		return buf.Bytes(), nil
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encoding scan params as JSON: %w", err)
	}
	return b, nil
}

// ReferenceParams asks for a reference table (exchanges, message conditions),
// which takes no parameter but the mode.
type ReferenceParams struct {
	Mode Mode
}

// Validate returns nil, or the broken rule (a *ValidationError).
func (p ReferenceParams) Validate() error {
	var r rules
	r.mode(p.Mode)
	return r.err()
}

func (p ReferenceParams) query() url.Values { return url.Values{} }

func (p ReferenceParams) date() Date { return 0 }
