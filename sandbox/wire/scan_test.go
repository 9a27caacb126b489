package wire

import (
	"encoding/json"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"chainwatch/api"
)

// wantRows is testScanResult's output as a reader of either format holds
// it: numbers are float64.
func wantRows() []api.ScanRow {
	rows := testScanResult().Output
	for _, r := range rows {
		for k, v := range r.Values {
			if n, ok := v.(int64); ok {
				r.Values[k] = float64(n)
			}
		}
	}
	return rows
}

func TestScanResultJSON(t *testing.T) {
	res := testScanResult()
	b := AppendScanResult(nil, api.JSON, res)
	var got api.ScanResult
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.LastUpdated != res.LastUpdated || !reflect.DeepEqual(got.Inputs, res.Inputs) || !reflect.DeepEqual(got.Output, wantRows()) {
		t.Errorf("round trip:\n got %+v\nwant %+v\n%s", got, res, b)
	}
	// Keys in the order of the inputs, and omitempty as the tags say.
	var out struct{ Output []json.RawMessage }
	_ = json.Unmarshal(b, &out)
	keys := objectKeys(t, append(append([]byte("["), out.Output[0]...), ']'))
	if want := []string{"symbol", "company_name", "price", "Vol", "earnings_date", "Sector", "Up"}; !reflect.DeepEqual(keys[0], want) {
		t.Errorf("keys %v, want %v", keys[0], want)
	}
	if !strings.Contains(string(b), `"inputs":[{"formula":"price"},{"formula":"iv30 > 20","include_in_resultset":false},`) {
		t.Errorf("inputs: %s", b)
	}
}

func TestScanResultKeyOrder(t *testing.T) {
	res := &api.ScanResult{
		Inputs: []api.ScanFieldParam{{Formula: "b"}, {Formula: "symbol"}, {Formula: "a"}, {Formula: "b"}},
		Output: []api.ScanRow{{Symbol: "S", Values: map[string]any{"a": 1.0, "b": int32(2), "symbol": "dup",
			"z": float32(0.5), "y": api.Some(3.0), "x": api.Float{}, "w": (*string)(nil), "v": api.Put}}},
	}
	b := AppendScanResult(nil, api.JSON, res)
	want := `"output":[{"symbol":"S","company_name":"","b":2,"a":1,"v":"P","w":null,"x":null,"y":3,"z":0.5}]}`
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("got %s\nwant suffix %s", b, want)
	}
}

