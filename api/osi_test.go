package api

import (
	"math"
	"strings"
	"testing"
)

func TestParseOSI(t *testing.T) {
	tests := []struct {
		in   string
		want OSI
	}{
		{"SPXW241220C05925000", OSI{"SPXW", 20241220, Call, 5925000}},
		{"SPX   241220C04125000", OSI{"SPX", 20241220, Call, 4125000}}, // OCC layout
		{"AAPL  250117P00150000", OSI{"AAPL", 20250117, Put, 150000}},
		{"spxw241220c05925000", OSI{"SPXW", 20241220, Call, 5925000}},
		{"  aapl250117P00150000\n", OSI{"AAPL", 20250117, Put, 150000}},
		{"A240229P00000001", OSI{"A", 20240229, Put, 1}},                   // leap day, smallest strike
		{"BRKB12991231C99999999", OSI{"BRKB12", 20991231, Call, 99999999}}, // six-character root, largest strike
		{"ABCDEF000101C00500000", OSI{"ABCDEF", 20000101, Call, 500000}},
	}
	for _, tt := range tests {
		got, err := ParseOSI(tt.in)
		if err != nil {
			t.Errorf("ParseOSI(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseOSI(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseOSIErrors(t *testing.T) {
	tests := []struct{ in, wantMsg string }{
		{"", "is empty"},
		{"   ", "is empty"},
		{"241220C05925000", "too short"},
		{"SPX241220C0592500", `expiry "X24122" must be six digits`}, // a seven-digit strike shifts the fields
		{"SPXWEEK241220C05925000", "too long"},
		{"SPX 241220C04125000", `root "SPX" is padded with spaces to 4 characters, not 6`},
		{"S PX  241220C04125000", `root "S PX" must be 1 to 6 letters or digits`},
		{"SP.X241220C04125000", `root "SP.X" must be 1 to 6 letters or digits`},
		{"      241220C04125000", "too short"}, // leading space is trimmed like any surrounding space
		{"SPXé241220C04125000", `must be 1 to 6 letters or digits`},
		{"SPX24122OC04125000", `expiry "24122O" must be six digits yymmdd`},
		{"SPX-41220C04125000", `expiry "-41220" must be six digits yymmdd`},
		{"SPXW241331C05925000", "expiry 241331 is not a date"},
		{"SPXW241200C05925000", "expiry 241200 is not a date"},
		{"SPXW230229C05925000", "expiry 230229 is not a date"},
		{"SPXW241220X05925000", `type "X" must be C or P`},
		{"SPXW241220 05925000", `type " " must be C or P`},
		{"SPXW241220C0592500A", `strike "0592500A" must be eight digits`},
		{"SPXW241220C-0592500", `strike "-0592500" must be eight digits`},
		{"SPXW241220C+0592500", `strike "+0592500" must be eight digits`},
		{"SPXW241220C00000000", "strike 00000000 is zero"},
	}
	for _, tt := range tests {
		_, err := ParseOSI(tt.in)
		if err == nil {
			t.Errorf("ParseOSI(%q) succeeded, want an error", tt.in)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "OSI symbol ") || !strings.Contains(msg, tt.wantMsg) {
			t.Errorf("ParseOSI(%q) error %q, want it to contain %q", tt.in, msg, tt.wantMsg)
		}
	}
}

func TestParseOSIErrorNamesInput(t *testing.T) {
	_, err := ParseOSI("SPXW241331C05925000")
	want := `OSI symbol "SPXW241331C05925000": expiry 241331 is not a date`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	_, err = ParseOSI(strings.Repeat("X", 10000))
	if err == nil || len(err.Error()) > 250 {
		t.Fatalf("long input not truncated in the message: %d bytes", len(err.Error()))
	}
}

func TestOSIRoundTrip(t *testing.T) {
	tests := []struct {
		strike float64
		symbol string
	}{
		{0.5, "SPX241220C00000500"},
		{7.25, "SPX241220C00007250"},
		{1234.5, "SPX241220C01234500"},
		{4125, "SPX241220C04125000"},
		{0.001, "SPX241220C00000001"},
		{99999.999, "SPX241220C99999999"},
	}
	for _, tt := range tests {
		o, err := NewOSI("SPX", 20241220, Call, tt.strike)
		if err != nil {
			t.Errorf("NewOSI(strike %v): %v", tt.strike, err)
			continue
		}
		if got := o.String(); got != tt.symbol {
			t.Errorf("strike %v: String() = %q, want %q", tt.strike, got, tt.symbol)
		}
		s, err := FormatOSI("spx", 20241220, Call, tt.strike)
		if err != nil || s != tt.symbol {
			t.Errorf("FormatOSI(strike %v) = %q, %v; want %q", tt.strike, s, err, tt.symbol)
		}
		p, err := ParseOSI(tt.symbol)
		if err != nil {
			t.Errorf("ParseOSI(%q): %v", tt.symbol, err)
			continue
		}
		if p != o {
			t.Errorf("ParseOSI(%q) = %+v, want %+v", tt.symbol, p, o)
		}
		if p.Strike() != tt.strike { // exact: no tolerance
			t.Errorf("ParseOSI(%q).Strike() = %v, want exactly %v", tt.symbol, p.Strike(), tt.strike)
		}
	}
}

func TestOSIStringUnpaddedRoot(t *testing.T) {
	o, err := ParseOSI("SPX   241220P04125000")
	if err != nil {
		t.Fatal(err)
	}
	if got := o.String(); got != "SPX241220P04125000" {
		t.Errorf("String() = %q, want the unpadded form", got)
	}
}

func TestNewOSIFloatNoise(t *testing.T) {
	// Strikes computed by arithmetic land a hair off the decimal value.
	for _, strike := range []float64{0.1 + 0.2, 7.249999999, 1234.5000004, 3 * 0.1} {
		if _, err := NewOSI("SPX", 20241220, Put, strike); err != nil {
			t.Errorf("NewOSI(strike %v): %v", strike, err)
		}
	}
	o, _ := NewOSI("SPX", 20241220, Put, 0.1+0.2)
	if o.StrikeMilli != 300 {
		t.Errorf("0.1+0.2 gave %d thousandths, want 300", o.StrikeMilli)
	}
}

func TestNewOSIErrors(t *testing.T) {
	tests := []struct {
		name    string
		root    string
		expiry  Date
		typ     OptionType
		strike  float64
		wantMsg string
	}{
		{"empty root", "", 20241220, Call, 100, "root"},
		{"long root", "SPXWEEK", 20241220, Call, 100, "root"},
		{"root with space", "SP X", 20241220, Call, 100, "root"},
		{"root with dot", "BRK.B", 20241220, Call, 100, "root"},
		{"zero expiry", "SPX", 0, Call, 100, "expiry"},
		{"no such day", "SPX", 20241231 + 1, Call, 100, "expiry"},
		{"before 2000", "SPX", 19991231, Call, 100, "expiry"},
		{"after 2099", "SPX", 21000101, Call, 100, "expiry"},
		{"empty type", "SPX", 20241220, "", 100, "type"},
		{"lower-case type", "SPX", 20241220, "c", 100, "type"},
		{"zero strike", "SPX", 20241220, Call, 0, "strike"},
		{"negative strike", "SPX", 20241220, Call, -1, "strike"},
		{"strike 100000", "SPX", 20241220, Call, 100000, "strike"},
		{"strike rounding to 100000", "SPX", 20241220, Call, 99999.9999999, "strike"},
		{"NaN strike", "SPX", 20241220, Call, math.NaN(), "strike"},
		{"Inf strike", "SPX", 20241220, Call, math.Inf(1), "strike"},
		{"ten-thousandths", "SPX", 20241220, Call, 7.2501, "whole number of thousandths"},
		{"half a thousandth", "SPX", 20241220, Call, 0.0005, "whole number of thousandths"},
		{"rounds to zero", "SPX", 20241220, Call, 1e-9, "strike"},
	}
	for _, tt := range tests {
		_, err := NewOSI(tt.root, tt.expiry, tt.typ, tt.strike)
		if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: NewOSI error %v, want one mentioning %q", tt.name, err, tt.wantMsg)
		}
		if s, err := FormatOSI(tt.root, tt.expiry, tt.typ, tt.strike); err == nil {
			t.Errorf("%s: FormatOSI = %q, want an error", tt.name, s)
		}
	}
}

func TestNewOSIJustInside(t *testing.T) {
	for _, tt := range []struct {
		root   string
		expiry Date
		strike float64
	}{
		{"A", 20000101, 0.001},
		{"ABCDE6", 20991231, 99999.999},
		{"spxw", 20240229, 1},
	} {
		o, err := NewOSI(tt.root, tt.expiry, Put, tt.strike)
		if err != nil {
			t.Errorf("NewOSI(%q, %v, %v): %v", tt.root, tt.expiry, tt.strike, err)
			continue
		}
		if p, err := ParseOSI(o.String()); err != nil || p != o {
			t.Errorf("%+v: ParseOSI(String()) = %+v, %v", o, p, err)
		}
	}
}
