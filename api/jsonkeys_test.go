package api

import (
	"strings"
	"testing"
)

// TestMemberKeyFindsEveryName: each table's names are found, by words
// where the table has them, whatever follows the key and however near the
// end of the body it stands; keys one byte off a name are not.
func TestMemberKeyFindsEveryName(t *testing.T) {
	taq, _ := taqTable()
	for _, tc := range []struct {
		name  string
		d     *structDesc
		words bool
	}{
		{"OptionData", descOf[OptionData](), true},
		{"SymbolWithOptions", descOf[SymbolWithOptions](), false},
		{"Symbol", descOf[Symbol](), false},
		{"OptionTrade", descOf[OptionTrade](), true},
		{"OptionTradeWithGreeks", descOf[OptionTradeWithGreeks](), true},
		{"TAQ", taq, false},
	} {
		d := tc.d
		if tc.words && d.keys.words == nil {
			t.Errorf("%s: no words table; its names must differ in their first 16 bytes", tc.name)
		}
		find := func(body string) (int, string) {
			s := newScanner([]byte(body))
			i, key, ok := s.memberKey(d)
			if !ok {
				t.Fatalf("%s: %q: %v", tc.name, body, s.err)
			}
			return i, string(key)
		}
		for want, f := range d.fields {
			for _, after := range []string{`:1}`, `:"` + strings.Repeat("x", 40) + `"}`, ``, `"`, `:"\"\"\"\"\"\"\"\""`} {
				body := `"` + f.name + `"` + after
				if i, key := find(body); i != want || key != f.name {
					t.Errorf("%s: %q found field %d (key %q), want %d", tc.name, body, i, key, want)
				}
				if d.keys.words != nil && len(body) >= 25 {
					if i, n := d.keys.byWords(d.fields, []byte(body), 1); i != want || n != len(f.name) {
						t.Errorf("%s: %q by words: field %d, length %d", tc.name, body, i, n)
					}
				}
			}
			// Keys one byte off a name, or unknown: memberKey answers what
			// the plain lookup of the whole key does.
			for _, off := range []string{f.name + "x", f.name[:len(f.name)-1], "x" + f.name, "x_" + f.name[1:],
				f.name[:len(f.name)-1] + "_", strings.ToUpper(f.name[:1]) + f.name[1:], f.name + "é", "x"} {
				body := `"` + off + `":` + strings.Repeat(`"`+f.name+`",`, 3)
				if i, key := find(body); i != d.lookup([]byte(off)) || key != off {
					t.Errorf("%s: %q found field %d, key %q; lookup says %d", tc.name, off, i, key, d.lookup([]byte(off)))
				}
			}
			if i, _ := find(`"` + strings.ToUpper(f.name) + `":1`); d.lower && i != d.byName[f.name] {
				t.Errorf("%s: %q not found by folding", tc.name, strings.ToUpper(f.name))
			}
			if i, _ := find(`"` + f.name[:1] + `\u00` + hex2(f.name[1]) + f.name[2:] + `":1`); len(f.name) > 1 && i != want {
				t.Errorf("%s: escaped %q found field %d", tc.name, f.name, i)
			}
		}
	}
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