func TestScanResultXML(t *testing.T) {
	res := testScanResult()
	b := AppendScanResult(nil, api.XML, res)
	if root, items := xmlNames(t, b); root != "scan_result" || !reflect.DeepEqual(items, []string{"last_updated", "inputs", "output"}) {
		t.Errorf("root %s, children %v", root, items)
	}
	// The shape the client reads (api/decode_xml.go).
	var w struct {
		LastUpdated string               `xml:"last_updated"`
		Inputs      []api.ScanFieldParam `xml:"inputs>scan_param"`
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
	if err := xml.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if w.LastUpdated != res.LastUpdated || !reflect.DeepEqual(w.Inputs, res.Inputs) || len(w.Output) != 2 {
		t.Fatalf("got %+v", w)
	}
	it := w.Output[1]
	if it.Symbol != "X&Y" || it.CompanyName != odd || len(it.Fields) != 5 {
		t.Fatalf("item %+v", it)
	}
	for i, want := range []struct{ name, nil, typ, text string }{
		{"price", "true", "", ""}, {"Vol", "", "x:long", "0"}, {"earnings_date", "true", "", ""},
		{"Sector", "", "x:string", odd}, {"Up", "", "x:boolean", "false"},
	} {
		f := it.Fields[i]
		if f.Name != want.name || f.Value.Nil != want.nil || f.Value.Type != want.typ || f.Value.Text != want.text {
			t.Errorf("field %d: %+v, want %+v", i, f, want)
		}
	}
}

func TestDecodeScanParams(t *testing.T) {
	yes, no := true, false
	want := []api.ScanFieldParam{{Formula: "price > 10"}, {Formula: "iv30", DisplayName: "IV <30>", IncludeInResultset: &no, Sort: api.SortDesc},
		{Formula: "volume", IncludeInResultset: &yes}}
	for _, c := range []struct {
		f    api.Format
		body string
	}{
		{api.JSON, `[{"formula":"price > 10"},{"formula":"iv30","display_name":"IV <30>","include_in_resultset":false,"sort":"desc"},
			{"formula":"volume","include_in_resultset":true,"unknown":1}]`},
		{api.JSON, "\ufeff [{\"formula\":\"price > 10\",\"include_in_resultset\":null},{\"formula\":\"iv30\",\"display_name\":\"IV <30>\",\"include_in_resultset\":false,\"sort\":\"desc\"},{\"formula\":\"volume\",\"include_in_resultset\":true}] \n"},
		{api.XML, `<?xml version="1.0" encoding="UTF-8"?><scan_params xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
			<scan_param><formula>price &gt; 10</formula><include_in_resultset i:nil="true"/></scan_param>
			<scan_param><formula>iv30</formula><display_name>IV &lt;30&gt;</display_name><include_in_resultset>false</include_in_resultset><sort>desc</sort></scan_param>
			<scan_param><formula>volume</formula><include_in_resultset>true</include_in_resultset><other/></scan_param>
			</scan_params><!-- trailing comment -->`},
	} {
		got, err := DecodeScanParams([]byte(c.body), c.f)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%v %q:\n got %+v, %v\nwant %+v", c.f, c.body, got, err, want)
		}
	}
	// What the client itself sends (encoding/xml of scan_params) reads back.
	var buf strings.Builder
	buf.WriteString(xml.Header)
	_ = xml.NewEncoder(&buf).Encode(struct {
		XMLName xml.Name             `xml:"scan_params"`
		Fields  []api.ScanFieldParam `xml:"scan_param"`
	}{Fields: want})
	for _, body := range []string{buf.String(), "\ufeff" + buf.String()} {
		if got, err := DecodeScanParams([]byte(body), api.XML); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("client XML: %+v, %v", got, err)
		}
	}
	if got, err := DecodeScanParams([]byte(`[]`), api.JSON); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty array: %v, %v", got, err)
	}
	if got, err := DecodeScanParams([]byte(`<scan_params/>`), api.XML); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty XML: %v, %v", got, err)
	}
}

