package strategy

import (
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, symbol, legs string }{
		{"SPY 2026-12-18 +C700 -C710", "SPY", "+1 C700 2026-12-18|-1 C710 2026-12-18"},
		{"spy 2026-12-18 +2xc700, -2P650.5", "SPY", "+2 C700 2026-12-18|-2 P650.5 2026-12-18"},
		{"+SPY261218C00700000 -SPY261218C00710000", "SPY", "+1 C700 2026-12-18|-1 C710 2026-12-18"},
		{"SPY 2026-12-18 -C700 2027-01-15 +C700", "SPY", "-1 C700 2026-12-18|+1 C700 2027-01-15"},
		{"SPY +100xSPY 2026-12-18 -C710", "SPY", "+100 SPY|-1 C710 2026-12-18"},
		{"+SPXW261218C06000000 -SPX261218C06100000", "SPX", "+1 C6000 2026-12-18|-1 C6100 2026-12-18"},
		{"SPX +3SPXW261218P05000000", "SPX", "+3 P5000 2026-12-18"},
	} {
		st, err := Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		var got []string
		for i := range st.Legs {
			got = append(got, st.Legs[i].String())
		}
		if st.Symbol != c.symbol || strings.Join(got, "|") != c.legs {
			t.Errorf("%s: %s %v, want %s %s", c.in, st.Symbol, got, c.symbol, c.legs)
		}
		back, err := Parse(st.String())
		if err != nil || back.String() != st.String() {
			t.Errorf("%s: written back %q reads %q, %v", c.in, st.String(), back.String(), err)
		}
	}
}

func TestParseFill(t *testing.T) {
	st, err := Parse("SPY 2026-12-18 +C700@12.30")
	if err != nil || st.Legs[0].Price != 12.30 {
		t.Fatalf("%+v %v", st, err)
	}
	st, _ = Parse("SPY 2026-12-18 +C700")
	if !math.IsNaN(st.Legs[0].Price) {
		t.Fatalf("no fill given: %v", st.Legs[0].Price)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ in, says string }{
		{"", "empty strategy"},
		{"SPY", "no legs"},
		{"SPY 2026-12-18 +0C700", "quantity of 0"},
		{"SPY 2026-12-18 +10001C700", "at most 10000"},
		{"SPY 2026-12-18 +99999999999C700", "at most 10000"},
		{"SPY QQQ 2026-12-18 +C700", "two underlyings"},
		{"SPY 2026-12-18 +C700 +QQQ261218C00500000", "two underlyings"},
		{"+SPY261218C00700000 -QQQ261218C00500000", "two underlyings"},
		{"+AA0 AA", "two underlyings"},
		{"+SPXW +SPX261218C05000000", "two underlyings"},
		{"SPY +C700", "no expiry"},
		{"2026-12-18 +C700", "no symbol"},
		{"SPY 2026-13-18 +C700", "not a date"},
		{"SPY 2026-12-18 +C-5", "not a strike"},
		{"SPY 2026-12-18 +C700@x", "not a price"},
		{"SPY 2026-12-18 C700", "a leg starts with +"},
		{"SPY 2026-12-18 +\x1b[2J", `\x1b`},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want it to say %q", c.in, err, c.says)
		}
	}
}

func TestCheckDates(t *testing.T) {
	st, _ := Parse("SPY 2026-11-20 +C700")
	if err := st.CheckDates(20261124); err == nil || !strings.Contains(err.Error(), "expired on 2026-11-20") {
		t.Fatal(err)
	}
}

// FuzzParse: Parse never panics, every leg it accepts is within the
// limits, and what it accepts reads back the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"SPY 2026-12-18 +C700 -C710", "+SPY261218C00700000", "SPY +100xSPY 2026-12-18 -C710@2.5", "SPX +SPXW261218P05000000", "- + @ x", "SPY 2026-12-18 +1e300C1", "+AA0 AA", "+SPXW SPX", "+AA0 +AA261218C00010000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s)
		if err != nil {
			return
		}
		if len(st.Legs) == 0 || len(st.Legs) > MaxLegs {
			t.Fatalf("%q: %d legs", s, len(st.Legs))
		}
		for _, l := range st.Legs {
			if l.Qty == 0 || l.Qty > MaxQty || l.Qty < -MaxQty {
				t.Fatalf("%q: quantity %d", s, l.Qty)
			}
			if l.Option() && l.OSI() == "" {
				t.Fatalf("%q: leg %v has no OSI symbol", s, l)
			}
		}
		back, err := Parse(st.String())
		if err != nil || back.String() != st.String() {
			t.Fatalf("%q: written %q reads back %q (%v)", s, st.String(), back.String(), err)
		}
	})
}
