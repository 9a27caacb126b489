package wire

import (
	"fmt"
	"slices"
	"strconv"

	"chainwatch/api"
)

var (
	kLastUpdated        = k("last_updated")
	kInputs             = k("inputs")
	kScanParam          = k("scan_param")
	kFormula            = k("formula")
	kIncludeInResultset = k("include_in_resultset")
	kSort               = k("sort")
	kOutput             = k("output")
	kItem               = k("item")
	kValue              = k("value")
)

// AppendScanResult appends the custom scanner's answer: last_updated,
// inputs (the request's fields echoed, with omitempty as their json tags
// say) and output, one flat object per row with symbol, company_name and the
// row's Values.
//
// A row's keys are written in the order of r.Inputs (by Key(), each once),
// so that the columns come out as the user listed them; keys of Values that
// no input names follow in sorted order, so the bytes are deterministic.
// symbol and company_name are written once, first, even when a formula has
// that name, since a JSON object must not repeat a key.
//
// Values are float64, int64, string, bool or nil; other numeric kinds, Null
// values and pointers are accepted as what they hold, and anything else is
// written as its fmt text. In XML (root scan_result) each output item is
// symbol, company_name and fields/field elements of name and value; a value
// carries i:type x:double, x:long, x:string or x:boolean (x bound to XML
// Schema), or i:nil="true" for null, so that a string is not read as a
// number.
func AppendScanResult(b []byte, f api.Format, r *api.ScanResult) []byte {
	if r == nil {
		r = &api.ScanResult{}
	}
	e := newEnc(b, f)
	e.beginDoc("scan_result", false, true)
	e.str(&kLastUpdated, r.LastUpdated)
	e.beginList(&kInputs)
	for i := range r.Inputs {
		p := &r.Inputs[i]
		e.beginItem(&kScanParam)
		e.str(&kFormula, p.Formula)
		if p.DisplayName != "" {
			e.str(&kDisplayName, p.DisplayName)
		}
		if p.IncludeInResultset != nil {
			e.bool(&kIncludeInResultset, *p.IncludeInResultset)
		}
		if p.Sort != "" {
			e.str(&kSort, string(p.Sort))
		}
		e.endItem(&kScanParam)
	}
	e.endList(&kInputs)

	keys := inputKeys(r.Inputs)
	var extra []string
	e.beginList(&kOutput)
	for i := range r.Output {
		row := &r.Output[i]
		e.beginItem(&kItem)
		e.str(&kSymbol, row.Symbol)
		e.str(&kCompanyName, row.CompanyName)
		if e.xml {
			e.b = append(e.b, kFields.open...)
		}
		n := 0
		for _, key := range keys {
			if v, ok := row.Values[key]; ok {
				e.scanValue(key, v)
				n++
			}
		}
		if n < len(row.Values) {
			extra = extra[:0]
			for key := range row.Values {
				if key != "symbol" && key != "company_name" && !slices.Contains(keys, key) {
					extra = append(extra, key)
				}
			}
			slices.Sort(extra)
			for _, key := range extra {
				e.scanValue(key, row.Values[key])
			}
		}
		if e.xml {
			e.b = append(e.b, kFields.close...)
		}
		e.endItem(&kItem)
	}
	e.endList(&kOutput)
	return e.endDoc("scan_result", false)
}

// inputKeys returns the output keys of the inputs, in order, each once,
// without the two keys every row starts with.
func inputKeys(in []api.ScanFieldParam) []string {
	keys := make([]string, 0, len(in))
	for _, p := range in {
		if key := p.Key(); key != "symbol" && key != "company_name" && !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	return keys
}

// scanValue writes one output value: "key":value in JSON, a field element of
// name and typed value in XML.
func (e *enc) scanValue(key string, v any) {
	v = plain(v)
	if e.xml {
		e.b = append(e.b, kField.open...)
		e.b = append(e.b, kName.open...)
		e.b = appendXMLText(e.b, key)
		e.b = append(e.b, kName.close...)
		switch x := v.(type) {
		case nil:
			e.b = append(e.b, kValue.null...)
		case float64:
			e.b = append(e.b, `<value i:type="x:double">`...)
			e.b = appendFloat(e.b, x)
		case int64:
			e.b = append(e.b, `<value i:type="x:long">`...)
			e.b = strconv.AppendInt(e.b, x, 10)
		case bool:
			e.b = append(e.b, `<value i:type="x:boolean">`...)
			e.b = strconv.AppendBool(e.b, x)
		case string:
			e.b = append(e.b, `<value i:type="x:string">`...)
			e.b = appendXMLText(e.b, x)
		}
		if v != nil {
			e.b = append(e.b, kValue.close...)
		}
		e.b = append(e.b, kField.close...)
		return
	}
	e.b = appendJSONString(e.b, key)
	e.b = append(e.b, ':')
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case float64:
		e.b = appendFloat(e.b, x)
	case int64:
		e.b = strconv.AppendInt(e.b, x, 10)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case string:
		e.b = appendJSONString(e.b, x)
	}
	e.b = append(e.b, ',')
}

// plain reduces a scan value to nil, float64, int64, bool or string.
func plain(v any) any {
	switch x := v.(type) {
	case nil, int64, bool, string:
		return x
	case float64:
		if !finite(x) {
			return nil
		}
		return x
	case float32:
		return plain(float64(x))
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint8:
		return int64(x)
	case uint32:
		return int64(x)
	case api.Float:
		return nullable(x)
	case api.Int:
		return nullable(x)
	case api.String:
		return nullable(x)
	case *float64:
		return deref(x)
	case *int64:
		return deref(x)
	case *string:
		return deref(x)
	case *bool:
		return deref(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func nullable[T any](n api.Null[T]) any {
	if !n.Valid {
		return nil
	}
	return plain(n.V)
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return plain(*p)
}