func TestDecodeScanParamsErrors(t *testing.T) {
	for _, c := range []struct {
		f         api.Format
		body, msg string
	}{
		{api.JSON, ``, "body must be a JSON array of scan fields: the body is empty"},
		{api.JSON, `  `, "body must be a JSON array of scan fields: the body is empty"},
		{api.JSON, `{"formula":"price"}`, "body must be a JSON array of scan fields, not a single object"},
		{api.JSON, `"price"`, "body must be a JSON array of scan fields"},
		{api.JSON, `<scan_params/>`, "body must be a JSON array of scan fields"},
		{api.JSON, `[{"formula":"price"}`, "body is not valid JSON: unexpected end of JSON input"},
		{api.JSON, `[{"formula":"price"}] x`, "body is not valid JSON: invalid character 'x' after top-level value"},
		{api.JSON, `[null]`, "body[0] must be a scan field object, not null"},
		{api.JSON, `[{"formula":"a"},"price"]`, `body[1] must be a scan field object, not "price"`},
		{api.JSON, `[{"formula":5}]`, "body[0]: cannot unmarshal number into Go struct field ScanFieldParam.formula of type string"},
		{api.JSON, `[{"formula":"a","include_in_resultset":"yes"}]`, "body[0]: cannot unmarshal string into Go struct field ScanFieldParam.include_in_resultset of type bool"},
		{api.XML, ``, "body must be an XML scan_params element of scan_param items: the body has no element"},
		{api.XML, `[{"formula":"price"}]`, `body must be an XML scan_params element of scan_param items: unexpected text "[{\"formula\":\"price\"}]"`},
		{api.XML, `<scan_param><formula>a</formula></scan_param>`, "body must be an XML scan_params element of scan_param items, not scan_param"},
		{api.XML, `<scan_params><field><formula>a</formula></field></scan_params>`, "body must be an XML scan_params element of scan_param items: unexpected element field in scan_params"},
		{api.XML, `<scan_params></scan_params><scan_params/>`, "body must be an XML scan_params element of scan_param items: more than one root element"},
		{api.XML, `<scan_params><scan_param><formula>a</formula>`, "scan_param[0]: XML syntax error on line 1: unexpected EOF"},
		{api.XML, "<scan_params>\n<scan_param><include_in_resultset>maybe</include_in_resultset></scan_param></scan_params>", `scan_param[0]: include_in_resultset: invalid value "maybe"`},
		{api.XML, `<?xml version="1.0" encoding="ISO-8859-1"?><scan_params/>`, `body is not valid XML: xml: encoding "ISO-8859-1" declared but Decoder.CharsetReader is nil`},
	} {
		_, err := DecodeScanParams([]byte(c.body), c.f)
		if err == nil || err.Error() != c.msg {
			t.Errorf("%v %q:\n got %v\nwant %s", c.f, c.body, err, c.msg)
		}
	}
	// Messages stay on one line and short, whatever the body holds.
	_, err := DecodeScanParams([]byte("[{\"formula\":\"a\"},\n\""+strings.Repeat("x\n", 1000)+"\"]"), api.JSON)
	if err == nil || strings.ContainsAny(err.Error(), "\n\r") || len(err.Error()) > 310 {
		t.Errorf("not one short line: %q", err)
	}
}

func TestScanValueKinds(t *testing.T) {
	f, i, s, yes := 1.5, int64(-7), "s", true
	for _, c := range []struct {
		v    any
		json string
	}{
		{nil, "null"}, {2.25, "2.25"}, {float32(0.5), "0.5"}, {nanValue(), "null"}, {int(3), "3"},
		{int32(-4), "-4"}, {uint8(5), "5"}, {uint32(6), "6"}, {int64(1 << 60), "1152921504606846976"},
		{api.Some(int64(8)), "8"}, {api.Int{}, "null"}, {api.Some("t"), `"t"`}, {api.String{}, "null"},
		{api.Some(9.5), "9.5"}, {&f, "1.5"}, {&i, "-7"}, {&s, `"s"`}, {&yes, "true"}, {(*bool)(nil), "null"},
		{(*float64)(nil), "null"}, {(*int64)(nil), "null"}, {api.Date(20261120), `"2026-11-20"`},
		{api.Call, `"C"`}, {[]int{1, 2}, `"[1 2]"`}, {false, "false"},
	} {
		res := &api.ScanResult{Inputs: []api.ScanFieldParam{{Formula: "v"}},
			Output: []api.ScanRow{{Symbol: "S", Values: map[string]any{"v": c.v}}}}
		b := AppendScanResult(nil, api.JSON, res)
		if want := `{"symbol":"S","company_name":"","v":` + c.json + `}`; !strings.Contains(string(b), want) {
			t.Errorf("%T %v: %s, want %s", c.v, c.v, b, want)
		}
		if x := AppendScanResult(nil, api.XML, res); xml.Unmarshal(x, new(struct{})) != nil {
			t.Errorf("%T: invalid XML %s", c.v, x)
		}
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\nb\r\tc\x7f"); got != "a b  c " {
		t.Errorf("oneLine: %q", got)
	}
	long := strings.Repeat("é", 200) // 400 bytes
	if got := oneLine(long); len(got) > 303 || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("truncated: %d bytes, %q", len(got), got[len(got)-8:])
	}
}
