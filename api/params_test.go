package api

import (
	"errors"
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// paramCase edits a valid params struct; param is the parameter every
// resulting error must name ("" when the edit keeps it valid), rule a
// substring of the rule when the wording matters.
type paramCase[P any] struct {
	name  string
	edit  func(*P)
	param string
	rule  string
}

func runParamCases[P interface{ Validate() error }](t *testing.T, valid P, cases []paramCase[P]) {
	t.Helper()
	if err := valid.Validate(); err != nil {
		t.Fatalf("the base params do not validate: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := valid
			c.edit(&p)
			checkValidation(t, p.Validate(), c.param, c.rule)
		})
	}
}

// checkValidation checks that err is nil when param is "", and otherwise
// that errors.As finds a *ValidationError and every joined error names param.
func checkValidation(t *testing.T, err error, param, rule string) {
	t.Helper()
	if param == "" {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *ValidationError for %s, got %v", param, err)
	}
	all := validationErrors(err)
	for _, e := range all {
		if e.Param != param {
			t.Errorf("error names %s, want %s: %v", e.Param, param, e)
		}
		if !strings.HasPrefix(e.Error(), "api: invalid parameter "+param+": ") {
			t.Errorf("message %q does not name the parameter", e.Error())
		}
	}
	if rule != "" && !strings.Contains(err.Error(), rule) {
		t.Errorf("error %q does not say %q", err, rule)
	}
}

// validationErrors flattens errors.Join.
func validationErrors(err error) []*ValidationError {
	var out []*ValidationError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, validationErrors(e)...)
		}
		return out
	}
	var ve *ValidationError
	if errors.As(err, &ve) {
		out = append(out, ve)
	}
	return out
}

func checkQuery(t *testing.T, got url.Values, want url.Values) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("query\n got %v\nwant %v", got.Encode(), want.Encode())
	}
}

func TestValidationErrorMessage(t *testing.T) {
	e := &ValidationError{Param: "min_strike", Rule: "must be <= max_strike"}
	if got, want := e.Error(), "api: invalid parameter min_strike: must be <= max_strike"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if p := Ptr(3.5); *p != 3.5 {
		t.Errorf("Ptr(3.5) = %v", *p)
	}
}

func fullOptionQuotes() OptionQuotesParams {
	return OptionQuotesParams{
		Symbol: "SPX", Date: "2024-12-20", Root: "SPXW", OptionType: Call,
		MinExpiry: "2024-12-20", MaxExpiry: "2025-01-17",
		MinStrike: Ptr(5000.0), MaxStrike: Ptr(6000.5), Mode: Delayed,
	}
}

