package wire

import (
	"strconv"
	"strings"

	"chainwatch/api"
)

// api.EarningsEvent and api.DividendsEvent.
var (
	kYear                = k("year")
	kQuarter             = k("quarter")
	kReportDate          = k("report_date")
	kTimeOfDay           = k("time_of_day")
	kReportDateType      = k("report_date_type")
	kDateType            = k("date_type")
	kEPSActual           = k("eps_actual")
	kEPSEstimate         = k("eps_estimate")
	kActualCurrency      = k("actual_currency")
	kUnderlyingSymbol    = k("underlying_symbol")
	kDataSourceID        = k("data_source_id")
	kExDividendDate      = k("ex_dividend_date")
	kPaymentDate         = k("payment_date")
	kDividend            = k("dividend")
	kSpecialDividendCode = k("special_dividend_code")
	kDividendCode        = k("dividend_code")
	kUnadjustedDividend  = k("unadjusted_dividend")
	kDataSource          = k("data_source")
)

// The reference tables and the scanner's metadata.
var (
	kExchange         = k("exchange")
	kMessageCondition = k("message_condition")
	kType             = k("type")
	kFields           = k("fields")
	kField            = k("field")
	kOperators        = k("operators")
	kOperator         = k("operator")
	kDisplayName      = k("display_name")
	kCategory         = k("category")
	kDataType         = k("data_type")
	kMayContainNull   = k("may_contain_null")
)

// AppendCalendar appends the calendar response: an array mixing the flat
// objects of earnings and dividend events, told apart by their keys (XML:
// events/event, with i:type="earning" or i:type="dividend"). An event of no
// kind (Kind 0) is left out.
//
// date_type is a string in JSON and a number in XML, as the spec's samples
// have it: in XML the FlexString's text is written when it is a number, and
// the element is i:nil otherwise (there is no number to send; a reader takes
// it as empty text).
func AppendCalendar(b []byte, f api.Format, ev []api.CalendarEvent) []byte {
	e := newEnc(b, f)
	e.beginDoc("events", true, false)
	for i := range ev {
		switch ev[i].Kind {
		case api.KindEarnings:
			e.beginEvent("earning")
			e.earnings(&ev[i].Earnings)
		case api.KindDividend:
			e.beginEvent("dividend")
			e.dividend(&ev[i].Dividend)
		default:
			continue
		}
		e.endItem(&kEvent)
	}
	return e.endDoc("events", true)
}

var kEvent = k("event")

// beginEvent opens an event: an object, or <event i:type="...">.
func (e *enc) beginEvent(typ string) {
	if !e.xml {
		e.b = append(e.b, '{')
		return
	}
	e.b = append(e.b, `<event i:type="`...)
	e.b = append(e.b, typ...)
	e.b = append(e.b, '"', '>')
}

func (e *enc) earnings(v *api.EarningsEvent) {
	e.int(&kYear, int64(v.Year))
	e.int(&kQuarter, int64(v.Quarter))
	e.date(&kReportDate, v.ReportDate)
	e.str(&kTimeOfDay, string(v.TimeOfDay))
	e.str(&kReportDateType, v.ReportDateType)
	switch dt := strings.TrimSpace(string(v.DateType)); {
	case !e.xml:
		e.str(&kDateType, string(v.DateType))
	case isNumber(dt):
		e.open(&kDateType)
		e.b = append(e.b, dt...)
		e.close(&kDateType)
	default:
		e.null(&kDateType)
	}
	e.nfloat(&kEPSActual, v.EPSActual)
	e.nfloat(&kEPSEstimate, v.EPSEstimate)
	e.str(&kActualCurrency, v.ActualCurrency)
	e.str(&kUnderlyingSymbol, v.UnderlyingSymbol)
	e.str(&kCompanyName, v.CompanyName)
	e.nint(&kDataSourceID, v.DataSourceID)
}

// isNumber reports whether s is a finite decimal number, safe to write as
// element text without escaping.
func isNumber(s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && finite(v) && !strings.ContainsAny(s, "xXpP_") // no hex or Go-only forms
}

func (e *enc) dividend(v *api.DividendsEvent) {
	e.date(&kExDividendDate, v.ExDividendDate)
	e.date(&kPaymentDate, v.PaymentDate)
	e.nfloat(&kDividend, v.Dividend)
	e.nint(&kSpecialDividendCode, v.SpecialDividendCode)
	e.str(&kDividendCode, v.DividendCode)
	e.nfloat(&kUnadjustedDividend, v.UnadjustedDividend)
	e.str(&kDataSource, v.DataSource)
	e.str(&kUnderlyingSymbol, v.UnderlyingSymbol)
	e.str(&kCompanyName, v.CompanyName)
	e.nint(&kDataSourceID, v.DataSourceID)
}

// AppendExchanges appends the exchanges reference table: an array of
// {id, code, name} (XML: exchanges/exchange).
func AppendExchanges(b []byte, f api.Format, x []api.Exchange) []byte {
	e := newEnc(b, f)
	e.beginDoc("exchanges", true, false)
	for i := range x {
		e.beginItem(&kExchange)
		e.int(&kID, int64(x[i].ID))
		e.str(&kCode, x[i].Code)
		e.str(&kName, x[i].Name)
		e.endItem(&kExchange)
	}
	return e.endDoc("exchanges", true)
}

// AppendMessageConditions appends the message-conditions reference table:
// an array of {id, code, description, type} (XML:
// message_conditions/message_condition).
func AppendMessageConditions(b []byte, f api.Format, c []api.MessageCondition) []byte {
	e := newEnc(b, f)
	e.beginDoc("message_conditions", true, false)
	for i := range c {
		e.beginItem(&kMessageCondition)
		e.int(&kID, int64(c[i].ID))
		e.str(&kCode, c[i].Code)
		e.str(&kDescription, c[i].Description)
		e.str(&kType, string(c[i].Type))
		e.endItem(&kMessageCondition)
	}
	return e.endDoc("message_conditions", true)
}

// AppendScannerMetadata appends the scanner's field list: an object with
// fields and operators (XML: scans_metadata/fields/field and
// operators/operator). A nil m is written as two empty lists.
func AppendScannerMetadata(b []byte, f api.Format, m *api.ScannerMetadata) []byte {
	if m == nil {
		m = &api.ScannerMetadata{}
	}
	e := newEnc(b, f)
	e.beginDoc("scans_metadata", false, false)
	e.beginList(&kFields)
	for i := range m.Fields {
		fd := &m.Fields[i]
		e.beginItem(&kField)
		e.str(&kName, fd.Name)
		e.str(&kDisplayName, fd.DisplayName)
		e.str(&kDescription, fd.Description)
		e.str(&kCategory, fd.Category)
		e.str(&kDataType, fd.DataType)
		e.bool(&kMayContainNull, fd.MayContainNull)
		e.endItem(&kField)
	}
	e.endList(&kFields)
	e.beginList(&kOperators)
	for i := range m.Operators {
		e.beginItem(&kOperator)
		e.str(&kOperator, m.Operators[i].Operator)
		e.str(&kDescription, m.Operators[i].Description)
		e.endItem(&kOperator)
	}
	e.endList(&kOperators)
	return e.endDoc("scans_metadata", false)
}
