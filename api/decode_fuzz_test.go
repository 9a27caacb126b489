package api

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets below hold the table-driven JSON decoder to encoding/json
// (the direction "the standard library accepts ⇒ the scanner accepts and
// reads the same value"; the scanner may accept more) and check that the
// other decoders never panic. Seed corpora are in testdata/fuzz/<FuzzName>.

// stdlibQuirk reports why encoding/json is known to read b in a way the
// scanner deliberately does not, or "" when both should read it the same.
// b must be JSON that encoding/json accepted; chain is true for the chain
// body (a top-level object holding "options").
//
// The one quirk: "options" twice (in any case). encoding/json decodes the
// second array into the elements of the first, merging their fields
// (golang/go#21092); the scanner starts afresh, as a last-wins reading
// should.
func stdlibQuirk(b []byte, chain bool) string {
	if !chain {
		return ""
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	depth, wantKey, options := 0, false, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if depth == 1 && wantKey {
			if key, _ := tok.(string); strings.EqualFold(key, "options") {
				if options++; options > 1 {
					return "options key twice"
				}
			}
			wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		// After a complete value in the top-level object, a key follows.
		wantKey = depth == 1
	}
}

// checkSameAsStdlib asserts the differential property on one input: if
// json.Unmarshal into a T accepts b, decode must accept it and give an equal
// value. Inputs that are not valid UTF-8 are only checked not to panic.
func checkSameAsStdlib[T any](t *testing.T, b []byte, chain bool, decode func([]byte) (T, error)) {
	got, err := decode(b)
	if !utf8.Valid(b) {
		return
	}
	var want T
	if json.Unmarshal(b, &want) != nil {
		return // the scanner may be more lenient
	}
	if why := stdlibQuirk(b, chain); why != "" {
		t.Skipf("encoding/json quirk (%s)", why)
	}
	if err != nil {
		t.Fatalf("encoding/json accepts %q, the scanner fails: %v", b, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("input %q:\n scanner %+v\nstdlib  %+v", b, got, want)
	}
}

func chainValue(b []byte) (SymbolWithOptions, error) {
	c, err := decodeChain(b, JSON)
	if err != nil {
		return SymbolWithOptions{}, err
	}
	return *c, nil
}

func jsonDecoder[T any](dec func([]byte, Format) (T, error)) func([]byte) (T, error) {
	return func(b []byte) (T, error) { return dec(b, JSON) }
}

// smallChainJSON is a one-contract chain from the benchmark's generator.
func smallChainJSON(f *testing.F) []byte {
	c := genChain(1, 2)
	return genJSON(f, c)
}

func genJSON(f *testing.F, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func FuzzDecodeChainJSON(f *testing.F) {
	f.Add(smallChainJSON(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSameAsStdlib(t, b, true, chainValue)
	})
}

func FuzzDecodeSymbolsJSON(f *testing.F) {
	f.Add(genJSON(f, []Symbol{{Underlying: genChain(1, 3).Underlying, ImpliedUnderlyingIndicator: Some(Yellow)}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSameAsStdlib(t, b, false, jsonDecoder(decodeSymbols))
	})
}

func FuzzDecodeOptionTradesJSON(f *testing.F) {
	f.Add(genJSON(f, []OptionTrade{{Security: Some("SPXW241220C05925000"), Root: "SPXW", Expiry: NewDate(2024, 12, 20),
		Strike: 5925, OptionType: Call, Ask: Some(12.5), Price: Some(12.4), Size: 3, TradeAt: MidMarket,
		ConditionID: 18, ExchangeID: 7, ExchangeSeqNo: 1 << 40, CancelFlag: TradeCanceled,
		Timestamp: NewTimeOfDay(9, 30, 0, 1), SeqNo: 42}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSameAsStdlib(t, b, false, jsonDecoder(decodeOptionTrades))
	})
}

func FuzzDecodeTradesWithGreeksJSON(f *testing.F) {
	f.Add(genJSON(f, []OptionTradeWithGreeks{{IV: Some(0.21), Delta: Some(-0.4), DollarDelta: Some(-123456.78),
		UnderlyingBid: Some(5921.2), Trade: Trade{Size: 2, Price: Some(1.05), Flag: TradeCancel,
			Time: NewTimeOfDay(15, 59, 59, 999), ExchangeID: 255, NBBOBidSize: Some[int64](0)}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSameAsStdlib(t, b, false, jsonDecoder(decodeTradesWithGreeks))
	})
}

// FuzzDecodeTAQJSON checks that every record the trades-and-quotes decoder
// returns has one of the three kinds, and that writing each record's part
// back with encoding/json reads back the same records.
func FuzzDecodeTAQJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := decodeTAQ(b, JSON)
		if err != nil {
			return
		}
		parts := make([]any, len(recs))
		for i, r := range recs {
			switch r.Kind {
			case KindTrade:
				parts[i] = r.Trade
			case KindQuote:
				parts[i] = r.Quote.Quote // without the underlying keys, which mean an option quote
			case KindOptionQuote:
				parts[i] = r.Quote
			default:
				t.Fatalf("input %q: record %d has kind %d", b, i, r.Kind)
			}
		}
		if recs == nil {
			parts = nil // null reads back as no records
		}
		again, err := json.Marshal(parts)
		if err != nil {
			t.Fatalf("input %q: re-encoding %+v: %v", b, recs, err)
		}
		recs2, err := decodeTAQ(again, JSON)
		if err != nil {
			t.Fatalf("input %q: re-encoded %s does not decode: %v", b, again, err)
		}
		if !reflect.DeepEqual(recs, recs2) {
			t.Fatalf("input %q: round trip through %s:\n first %+v\nsecond %+v", b, again, recs, recs2)
		}
	})
}

// FuzzDecodeXML runs one of the XML readers, chosen by which, on data: none
// may panic, whatever the input.
func FuzzDecodeXML(f *testing.F) {
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		switch which % 7 {
		case 0:
			decodeChain(data, XML)
		case 1:
			decodeSymbols(data, XML)
		case 2:
			decodeOptionTrades(data, XML)
		case 3:
			decodeTradesWithGreeks(data, XML)
		case 4:
			recs, err := decodeTAQ(data, XML)
			if err == nil {
				for i, r := range recs {
					if r.Kind < KindTrade || r.Kind > KindOptionQuote {
						t.Fatalf("input %q: record %d has kind %d", data, i, r.Kind)
					}
				}
			}
		case 5:
			ev, err := xmlEvents(data)
			if err == nil {
				for i, e := range ev {
					if e.Kind > KindDividend {
						t.Fatalf("input %q: event %d has kind %d", data, i, e.Kind)
					}
				}
			}
		case 6:
			xmlScanResult(data)
		}
	})
}

func FuzzDecodeCalendarJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var ev []CalendarEvent
		if json.Unmarshal(b, &ev) != nil {
			return
		}
		for i, e := range ev {
			if e.Kind > KindDividend { // 0 is an event of neither kind, which Calendar drops
				t.Fatalf("input %q: event %d has kind %d", b, i, e.Kind)
			}
		}
	})
}

func FuzzDecodeScanResultJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var r ScanResult
		json.Unmarshal(b, &r)
	})
}

// FuzzNullFloatJSON checks that what Float reads it writes as valid JSON
// that reads back to the same value.
func FuzzNullFloatJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var v Float
		if v.UnmarshalJSON(b) != nil {
			return
		}
		out, err := v.MarshalJSON()
		if err != nil {
			t.Fatalf("input %q read as %+v does not write: %v", b, v, err)
		}
		if !json.Valid(out) {
			t.Fatalf("input %q read as %+v writes invalid JSON %q", b, v, out)
		}
		var v2 Float
		if err := v2.UnmarshalJSON(out); err != nil {
			t.Fatalf("input %q: written %q does not read back: %v", b, out, err)
		}
		if v2 != v || math.Signbit(v2.V) != math.Signbit(v.V) {
			t.Fatalf("input %q: %+v written %q reads back as %+v", b, v, out, v2)
		}
	})
}

// TestDecodeChainEdgeCases compares the scanner with encoding/json on the
// corners of the JSON grammar and of the field mapping.
func TestDecodeChainEdgeCases(t *testing.T) {
	const (
		same   = iota // both accept and agree
		reject        // both reject
	)
	tests := []struct {
		name  string
		in    string
		want  int
		check func(t *testing.T, c *SymbolWithOptions)
	}{
		{name: "escapes", in: `{"symbol":"\u00e9\"\\\/\b\f\n\r\t"}`, check: func(t *testing.T, c *SymbolWithOptions) {
			if c.Symbol != "é\"\\/\b\f\n\r\t" {
				t.Errorf("symbol %q", c.Symbol)
			}
		}},
		{name: "raw unicode", in: `{"symbol":"SPX€日本"}`},
		{name: "surrogate pair", in: `{"symbol":"\ud83d\ude00x"}`, check: func(t *testing.T, c *SymbolWithOptions) {
			if c.Symbol != "😀x" {
				t.Errorf("symbol %q", c.Symbol)
			}
		}},
		{name: "lone high surrogate", in: `{"symbol":"\ud83dx"}`},
		{name: "lone low surrogate", in: `{"symbol":"\ude00"}`},
		{name: "high surrogate then escape", in: `{"symbol":"\ud83d\u0041"}`},
		{name: "two high surrogates", in: `{"symbol":"\ud83d\ud83d\ude00"}`},
		{name: "escaped key", in: `{"\u0073ymbol":"A","option\u0073":[]}`},
		{name: "exponent", in: `{"iv30":1e-7,"iv30_change":1.5E+3,"options":[{"strike":2.5e3,"delta":-1E-2}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.IV30.V != 1e-7 || c.IV30Change.V != 1500 || c.Options[0].Strike != 2500 {
					t.Errorf("read %v %v %v", c.IV30, c.IV30Change, c.Options[0].Strike)
				}
			}},
		{name: "negative zero", in: `{"iv30":-0,"iv30_change":-0.0,"options":[{"strike":-0e0}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if !math.Signbit(c.IV30.V) || !math.Signbit(c.IV30Change.V) || !math.Signbit(c.Options[0].Strike) {
					t.Errorf("sign lost: %v %v %v", c.IV30.V, c.IV30Change.V, c.Options[0].Strike)
				}
			}},
		{name: "long digits", in: `{"iv30":0.1234567890123456789,"iv30_change":12345678901234567890123,"underlying_bid":0.0000000000000000000000001}`},
		{name: "fast path limits", in: `{"iv30":999999999999999,"iv30_change":0.000000000000000000001,"underlying_bid":1234567890.12345}`},
		{name: "big int", in: `{"seq_no":9223372036854775807,"underlying_volume":-9223372036854775808}`},
		{name: "int overflow", in: `{"seq_no":9223372036854775808}`, want: reject},
		{name: "int with fraction", in: `{"seq_no":1.0}`, want: reject},
		{name: "int with exponent", in: `{"seq_no":1e3}`, want: reject},
		{name: "float overflow", in: `{"iv30":1e400}`, want: reject},
		{name: "float underflow", in: `{"iv30":1e-400}`},
		{name: "plus sign", in: `{"iv30":+1}`, want: reject},
		{name: "plus sign int", in: `{"seq_no":+1}`, want: reject},
		{name: "leading zero", in: `{"iv30":01}`, want: reject},
		{name: "leading zero int", in: `{"seq_no":007}`, want: reject},
		{name: "bare point", in: `{"iv30":1.}`, want: reject},
		{name: "empty exponent", in: `{"iv30":1e}`, want: reject},
		{name: "hex", in: `{"iv30":0x10}`, want: reject},
		{name: "NaN", in: `{"iv30":NaN}`, want: reject},
		{name: "other case keys", in: `{"SYMBOL":"A","Underlying_Bid":1,"options":[{"Option_Bid":2.5,"ROOT":"SPXW","Strike":5}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.Symbol != "A" || c.Bid != Some(1.0) || c.Options[0].Bid != Some(2.5) || c.Options[0].Root != "SPXW" {
					t.Errorf("read %+v", c)
				}
			}},
		{name: "unicode case fold", in: `{"ſymbol":"A","underlying_asK":1}`},
		{name: "unknown nested keys", in: `{"x":{"a":[1,{"b":null,"options":[{"root":"Z"}]}],"c":"}"},"options":[{"y":[[],{}],"root":"R","z":{"root":"Q"}}],"t":true,"f":false,"n":null}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if len(c.Options) != 1 || c.Options[0].Root != "R" {
					t.Errorf("read %+v", c.Options)
				}
			}},
		// Unknown members are stepped over without decoding, yet they must
		// be refused exactly where a decoded value would be.
		{name: "unknown string escapes", in: `{"x":"\"}\\\/\b\f\n\r\t\u00E9\ud83d\ude00\"","y":["\\",{"\"k\\":"v"}],"symbol":"A"}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.Symbol != "A" {
					t.Errorf("symbol %q", c.Symbol)
				}
			}},
		{name: "unknown raw unicode", in: `{"x":"日本€","symbol":"A"}`},
		{name: "unknown bad escape", in: `{"x":"\x41"}`, want: reject},
		{name: "unknown short unicode escape", in: `{"x":"\u12"}`, want: reject},
		{name: "unknown bad unicode escape", in: `{"x":"\u12G4"}`, want: reject},
		{name: "unknown control character", in: "{\"x\":\"a\nb\"}", want: reject},
		{name: "unknown unterminated", in: `{"x":"abc\"}`, want: reject},
		{name: "unknown nested bad escape", in: `{"x":[{"a":"\q"}]}`, want: reject},
		{name: "unknown nested bad key", in: `{"x":{"a\q":1}}`, want: reject},
		{name: "unknown nested key not a string", in: `{"x":{1:2}}`, want: reject},
		{name: "unknown empty member", in: `{"x":[1,,2]}`, want: reject},
		{name: "duplicate keys", in: `{"symbol":"A","symbol":"B","iv30":1,"iv30":null,"seq_no":null,"seq_no":5,"options":[{"root":"X","root":"Y","option_bid":null,"option_bid":1}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.Symbol != "B" || c.IV30.Valid || c.SeqNo != Some[int64](5) || c.Options[0].Root != "Y" || c.Options[0].Bid != Some(1.0) {
					t.Errorf("read %+v", c)
				}
			}},
		{name: "null into plain fields", in: `{"symbol":null,"timestamp":null,"options":[{"root":null,"strike":null,"expiry":null,"option_type":null}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.Symbol != "" || c.Options[0] != (OptionData{}) {
					t.Errorf("read %+v", c)
				}
			}},
		{name: "null after value in plain field", in: `{"symbol":"A","symbol":null,"options":[{"strike":5,"strike":null}]}`,
			check: func(t *testing.T, c *SymbolWithOptions) {
				if c.Symbol != "A" || c.Options[0].Strike != 5 {
					t.Errorf("a null overwrote a plain field: %+v", c)
				}
			}},
		{name: "empty", in: `{}`},
		{name: "empty options", in: ` { "options" : [ ] } `, check: func(t *testing.T, c *SymbolWithOptions) {
			if c.Options == nil || len(c.Options) != 0 {
				t.Errorf("options %#v", c.Options)
			}
		}},
		{name: "null options", in: `{"options":[{}],"options":null}`},
		{name: "dates and times", in: `{"timestamp":"09:30:00","options":[{"expiry":"2024-12-20T00:00:00","timestamp":" 15:59:59.999999 "}]}`},
		{name: "bad date", in: `{"options":[{"expiry":"2024-02-30"}]}`, want: reject},
		{name: "date not a string", in: `{"options":[{"expiry":20241220}]}`, want: reject},
		{name: "string for number", in: `{"iv30":"1.5"}`, want: reject},
		{name: "number for string", in: `{"symbol":1}`, want: reject},
		{name: "trailing garbage", in: `{"symbol":"A"}x`, want: reject},
		{name: "two values", in: `{} {}`, want: reject},
		{name: "trailing comma object", in: `{"symbol":"A",}`, want: reject},
		{name: "trailing comma array", in: `{"options":[{},]}`, want: reject},
		{name: "missing comma", in: `{"symbol":"A" "iv30":1}`, want: reject},
		{name: "control character", in: "{\"symbol\":\"a\tb\"}", want: reject},
		{name: "bad escape", in: `{"symbol":"\x41"}`, want: reject},
		{name: "short unicode escape", in: `{"symbol":"\u12"}`, want: reject},
		{name: "single quotes", in: `{'symbol':'A'}`, want: reject},
		{name: "bad literal", in: `{"x":nul}`, want: reject},
		{name: "bad literal in value", in: `{"iv30":tru}`, want: reject},
		{name: "not an object", in: `[]`, want: reject},
		{name: "empty input", in: ``, want: reject},
		{name: "top-level null", in: ` null `},
		{name: "null contract", in: `{"options":[null,{"root":"X"},null]}`, check: func(t *testing.T, c *SymbolWithOptions) {
			if len(c.Options) != 3 || c.Options[1].Root != "X" || c.Options[0] != (OptionData{}) {
				t.Errorf("options %+v", c.Options)
			}
		}},
		{name: "options in other case", in: `{"Options":[{"root":"X"}]}`, check: func(t *testing.T, c *SymbolWithOptions) {
			if len(c.Options) != 1 || c.Options[0].Root != "X" {
				t.Errorf("options %+v", c.Options)
			}
		}},
		{name: "null then options", in: `{"options":null,"OPTIONS":[{}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(tc.in)
			got, err := decodeChain(b, JSON)
			var want SymbolWithOptions
			werr := json.Unmarshal(b, &want)
			switch {
			case tc.want == reject:
				if werr == nil {
					t.Fatalf("encoding/json accepts %s; the table is wrong", tc.in)
				}
				if err == nil {
					t.Fatalf("the scanner accepts %s as %+v; encoding/json: %v", tc.in, got, werr)
				}
				return
			case werr != nil:
				t.Fatalf("encoding/json rejects %s: %v; the table is wrong", tc.in, werr)
			case err != nil || !reflect.DeepEqual(*got, want):
				if err != nil {
					t.Fatalf("the scanner rejects %s: %v", tc.in, err)
				}
				t.Fatalf("%s:\n scanner %+v\nstdlib  %+v", tc.in, *got, want)
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// TestDecodeChainTruncated cuts a small chain at every byte: each prefix
// must fail with an error, never panic or succeed.
func TestDecodeChainTruncated(t *testing.T) {
	full := []byte(`{"symbol":"SP\u0058","iv30":-1.5e-3,"options":[{"root":"SPXW","expiry":"2024-12-20","option_bid":null,"x":[{"y":"\ud83d\ude00"}]}]}`)
	if _, err := decodeChain(full, JSON); err != nil {
		t.Fatal(err)
	}
	for n := range len(full) {
		if c, err := decodeChain(full[:n], JSON); err == nil {
			t.Fatalf("prefix %q accepted as %+v", full[:n], c)
		}
	}
	for _, dec := range []func([]byte) error{
		func(b []byte) error { _, err := decodeSymbols(b, JSON); return err },
		func(b []byte) error { _, err := decodeTAQ(b, JSON); return err },
	} {
		list := []byte(`[{"price":1.5,"size":2},{"bid":1,"underlying_bid":null}]`)
		for n := range len(list) {
			if err := dec(list[:n]); err == nil {
				t.Fatalf("prefix %q accepted", list[:n])
			}
		}
	}
}

// TestStdlibQuirk keeps the fuzz targets' filter narrow: it must name the
// duplicate options key and nothing else.
func TestStdlibQuirk(t *testing.T) {
	for _, tc := range []struct {
		in    string
		chain bool
		quirk bool
	}{
		{`{"options":[],"options":null}`, true, true},
		{`{"options":[{}],"Options":[{}]}`, true, true},
		{`{"x":[1,{"options":[]}],"y":{"options":2},"OPTIONS":[{"options":[]}]}`, true, false},
		{`{"options":"options","x":{"options":[]}}`, true, false},
		{`null`, true, false},
		{`[{"options":[]},{"options":[]}]`, false, false},
	} {
		if got := stdlibQuirk([]byte(tc.in), tc.chain) != ""; got != tc.quirk {
			t.Errorf("stdlibQuirk(%s, chain=%v) = %v, want %v", tc.in, tc.chain, got, tc.quirk)
		}
	}
}

// TestDecodeChainHintBounded: braces inside strings must not make the
// decoder reserve memory out of proportion to the input.
func TestDecodeChainHintBounded(t *testing.T) {
	b := []byte(`{"options":[],"symbol":"` + strings.Repeat("{", 1<<20) + `"}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := decodeChain(b, JSON)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	allocated := int64(after.TotalAlloc - before.TotalAlloc)
	if allocated > int64(4*len(b)) {
		t.Fatalf("decoding %d bytes allocated %d bytes", len(b), allocated)
	}
}

// TestDecodeDeepNestingIsAnError: an unknown key holding deeply nested
// arrays is refused past encoding/json's depth limit instead of recursing
// until the stack overflows, which would kill the program.
func TestDecodeDeepNestingIsAnError(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if _, err := decodeChain([]byte(`{"x":`+deep+`}`), JSON); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("chain: error %v, want a nesting error", err)
	}
	if _, err := decodeOptionTrades([]byte(`[{"x":`+deep+`}]`), JSON); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("trades: error %v, want a nesting error", err)
	}
	shallow := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if _, err := decodeChain([]byte(`{"x":`+shallow+`,"symbol":"SPX"}`), JSON); err != nil {
		t.Fatalf("a nesting of 100 is fine: %v", err)
	}
}