func TestOptionQuotesParamsValidate(t *testing.T) {
	type P = OptionQuotesParams
	cases := concat(
		symbolCases("symbol", func(p *P, s string) { p.Symbol = s }),
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("date", true, func(p *P, s string) { p.Date = s }),
		dateCases("min_expiry", false, func(p *P, s string) { p.MinExpiry, p.MaxExpiry = s, "" }),
		dateCases("max_expiry", false, func(p *P, s string) { p.MinExpiry, p.MaxExpiry = "", s }),
		floatMinCases("min_strike", 0.01, 0.0099, func(p *P, v *float64) { p.MinStrike, p.MaxStrike = v, nil }),
		floatMinCases("max_strike", 0.01, 0.0099, func(p *P, v *float64) { p.MinStrike, p.MaxStrike = nil, v }),
		[]paramCase[P]{
			{"minimal", func(p *P) { *p = P{Symbol: "SPY", Date: "2024-01-05"} }, "", ""},
			{"date before depth", func(p *P) { p.Date = "2002-12-31" }, "date", "must be 2003-01-01 or later"},
			{"date far past", func(p *P) { p.Date = "1999-01-04" }, "date", "must be 2003-01-01 or later"},
			{"date at depth", func(p *P) { p.Date = "2003-01-01" }, "", ""},
			{"expiry filters before depth", func(p *P) { p.MinExpiry, p.MaxExpiry = "1999-01-04", "2002-12-31" }, "", ""},
			{"min_strike zero", func(p *P) { p.MinStrike = Ptr(0.0) }, "min_strike", ">= 0.01"},
			{"root lower case", func(p *P) { p.Root = "spxw" }, "", ""},
			{"root six chars", func(p *P) { p.Root = "ABCDE1" }, "", ""},
			{"root seven chars", func(p *P) { p.Root = "ABCDEF1" }, "root", "1 to 6 letters or digits"},
			{"root with space", func(p *P) { p.Root = "SP X" }, "root", "1 to 6"},
			{"root with dot", func(p *P) { p.Root = "BRK.B" }, "root", "1 to 6"},
			{"option_type put", func(p *P) { p.OptionType = Put }, "", ""},
			{"option_type both", func(p *P) { p.OptionType = "" }, "", ""},
			{"option_type lower", func(p *P) { p.OptionType = "c" }, "option_type", "must be one of C, P"},
			{"option_type word", func(p *P) { p.OptionType = "CALL" }, "option_type", "C, P"},
			{"expiry inverted", func(p *P) { p.MinExpiry, p.MaxExpiry = "2025-01-17", "2025-01-16" }, "min_expiry", "must be <= max_expiry"},
			{"expiry equal", func(p *P) { p.MinExpiry, p.MaxExpiry = "2025-01-17", "2025-01-17" }, "", ""},
			{"expiry one bad end", func(p *P) { p.MinExpiry, p.MaxExpiry = "2025-01-17", "2025-01-1" }, "max_expiry", "yyyy-MM-dd"},
			{"strike inverted", func(p *P) { p.MinStrike, p.MaxStrike = Ptr(100.01), Ptr(100.0) }, "min_strike", "must be <= max_strike"},
			{"strike equal", func(p *P) { p.MinStrike, p.MaxStrike = Ptr(100.0), Ptr(100.0) }, "", ""},
			{"strike NaN end", func(p *P) { p.MinStrike, p.MaxStrike = Ptr(200.0), Ptr(math.NaN()) }, "max_strike", "finite"},
		},
	)
	runParamCases(t, fullOptionQuotes(), cases)
}

func TestValidateReportsEveryRule(t *testing.T) {
	p := OptionQuotesParams{Root: "TOOLONG1", OptionType: "X", MinStrike: Ptr(2.0), MaxStrike: Ptr(1.0), Mode: "x"}
	got := map[string]bool{}
	for _, e := range validationErrors(p.Validate()) {
		got[e.Param] = true
	}
	for _, want := range []string{"{mode}", "symbol", "date", "root", "option_type", "min_strike"} {
		if !got[want] {
			t.Errorf("no error for %s; got %v", want, got)
		}
	}
}

func TestOptionQuotesParamsQuery(t *testing.T) {
	checkQuery(t, fullOptionQuotes().query(), url.Values{
		"symbol": {"SPX"}, "date": {"2024-12-20"}, "root": {"SPXW"}, "option_type": {"C"},
		"min_expiry": {"2024-12-20"}, "max_expiry": {"2025-01-17"},
		"min_strike": {"5000"}, "max_strike": {"6000.5"},
	})
	checkQuery(t, OptionQuotesParams{Symbol: "SPY", Date: "2024-01-05", Mode: Live}.query(),
		url.Values{"symbol": {"SPY"}, "date": {"2024-01-05"}})
	checkQuery(t, OptionQuotesParams{MinStrike: Ptr(0.01), MaxStrike: Ptr(1e21)}.query(),
		url.Values{"min_strike": {"0.01"}, "max_strike": {"1000000000000000000000"}})
}

