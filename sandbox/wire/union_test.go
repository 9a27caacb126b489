package wire

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"chainwatch/api"
)

// jsonKeys lists the json tag names of a struct type, embedded fields
// flattened, in order.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if f.Anonymous {
			keys = append(keys, jsonKeys(f.Type)...)
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// objectKeys returns the keys of each object of a JSON array, in order.
func objectKeys(t *testing.T, b []byte) [][]string {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out := make([][]string, len(raw))
	for i, r := range raw {
		d := json.NewDecoder(bytes.NewReader(r))
		d.Token() // {
		for d.More() {
			k, _ := d.Token()
			out[i] = append(out[i], k.(string))
			var skip json.RawMessage
			if err := d.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// xmlItemsOf hands each item of an XML list to fn with its i:type.
func xmlItemsOf(t *testing.T, b []byte, fn func(d *xml.Decoder, start xml.StartElement, typ string)) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 1 {
				typ := ""
				for _, a := range e.Attr {
					if a.Name.Space == xsiNamespace && a.Name.Local == "type" {
						typ = a.Value
					}
				}
				fn(d, e, typ)
				continue
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
}

func TestRoundTripTAQ(t *testing.T) {
	recs := testTAQ()
	b := AppendTAQ(nil, api.JSON, append(slices.Clone(recs), api.TAQRecord{}))
	keys := objectKeys(t, b)
	want := map[api.RecordKind][]string{
		api.KindTrade:       jsonKeys(reflect.TypeFor[api.Trade]()),
		api.KindQuote:       jsonKeys(reflect.TypeFor[api.Quote]()),
		api.KindOptionQuote: jsonKeys(reflect.TypeFor[api.OptionQuote]()),
	}
	if len(keys) != len(recs) {
		t.Fatalf("%d records, want %d (kind 0 left out): %s", len(keys), len(recs), b)
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(b, &raw)
	for i, r := range recs {
		if !reflect.DeepEqual(keys[i], want[r.Kind]) {
			t.Errorf("record %d (%v) keys %v, want %v", i, r.Kind, keys[i], want[r.Kind])
		}
		var got api.TAQRecord
		got.Kind = r.Kind
		switch r.Kind {
		case api.KindTrade:
			_ = json.Unmarshal(raw[i], &got.Trade)
		default:
			_ = json.Unmarshal(raw[i], &got.Quote)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("JSON record %d:\n got %+v\nwant %+v", i, got, r)
		}
	}

	x := AppendTAQ(nil, api.XML, recs)
	if root, items := xmlNames(t, x); root != "trades_and_quotes" || !reflect.DeepEqual(items, []string{"quote", "trade", "option_quote"}) {
		t.Errorf("root %s, items %v", root, items)
	}
	var got []api.TAQRecord
	xmlItemsOf(t, x, func(d *xml.Decoder, start xml.StartElement, _ string) {
		var r api.TAQRecord
		var err error
		switch start.Name.Local {
		case "trade":
			r.Kind, err = api.KindTrade, d.DecodeElement(&r.Trade, &start)
		case "quote":
			r.Kind, err = api.KindQuote, d.DecodeElement(&r.Quote.Quote, &start)
		case "option_quote":
			r.Kind, err = api.KindOptionQuote, d.DecodeElement(&r.Quote, &start)
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	})
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("XML TAQ:\n got %+v\nwant %+v", got, recs)
	}
}

func TestRoundTripCalendar(t *testing.T) {
	ev := testCalendar()
	b := AppendCalendar(nil, api.JSON, append(slices.Clone(ev), api.CalendarEvent{}))
	checkJSON(t, b, ev) // CalendarEvent.UnmarshalJSON tells the kind by the keys
	keys := objectKeys(t, b)
	if !reflect.DeepEqual(keys[0], jsonKeys(reflect.TypeFor[api.EarningsEvent]())) ||
		!reflect.DeepEqual(keys[1], jsonKeys(reflect.TypeFor[api.DividendsEvent]())) {
		t.Errorf("keys %v", keys)
	}
	if !bytes.Contains(b, []byte(`"date_type":"1",`)) {
		t.Errorf("date_type is not a JSON string: %s", b)
	}

	x := AppendCalendar(nil, api.XML, ev)
	if !bytes.Contains(x, []byte(`<event i:type="earning"><year>2026</year>`)) ||
		!bytes.Contains(x, []byte(`<event i:type="dividend"><ex_dividend_date>2026-11-10</ex_dividend_date>`)) ||
		!bytes.Contains(x, []byte(`<date_type>1</date_type>`)) {
		t.Errorf("XML events: %s", x)
	}
	var got []api.CalendarEvent
	xmlItemsOf(t, x, func(d *xml.Decoder, start xml.StartElement, typ string) {
		var e api.CalendarEvent
		var err error
		switch typ {
		case "earning":
			e.Kind, err = api.KindEarnings, d.DecodeElement(&e.Earnings, &start)
		case "dividend":
			e.Kind, err = api.KindDividend, d.DecodeElement(&e.Dividend, &start)
		default:
			t.Fatalf("i:type %q", typ)
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	})
	if !reflect.DeepEqual(got, ev) {
		t.Errorf("XML calendar:\n got %+v\nwant %+v", got, ev)
	}

	// A date_type that is not a number has no XML form: i:nil, read as "".
	odd := []api.CalendarEvent{{Kind: api.KindEarnings, Earnings: api.EarningsEvent{DateType: "Estimated"}}}
	if x := AppendCalendar(nil, api.XML, odd); !bytes.Contains(x, []byte(`<date_type i:nil="true"/>`)) {
		t.Errorf("non-numeric date_type: %s", x)
	}
}

func TestNulls(t *testing.T) {
	// Every Null field invalid, zero dates: null in JSON, i:nil in XML, and
	// read back as null.
	u := api.Underlying{Symbol: "X"}
	o := []api.OptionData{{Root: "X", Strike: 1, OptionType: api.Put}}
	j := AppendChain(nil, api.JSON, &u, o)
	if n := bytes.Count(j, []byte(":null")); n != 22+21 {
		t.Errorf("%d nulls in %s", n, j)
	}
	checkJSON(t, j, api.SymbolWithOptions{Underlying: u, Options: o})
	x := AppendChain(nil, api.XML, &u, o)
	if n := bytes.Count(x, []byte(`i:nil="true"/>`)); n != 22+21 {
		t.Errorf("%d nils in %s", n, x)
	}
	var got api.SymbolWithOptions
	if err := xml.Unmarshal(x, &got); err != nil || !reflect.DeepEqual(got, api.SymbolWithOptions{Underlying: u, Options: o}) {
		t.Errorf("XML nulls: %v %+v", err, got)
	}

	// NaN, infinities and out-of-range dates and times are null, not invalid bodies.
	bad := []api.OptionTrade{{Strike: nanValue(), Price: api.Some(infValue()), Expiry: -1, Timestamp: api.DayMillis}}
	j = AppendOptionTrades(nil, api.JSON, bad)
	for _, s := range []string{`"strike":null`, `"option_trade_price":null`, `"expiry":null`, `"timestamp":null`} {
		if !bytes.Contains(j, []byte(s)) || !json.Valid(j) {
			t.Errorf("%s not in %s", s, j)
		}
	}
	if x := AppendOptionTrades(nil, api.XML, bad); !bytes.Contains(x, []byte(`<price i:nil="true"/>`)) ||
		xml.Unmarshal(x, new(xmlDoc[api.OptionTrade])) != nil {
		t.Errorf("XML non-finite: %s", x)
	}
}
