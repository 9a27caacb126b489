package wire

import (
	"encoding/json"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"chainwatch/api"
)

func nanValue() float64 { return math.NaN() }
func infValue() float64 { return math.Inf(1) }

// TestAppendFloatMatchesStrconv checks the fast path against strconv over
// values with every number of decimals, magnitudes around the path's
// bounds, full-precision values and special cases.
func TestAppendFloatMatchesStrconv(t *testing.T) {
	check := func(v float64) {
		if got, want := string(appendFloat(nil, v)), strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Fatalf("appendFloat(%v) = %s, strconv %s", v, got, want)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 0.3, 1e-9, 1e-10, 9.99e-10, 1e9, 1e9 - 1,
		999999999.999999, 1e6, 999999.999999999, 1e6 + 1e-6, 123456.789012345, 0.000001234, 5e-324,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 12.35, 6010.7, -0.0012, 2.5e-7, 1.0000000005,
		math.NaN(), math.Inf(1), math.Inf(-1), 0.1 + 0.2, 4503599627370496.5, 1 << 53} {
		check(v)
		check(-v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300_000 {
		mag := math.Pow10(r.IntN(22) - 11)
		v := r.Float64() * mag
		switch r.IntN(4) {
		case 0: // rounded to some decimals, as prices and greeks are
			v = round(v, r.IntN(12))
		case 1: // a multiple of a tick
			v = float64(r.IntN(1_000_000)) * 0.05
		case 2: // close to a bound of the fast path
			v = []float64{1e6, 1e9, 1e-9}[r.IntN(3)] * (1 + (r.Float64()-0.5)*1e-12)
		}
		if r.IntN(2) == 0 {
			v = -v
		}
		check(v)
	}
}

// perByte replaces each byte of invalid UTF-8 by U+FFFD.
func perByte(s string) string {
	var b strings.Builder
	for _, r := range s { // ranging yields U+FFFD for each invalid byte
		b.WriteRune(r)
	}
	return b.String()
}

func TestJSONStringEscaping(t *testing.T) {
	for _, s := range []string{"", "plain", odd, "\x00\x01\x1f\x7f", "a\"b\\c/d", "\b\f", "<script>&amp;</script>",
		"\u2028\u2029", "日本語", "\U0010FFFF", "x\xffy", "\xc3", "\xed\xa0\x80" /* a surrogate */} {
		b := appendJSONString(nil, s)
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("%q -> invalid JSON %s", s, b)
		}
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if want := perByte(s); got != want {
			t.Errorf("%q -> %s -> %q, want %q", s, b, got, want)
		}
		if strings.ContainsAny(string(b[1:len(b)-1]), "\n\r\t\u2028\u2029\x00") {
			t.Errorf("%q: raw control or separator in %s", s, b)
		}
	}
	if got := string(appendJSONString(nil, "a\xffb")); got != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8: %s", got)
	}
	if got := string(appendJSONString(nil, "\x01\n")); got != `"\u0001\n"` {
		t.Errorf("control: %s", got)
	}
}

func TestXMLTextEscaping(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{odd, odd}, // tab, newline, carriage return survive as character references
		{"a<b>&c]]>", "a<b>&c]]>"},
		{"\x00\x01\x1f x", "\uFFFD\uFFFD\uFFFD x"}, // XML 1.0 cannot carry them
		{"a\xffb\xed\xa0\x80", "a\uFFFDb\uFFFD\uFFFD\uFFFD"},
		{"\uFFFE\uFFFF\uFFFD", "\uFFFD\uFFFD\uFFFD"},
		{"\U0001F680 café", "\U0001F680 café"},
	} {
		b := appendXMLText(nil, c.in)
		var got struct {
			V string `xml:"v"`
		}
		doc := "<r><v>" + string(b) + "</v></r>"
		if err := xml.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatalf("%q -> %s: %v", c.in, b, err)
		}
		if got.V != c.want {
			t.Errorf("%q -> %s -> %q, want %q", c.in, b, got.V, c.want)
		}
	}
}

// TestEscapingInDocuments puts odd strings through whole documents in both
// formats.
func TestEscapingInDocuments(t *testing.T) {
	x := []api.Exchange{{ID: 9, Code: odd, Name: "\x01bad\xff"}}
	checkJSON(t, AppendExchanges(nil, api.JSON, x[:1:1]), []api.Exchange{{ID: 9, Code: odd, Name: "\x01bad\uFFFD"}})
	checkXMLList(t, AppendExchanges(nil, api.XML, x), "exchanges", "exchange",
		[]api.Exchange{{ID: 9, Code: odd, Name: "\uFFFDbad\uFFFD"}})
}

func TestDigits8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(x uint64) {
		d := digits8(x)
		var got [8]byte
		for i := range got {
			got[i] = byte(d>>(8*i)) + '0'
		}
		if want := strconv.FormatUint(x+1e8, 10)[1:]; string(got[:]) != want {
			t.Fatalf("digits8(%d) = %s", x, got)
		}
	}
	for x := range uint64(200_000) {
		check(x)
		check(99_999_999 - x)
	}
	for range 1_000_000 {
		check(r.Uint64N(1e8))
	}
	for _, v := range []int64{0, 1, 9, 10, 99, 100, 12345678, 99999999, 1e8, 1e8 + 1, -1, math.MinInt64, math.MaxInt64} {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Errorf("appendInt(%d) = %s", v, got)
		}
	}
}

// TestEscapersRandom checks both escapers on random strings mixing plain
// words with every kind of byte that needs a look, at every offset of the
// word-at-a-time scan.
func TestEscapersRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "SPXW", "0123456789", "\"", "\\", "<", ">", "&", "\x00", "\x1f", "\t", "\n", "\r", " ",
		"é", "✓", "\U0001F680", "\xff", "\u2028", "\x7f", "]]>", "'"}
	for range 20_000 {
		var sb strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		var j string
		if err := json.Unmarshal(appendJSONString(nil, s), &j); err != nil || j != perByte(s) {
			t.Fatalf("JSON %q -> %q, %v", s, j, err)
		}
		var x struct {
			V string `xml:"v"`
		}
		doc := "<r><v>" + string(appendXMLText(nil, s)) + "</v></r>"
		if err := xml.Unmarshal([]byte(doc), &x); err != nil || x.V != xmlExpected(s) {
			t.Fatalf("XML %q -> %q, %v", s, x.V, err)
		}
	}
}

// xmlExpected is what XML can carry of s: characters outside XML 1.0
// become U+FFFD.
func xmlExpected(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			r = '\uFFFD'
		}
		b.WriteRune(r)
	}
	return b.String()
}