func TestParamsDate(t *testing.T) {
	tests := []struct {
		p    interface{ date() Date }
		want Date
	}{
		{OptionQuotesParams{Date: "2024-12-20"}, 20241220},
		{OptionQuotesParams{}, 0},
		{OptionQuotesParams{Date: "2024-12-32"}, 0},
		{UnderlyingQuotesParams{Date: "2011-01-03"}, 20110103},
		{OptionTradesParams{Date: "2003-01-02"}, 20030102},
		{TradesAndQuotesParams{Date: "2024-02-29"}, 20240229},
		{OptionTradesWithGreeksParams{Date: "2024-06-03"}, 20240603},
		{CalendarParams{StartDate: "2024-01-01"}, 0},
		{ScanParams{}, 0},
		{ReferenceParams{}, 0},
	}
	for _, tt := range tests {
		if got := tt.p.date(); got != tt.want {
			t.Errorf("%T.date() = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestUnderlyingQuotesParamsValidate(t *testing.T) {
	type P = UnderlyingQuotesParams
	cases := concat(
		symbolCases("symbols", func(p *P, s string) {
			if s == "" {
				p.Symbols = nil
			} else {
				p.Symbols = []string{"SPY", s}
			}
		}),
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("date", true, func(p *P, s string) { p.Date = s }),
		[]paramCase[P]{
			{"minimal", func(p *P) { *p = P{Symbols: []string{"SPY"}, Date: "2024-01-05"} }, "", ""},
			{"symbols empty slice", func(p *P) { p.Symbols = []string{} }, "symbols", "at least one"},
			{"symbols empty entry", func(p *P) { p.Symbols = []string{"SPY", ""} }, "symbols", "entry 2 is empty"},
			{"date before depth", func(p *P) { p.Date = "2010-12-31" }, "date", "2011-01-01 or later"},
			{"date at depth", func(p *P) { p.Date = "2011-01-01" }, "", ""},
			{"seq_no absent", func(p *P) { p.SeqNo = nil }, "", ""},
			{"seq_no zero", func(p *P) { p.SeqNo = Ptr[int64](0) }, "", ""},
			{"seq_no max", func(p *P) { p.SeqNo = Ptr[int64](math.MaxInt64) }, "", ""},
			{"seq_no negative", func(p *P) { p.SeqNo = Ptr[int64](-1) }, "seq_no", "must be from 0 to 9223372036854775807, not -1"},
		},
	)
	runParamCases(t, P{Symbols: []string{"SPY", "QQQ", "BRK.B"}, Date: "2024-01-05", SeqNo: Ptr[int64](42), Mode: Live}, cases)
}

func TestUnderlyingQuotesParamsQuery(t *testing.T) {
	p := UnderlyingQuotesParams{Symbols: []string{"SPY", "QQQ", "BRK.B"}, Date: "2024-01-05", SeqNo: Ptr[int64](0), Mode: Live}
	checkQuery(t, p.query(), url.Values{"symbols": {"SPY,QQQ,BRK.B"}, "date": {"2024-01-05"}, "seq_no": {"0"}})
	checkQuery(t, UnderlyingQuotesParams{Symbols: []string{"SPY"}}.query(), url.Values{"symbols": {"SPY"}})
}

func TestCalendarParamsValidate(t *testing.T) {
	type P = CalendarParams
	cases := concat(
		symbolCases("symbols", func(p *P, s string) {
			if s == "" {
				p.Symbols = nil
			} else {
				p.Symbols = []string{s, "AAPL"}
			}
		}),
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		dateCases("start_date", false, func(p *P, s string) { p.StartDate, p.EndDate = s, "" }),
		dateCases("end_date", false, func(p *P, s string) { p.StartDate, p.EndDate = "", s }),
		[]paramCase[P]{
			{"minimal", func(p *P) { *p = P{Symbols: []string{"AAPL"}} }, "", ""},
			{"all_symbols", func(p *P) { p.Symbols = []string{AllSymbols} }, "", ""},
			{"all_optionable_symbols", func(p *P) { p.Symbols = []string{AllOptionableSymbols} }, "", ""},
			{"all_symbols with others", func(p *P) { p.Symbols = []string{AllSymbols, "AAPL"} }, "symbols", "all_symbols must be the only entry"},
			{"all_optionable_symbols with others", func(p *P) { p.Symbols = []string{"AAPL", AllOptionableSymbols} }, "symbols", "all_optionable_symbols must be the only entry"},
			{"both specials", func(p *P) { p.Symbols = []string{AllSymbols, AllOptionableSymbols} }, "symbols", "only entry"},
			{"symbols empty entry", func(p *P) { p.Symbols = []string{"AAPL", ""} }, "symbols", "entry 2 is empty"},
			{"event_type all", func(p *P) { p.EventType = EventsAll }, "", ""},
			{"event_type earnings", func(p *P) { p.EventType = EventsEarnings }, "", ""},
			{"event_type default", func(p *P) { p.EventType = "" }, "", ""},
			{"event_type singular", func(p *P) { p.EventType = "dividend" }, "event_type", "must be one of all, earnings, dividends"},
			{"event_type upper", func(p *P) { p.EventType = "ALL" }, "event_type", "all, earnings, dividends"},
			{"start before 2003", func(p *P) { p.StartDate = "1990-01-01" }, "", ""},
			{"end before depth", func(p *P) { p.StartDate, p.EndDate = "1990-01-01", "2002-12-31" }, "end_date", "must be 2003-01-01 or later"},
			{"end at depth", func(p *P) { p.StartDate, p.EndDate = "1990-01-01", "2003-01-01" }, "", ""},
			{"dates inverted", func(p *P) { p.StartDate, p.EndDate = "2024-01-02", "2024-01-01" }, "start_date", "must be <= end_date"},
			{"dates equal", func(p *P) { p.StartDate, p.EndDate = "2024-01-02", "2024-01-02" }, "", ""},
		},
	)
	runParamCases(t, P{Symbols: []string{"AAPL", "MSFT"}, EventType: EventsDividends, StartDate: "2024-01-01", EndDate: "2024-12-31", Mode: Live}, cases)
}

func TestCalendarParamsQueryAndPath(t *testing.T) {
	p := CalendarParams{Symbols: []string{"AAPL", "BRK/B"}, EventType: EventsEarnings, StartDate: "2024-01-01", EndDate: "2024-12-31", Mode: Live}
	checkQuery(t, p.query(), url.Values{"event_type": {"earnings"}, "start_date": {"2024-01-01"}, "end_date": {"2024-12-31"}})
	checkQuery(t, CalendarParams{Symbols: []string{"AAPL"}}.query(), url.Values{})
	if got, want := p.pathSymbols(), "AAPL,BRK%2FB"; got != want {
		t.Errorf("pathSymbols() = %q, want %q", got, want)
	}
	if got := (CalendarParams{Symbols: []string{AllOptionableSymbols}}).pathSymbols(); got != "all_optionable_symbols" {
		t.Errorf("pathSymbols() = %q", got)
	}
}

func scanFields(n int) []ScanFieldParam {
	fs := make([]ScanFieldParam, n)
	for i := range fs {
		fs[i] = ScanFieldParam{Formula: "iv30", DisplayName: "f" + strings.Repeat("x", i)}
	}
	return fs
}

func TestScanParamsValidate(t *testing.T) {
	type P = ScanParams
	no := Ptr(false)
	base := P{Fields: []ScanFieldParam{
		{Formula: "iv30 > 20", DisplayName: "high_iv"},
		{Formula: "iv30", Sort: SortDesc},
		{Formula: "underlying_volume", DisplayName: "vol", IncludeInResultset: Ptr(true), Sort: SortAsc},
	}, AllResults: true, Mode: Live}
	cases := concat(
		modeCases(func(p *P, m Mode) { p.Mode = m }),
		[]paramCase[P]{
			{"fields nil", func(p *P) { p.Fields = nil }, "fields", "at least one"},
			{"fields empty", func(p *P) { p.Fields = []ScanFieldParam{} }, "fields", "at least one"},
			{"one field", func(p *P) { p.Fields = scanFields(1) }, "", ""},
			{"50 fields", func(p *P) { p.Fields = scanFields(50) }, "", ""},
			{"51 fields", func(p *P) { p.Fields = scanFields(51) }, "fields", "at most 50 entries, not 51"},
			{"formula missing", func(p *P) { p.Fields = []ScanFieldParam{{DisplayName: "x"}} }, "fields[0].formula", "is required"},
			{"formula blank", func(p *P) { p.Fields = append(scanFields(2), ScanFieldParam{Formula: " \t"}) }, "fields[2].formula", "is required"},
			{"formula 1000", func(p *P) { p.Fields = []ScanFieldParam{{Formula: strings.Repeat("a", 1000)}} }, "", ""},
			{"formula 1000 runes", func(p *P) { p.Fields = []ScanFieldParam{{Formula: strings.Repeat("é", 1000)}} }, "", ""},
			{"formula 1001", func(p *P) { p.Fields = []ScanFieldParam{{Formula: strings.Repeat("a", 1001)}} }, "fields[0].formula", "at most 1000 characters, not 1001"},
			{"sort none", func(p *P) { p.Fields[0].Sort = SortNone }, "", ""},
			{"sort upper", func(p *P) { p.Fields = []ScanFieldParam{{Formula: "iv30", Sort: "ASC"}} }, "fields[0].sort", "must be one of asc, desc, none"},
			{"sort word", func(p *P) { p.Fields = []ScanFieldParam{{Formula: "iv30", Sort: "up"}} }, "fields[0].sort", "asc, desc, none"},
			{"display names repeat", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "a", DisplayName: "x"}, {Formula: "b", DisplayName: "y"}, {Formula: "c", DisplayName: "x"}}
			}, "fields[2].display_name", `"x" is already the name of fields[0]`},
			{"display names repeat, one excluded", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "a", DisplayName: "x", IncludeInResultset: no}, {Formula: "b", DisplayName: "x"}}
			}, "", ""},
			{"formula repeats without display names", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "iv30"}, {Formula: "iv30"}}
			}, "fields[1].display_name", "is required: the formula"},
			{"display name equals another's formula", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "iv30"}, {Formula: "iv30 * 2", DisplayName: "iv30"}}
			}, "fields[1].display_name", "already the name of fields[0]"},
			{"formula repeats with display names", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "iv30", DisplayName: "a"}, {Formula: "iv30", DisplayName: "b"}}
			}, "", ""},
			{"display names differ in case", func(p *P) {
				p.Fields = []ScanFieldParam{{Formula: "a", DisplayName: "x"}, {Formula: "b", DisplayName: "X"}}
			}, "", ""},
		},
	)
	runParamCases(t, base, cases)
}

