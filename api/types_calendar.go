package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// EventType selects calendar events.
type EventType string

// The calendar's event types.
const (
	EventsAll       EventType = "all"
	EventsEarnings  EventType = "earnings"
	EventsDividends EventType = "dividends"
)

// ReportTime says when earnings are reported: before the open, after the
// close, or during market trading.
type ReportTime string

// The three report times.
const (
	BeforeOpen   ReportTime = "BMO"
	AfterClose   ReportTime = "AMC"
	DuringMarket ReportTime = "DMT"
)

// EarningsEvent is an earnings report, past (with EPSActual) or future.
type EarningsEvent struct {
	Year             int        `json:"year" xml:"year"`
	Quarter          int        `json:"quarter" xml:"quarter"`
	ReportDate       Date       `json:"report_date" xml:"report_date"`
	TimeOfDay        ReportTime `json:"time_of_day" xml:"time_of_day"`
	ReportDateType   string     `json:"report_date_type" xml:"report_date_type"`
	DateType         FlexString `json:"date_type" xml:"date_type"` // a string in JSON, a number in XML
	EPSActual        Float      `json:"eps_actual" xml:"eps_actual"`
	EPSEstimate      Float      `json:"eps_estimate" xml:"eps_estimate"`
	ActualCurrency   string     `json:"actual_currency" xml:"actual_currency"`
	UnderlyingSymbol string     `json:"underlying_symbol" xml:"underlying_symbol"`
	CompanyName      string     `json:"company_name" xml:"company_name"`
	DataSourceID     Int        `json:"data_source_id" xml:"data_source_id"`
}

// DividendsEvent is a dividend, past or declared.
type DividendsEvent struct {
	ExDividendDate      Date   `json:"ex_dividend_date" xml:"ex_dividend_date"`
	PaymentDate         Date   `json:"payment_date" xml:"payment_date"`
	Dividend            Float  `json:"dividend" xml:"dividend"`
	SpecialDividendCode Int    `json:"special_dividend_code" xml:"special_dividend_code"`
	DividendCode        string `json:"dividend_code" xml:"dividend_code"`
	UnadjustedDividend  Float  `json:"unadjusted_dividend" xml:"unadjusted_dividend"`
	DataSource          string `json:"data_source" xml:"data_source"`
	UnderlyingSymbol    string `json:"underlying_symbol" xml:"underlying_symbol"`
	CompanyName         string `json:"company_name" xml:"company_name"`
	DataSourceID        Int    `json:"data_source_id" xml:"data_source_id"`
}

// EventKind tells which event a CalendarEvent holds.
type EventKind uint8

// The two event kinds.
const (
	KindEarnings EventKind = iota + 1
	KindDividend
)

// CalendarEvent is one element of the calendar response, a tagged union. In
// JSON the kind is read from the keys (ex_dividend_date or dividend make a
// dividend; report_date, quarter or eps_estimate an earnings report); in XML
// from i:type ("earning" or "dividend").
type CalendarEvent struct {
	Kind     EventKind
	Earnings EarningsEvent  // when Kind is KindEarnings
	Dividend DividendsEvent // when Kind is KindDividend
}

// Symbol returns the event's underlying symbol.
func (e CalendarEvent) Symbol() string {
	if e.Kind == KindDividend {
		return e.Dividend.UnderlyingSymbol
	}
	return e.Earnings.UnderlyingSymbol
}

// Date returns the event's date: report date or ex-dividend date.
func (e CalendarEvent) Date() Date {
	if e.Kind == KindDividend {
		return e.Dividend.ExDividendDate
	}
	return e.Earnings.ReportDate
}

// UnmarshalJSON tells the kind by the keys present, then decodes the event.
// null, or an object of neither kind, leaves Kind 0 (Calendar drops such
// events); any other value is an error.
func (e *CalendarEvent) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch {
	case has("ex_dividend_date") || has("dividend") || has("payment_date"):
		e.Kind = KindDividend
		return json.Unmarshal(b, &e.Dividend)
	case has("report_date") || has("quarter") || has("eps_estimate") || has("eps_actual"):
		e.Kind = KindEarnings
		return json.Unmarshal(b, &e.Earnings)
	}
	// Neither kind: left as Kind 0, and Calendar drops it, so that a new
	// event type the service adds does not break the calendar.
	e.Kind = 0
	return nil
}

// MarshalJSON writes the event as its kind's flat object.
func (e CalendarEvent) MarshalJSON() ([]byte, error) {
	if e.Kind == KindDividend {
		return json.Marshal(e.Dividend)
	}
	return json.Marshal(e.Earnings)
}

// FlexString is a value the service sends as a string in one format and as a
// number in the other; it keeps the text.
type FlexString string

// UnmarshalJSON accepts a string, a number or null.
func (f *FlexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, nullJSON):
		*f = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = FlexString(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("date_type: %s is neither string nor number", truncate(string(b), 40))
		}
		*f = FlexString(strings.TrimSpace(n.String()))
	}
	return nil
}
