package api

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// xmlItems walks the children of the root element and hands each to fn.
// The service names list items (symbol, option_trade, trade_with_greeks,
// event); this reader accepts any name so that a renamed item element does
// not break the client.
func xmlItems(b []byte, fn func(d *xml.Decoder, start xml.StartElement) error) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	depth, sawRoot := 0, false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			switch {
			case !sawRoot:
				return errors.New("xml: no root element")
			case depth != 0:
				return errors.New("xml: unexpected end of input")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if sawRoot {
					return errors.New("xml: more than one root element")
				}
				depth, sawRoot = 1, true
				if isNil(t) {
					return nil
				}
				continue
			}
			if err := fn(d, t); err != nil {
				return fmt.Errorf("xml: %s: %w", t.Name.Local, err)
			}
		case xml.EndElement:
			depth--
		}
	}
}

// xmlList reads a root element whose children are T items.
func xmlList[T any](b []byte) ([]T, error) {
	var out []T
	err := xmlItems(b, func(d *xml.Decoder, start xml.StartElement) error {
		var v T
		if err := d.DecodeElement(&v, &start); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// xmlType returns an element's i:type, without any namespace prefix.
func xmlType(start xml.StartElement) string {
	for _, a := range start.Attr {
		if a.Name.Local == "type" && a.Name.Space != "" {
			_, v, found := strings.Cut(a.Value, ":")
			if !found {
				v = a.Value
			}
			return v
		}
	}
	return ""
}

// xmlTAQ reads trades-and-quotes XML: root trades_and_quotes, items trade,
// quote and option_quote (the item name or its i:type tells the kind; this
// shape is ours, the spec does not show one).
func xmlTAQ(b []byte) ([]TAQRecord, error) {
	var out []TAQRecord
	err := xmlItems(b, func(d *xml.Decoder, start xml.StartElement) error {
		kind := xmlType(start)
		if kind == "" {
			kind = start.Name.Local
		}
		var r TAQRecord
		switch strings.ToLower(kind) {
		case "trade":
			r.Kind = KindTrade
			if err := d.DecodeElement(&r.Trade, &start); err != nil {
				return err
			}
		case "quote":
			r.Kind = KindQuote
			if err := d.DecodeElement(&r.Quote.Quote, &start); err != nil {
				return err
			}
		case "option_quote", "optionquote":
			r.Kind = KindOptionQuote
			if err := d.DecodeElement(&r.Quote, &start); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown record kind %q", truncate(kind, 40))
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// xmlEvents reads calendar XML: root events, each event element with
// i:type earning or dividend.
func xmlEvents(b []byte) ([]CalendarEvent, error) {
	var out []CalendarEvent
	err := xmlItems(b, func(d *xml.Decoder, start xml.StartElement) error {
		var e CalendarEvent
		switch t := strings.ToLower(xmlType(start)); t {
		case "earning", "earnings", "earningsevent":
			e.Kind = KindEarnings
			if err := d.DecodeElement(&e.Earnings, &start); err != nil {
				return err
			}
		case "dividend", "dividends", "dividendsevent":
			e.Kind = KindDividend
			if err := d.DecodeElement(&e.Dividend, &start); err != nil {
				return err
			}
		default:
			return d.Skip() // an event type this client does not know
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// xmlScanResult reads scan_result: last_updated, inputs of scan_param, and
// output items each holding symbol, company_name and fields/field elements
// with name and value children.
func xmlScanResult(b []byte) (*ScanResult, error) {
	var w struct {
		LastUpdated string           `xml:"last_updated"`
		Inputs      []ScanFieldParam `xml:"inputs>scan_param"`
		Output      []struct {
			Symbol      string `xml:"symbol"`
			CompanyName string `xml:"company_name"`
			Fields      []struct {
				Name  string `xml:"name"`
				Value struct {
					Nil  string `xml:"http://www.w3.org/2001/XMLSchema-instance nil,attr"`
					Type string `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
					Text string `xml:",chardata"`
				} `xml:"value"`
			} `xml:"fields>field"`
		} `xml:"output>item"`
	}
	if err := xmlUnmarshal(b, &w); err != nil {
		return nil, err
	}
	res := &ScanResult{LastUpdated: strings.TrimSpace(w.LastUpdated), Inputs: w.Inputs}
	for _, it := range w.Output {
		row := ScanRow{Symbol: it.Symbol, CompanyName: it.CompanyName, Values: make(map[string]any, len(it.Fields))}
		for _, f := range it.Fields {
			row.Values[f.Name] = xmlScalar(f.Value.Nil == "true", f.Value.Type, f.Value.Text)
		}
		res.Output = append(res.Output, row)
	}
	return res, nil
}

// xmlScalar turns a scan value's text into the JSON-like value a row holds.
func xmlScalar(isNil bool, typ, text string) any {
	if isNil {
		return nil
	}
	text = strings.TrimSpace(text)
	if _, t, ok := strings.Cut(typ, ":"); ok {
		typ = t
	}
	switch strings.ToLower(typ) {
	case "string":
		return text
	case "boolean", "bool":
		if v, err := strconv.ParseBool(text); err == nil {
			return v
		}
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil {
		return v
	}
	if v, err := strconv.ParseBool(text); err == nil {
		return v
	}
	return text
}