func TestScanParamsQueryAndBody(t *testing.T) {
	p := ScanParams{Fields: []ScanFieldParam{
		{Formula: "iv30 > 20 && x < 1", DisplayName: "high_iv"},
		{Formula: "iv30", IncludeInResultset: Ptr(false), Sort: SortDesc},
	}}
	checkQuery(t, p.query(), url.Values{})
	p.AllResults = true
	checkQuery(t, p.query(), url.Values{"all_results": {"true"}})

	b, err := p.body(JSON)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"formula":"iv30 \u003e 20 \u0026\u0026 x \u003c 1","display_name":"high_iv"},{"formula":"iv30","include_in_resultset":false,"sort":"desc"}]`
	if string(b) != wantJSON {
		t.Errorf("JSON body\n got %s\nwant %s", b, wantJSON)
	}
	b, err = p.body(XML)
	if err != nil {
		t.Fatal(err)
	}
	wantXML := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<scan_params><scan_param><formula>iv30 &gt; 20 &amp;&amp; x &lt; 1</formula><display_name>high_iv</display_name></scan_param>` +
		`<scan_param><formula>iv30</formula><include_in_resultset>false</include_in_resultset><sort>desc</sort></scan_param></scan_params>`
	if string(b) != wantXML {
		t.Errorf("XML body\n got %s\nwant %s", b, wantXML)
	}
	if b, _ := (ScanParams{}).body(JSON); string(b) != "[]" {
		t.Errorf("empty JSON body = %s, want []", b)
	}
}

func TestReferenceParams(t *testing.T) {
	type P = ReferenceParams
	runParamCases(t, P{}, modeCases(func(p *P, m Mode) { p.Mode = m }))
	checkQuery(t, P{Mode: Live}.query(), url.Values{})
}
