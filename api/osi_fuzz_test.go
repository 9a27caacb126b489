package api

import (
	"strings"
	"testing"
)

// FuzzParseOSI checks that ParseOSI never panics and that what it accepts is
// a fixed point: the canonical String parses back to the same contract,
// prints the same again, and NewOSI rebuilds it from its float strike. The
// seed corpus is in testdata/fuzz/FuzzParseOSI.
func FuzzParseOSI(f *testing.F) {
	for _, s := range []string{"SPXW241220C05925000", "SPX   241220P04125000", "a000101c00000001", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOSI(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "OSI symbol ") {
				t.Fatalf("ParseOSI(%q): error %q does not say what it parsed", s, err)
			}
			return
		}
		canon := o.String()
		o2, err := ParseOSI(canon)
		if err != nil {
			t.Fatalf("ParseOSI(%q) = %+v, but its String %q does not parse: %v", s, o, canon, err)
		}
		if o2 != o {
			t.Fatalf("ParseOSI(%q) = %+v, but ParseOSI(%q) = %+v", s, o, canon, o2)
		}
		if again := o2.String(); again != canon {
			t.Fatalf("String not stable: %q then %q", canon, again)
		}
		if !o.Expiry.Valid() || !o.Type.Valid() || o.StrikeMilli < 1 || o.StrikeMilli > osiMaxMilli {
			t.Fatalf("ParseOSI(%q) accepted an impossible contract %+v", s, o)
		}
		o3, err := NewOSI(o.Root, o.Expiry, o.Type, o.Strike())
		if err != nil || o3 != o {
			t.Fatalf("NewOSI from %+v = %+v, %v", o, o3, err)
		}
	})
}
