package wire

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"chainwatch/api"
)

// These tests decode every shape with the standard library only; see
// client_test.go for the same shapes through the api client's decoders.

// xmlDoc is any XML list document: the root and its items, by position.
type xmlDoc[T any] struct {
	XMLName xml.Name
	Items   []T `xml:",any"`
}

// xmlNames returns the root's name and its children's names, checking the
// declaration and the i: namespace on the root.
func xmlNames(t *testing.T, b []byte) (root string, items []string) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte(`<?xml version="1.0" encoding="utf-8"?><`)) {
		t.Fatalf("no XML declaration: %.80s", b)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return root, items
		}
		if err != nil {
			t.Fatalf("invalid XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = e.Name.Local
				if !strings.Contains(string(b[:200]), `xmlns:i="http://www.w3.org/2001/XMLSchema-instance"`) {
					t.Errorf("root %s does not bind i:", root)
				}
			} else if depth == 1 {
				items = append(items, e.Name.Local)
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
}

func checkXMLList[T any](t *testing.T, b []byte, wantRoot, wantItem string, want []T) {
	t.Helper()
	root, items := xmlNames(t, b)
	if root != wantRoot {
		t.Errorf("root %q, want %q", root, wantRoot)
	}
	for _, it := range items {
		if it != wantItem {
			t.Errorf("item %q, want %q", it, wantItem)
		}
	}
	var doc xmlDoc[T]
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("xml: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(doc.Items, want) && !(len(want) == 0 && len(doc.Items) == 0) {
		t.Errorf("XML round trip:\n got %+v\nwant %+v\n%s", doc.Items, want, b)
	}
}

func checkJSON[T any](t *testing.T, b []byte, want T) {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("invalid JSON: %s", b)
	}
	var got T
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("json: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON round trip:\n got %+v\nwant %+v\n%s", got, want, b)
	}
}

func TestRoundTripChain(t *testing.T) {
	u, opts := testUnderlying(), testChain(400, false)
	opts[0].Root = odd // strings survive both formats
	want := api.SymbolWithOptions{Underlying: *u, Options: opts}
	checkJSON(t, AppendChain(nil, api.JSON, u, opts), want)

	b := AppendChain(nil, api.XML, u, opts)
	if root, items := xmlNames(t, b); root != "symbol" || items[len(items)-1] != "options" {
		t.Errorf("XML root %q, children %v", root, items)
	}
	var got api.SymbolWithOptions
	if err := xml.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("XML chain differs:\n got %+v\nwant %+v", got.Underlying, want.Underlying)
	}
	// Each item <option> holds the OSI symbol in a child <option>.
	if n := bytes.Count(b, []byte("<option><root>")); n != len(opts) {
		t.Errorf("%d option items, want %d", n, len(opts))
	}
}

func TestEmptyListsAreEmptyNotNull(t *testing.T) {
	for name, b := range map[string][]byte{
		"chain":      AppendChain(nil, api.JSON, &api.Underlying{}, nil),
		"symbols":    AppendSymbols(nil, api.JSON, nil),
		"trades":     AppendOptionTrades(nil, api.JSON, nil),
		"greeks":     AppendTradesWithGreeks(nil, api.JSON, nil),
		"taq":        AppendTAQ(nil, api.JSON, nil),
		"calendar":   AppendCalendar(nil, api.JSON, nil),
		"exchanges":  AppendExchanges(nil, api.JSON, nil),
		"conditions": AppendMessageConditions(nil, api.JSON, nil),
		"metadata":   AppendScannerMetadata(nil, api.JSON, nil),
		"scan":       AppendScanResult(nil, api.JSON, nil),
	} {
		if !json.Valid(b) || bytes.Contains(b, []byte("null")) && name != "chain" {
			t.Errorf("%s: %s", name, b)
		}
		if name != "chain" && name != "metadata" && name != "scan" && string(b) != "[]" {
			t.Errorf("%s: %s, want []", name, b)
		}
	}
	if got := AppendScanResult(nil, api.JSON, nil); string(got) != `{"last_updated":"","inputs":[],"output":[]}` {
		t.Errorf("empty scan result: %s", got)
	}
	if got := AppendScannerMetadata(nil, api.JSON, nil); string(got) != `{"fields":[],"operators":[]}` {
		t.Errorf("empty metadata: %s", got)
	}
	if got := AppendSymbols([]byte("prefix:"), api.XML, nil); !bytes.HasPrefix(got, []byte("prefix:<?xml")) ||
		!bytes.HasSuffix(got, []byte("<symbols xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\"></symbols>")) {
		t.Errorf("empty XML list: %s", got)
	}
}

func TestRoundTripSymbols(t *testing.T) {
	s := testSymbols()
	checkJSON(t, AppendSymbols(nil, api.JSON, s), s)
	checkXMLList(t, AppendSymbols(nil, api.XML, s), "symbols", "symbol", s)
}

func TestRoundTripOptionTrades(t *testing.T) {
	tr := testOptionTrades()
	checkJSON(t, AppendOptionTrades(nil, api.JSON, tr), tr)
	b := AppendOptionTrades(nil, api.XML, tr)
	checkXMLList(t, b, "option_trades", "option_trade", tr)
	for _, el := range []string{"<nbbo_ask>12.5</nbbo_ask>", "<nbbo_bid_size>11</nbbo_bid_size>", "<price>12.4</price>",
		"<size>5</size>", "<trade_at>Mid Market</trade_at>", `<security i:nil="true"/>`, `<nbbo_ask i:nil="true"/>`} {
		if !bytes.Contains(b, []byte(el)) {
			t.Errorf("XML lacks %s", el)
		}
	}
	if j := AppendOptionTrades(nil, api.JSON, tr); !bytes.Contains(j, []byte(`"security":null,`)) ||
		!bytes.Contains(j, []byte(`"option_trade_price":12.4,`)) {
		t.Errorf("JSON names: %s", j)
	}
}

func TestRoundTripTradesWithGreeks(t *testing.T) {
	g := testGreeks()
	checkJSON(t, AppendTradesWithGreeks(nil, api.JSON, g), g)
	checkXMLList(t, AppendTradesWithGreeks(nil, api.XML, g), "option_trades", "trade_with_greeks", g)
	if b := AppendTradesWithGreeks(nil, api.JSON, g[:1]); !bytes.HasPrefix(b, []byte(`[{"iv":0.2208,`)) ||
		!bytes.Contains(b, []byte(`"underlying_ask":6010.7,"size":10,"price":1.05,`)) {
		t.Errorf("not flat: %s", b)
	}
}

func TestRoundTripReference(t *testing.T) {
	x, c := testExchanges(), testConditions()
	checkJSON(t, AppendExchanges(nil, api.JSON, x), x)
	checkXMLList(t, AppendExchanges(nil, api.XML, x), "exchanges", "exchange", x)
	checkJSON(t, AppendMessageConditions(nil, api.JSON, c), c)
	checkXMLList(t, AppendMessageConditions(nil, api.XML, c), "message_conditions", "message_condition", c)
}

func TestRoundTripScannerMetadata(t *testing.T) {
	m := testMetadata()
	checkJSON(t, AppendScannerMetadata(nil, api.JSON, m), *m)
	b := AppendScannerMetadata(nil, api.XML, m)
	if root, items := xmlNames(t, b); root != "scans_metadata" || !reflect.DeepEqual(items, []string{"fields", "operators"}) {
		t.Errorf("root %s, children %v", root, items)
	}
	var got api.ScannerMetadata
	if err := xml.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(&got, m) {
		t.Errorf("XML metadata: %v\n got %+v\nwant %+v", err, got, *m)
	}
}
