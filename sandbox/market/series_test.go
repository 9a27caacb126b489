package market

import (
	"math"
	"slices"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

func contracts(ss []Series) int {
	n := 0
	for _, s := range ss {
		n += 2 * len(s.Strikes)
	}
	return n
}

func TestChainSizes(t *testing.T) {
	u := Default()
	cases := []struct {
		sym      string
		min, max int
	}{{"SPX", 15000, 25000}, {"SPY", 2000, 8000}, {"QQQ", 2000, 8000}, {"AAPL", 300, 2000}, {"KO", 100, 1000}, {"F", 100, 1000}}
	for _, c := range cases {
		s := lookup(t, u, c.sym)
		for _, d := range []api.Date{Anchor, 20261001, 20250613, 20240102, 20230601, 20221114} {
			if n := contracts(u.Series(s, d)); n < c.min || n > c.max {
				t.Errorf("%s on %v: %d contracts, want %d to %d", c.sym, d, n, c.min, c.max)
			}
		}
	}
}

func TestSeriesShape(t *testing.T) {
	u := Default()
	for _, s := range u.Optionable() {
		for _, d := range []api.Date{Anchor, 20261127, 20240328, 20150615} {
			if d < s.Since || d < u.model(s).specs[0].from {
				continue // not listed yet (IBIT's options came ten months after it)
			}
			checkSeries(t, s, d, u.Series(s, d))
		}
	}
}

func checkSeries(t *testing.T, s *Security, d api.Date, ss []Series) {
	t.Helper()
	if len(ss) == 0 {
		t.Errorf("%s %v: nothing listed", s.Symbol, d)
		return
	}
	for i, x := range ss {
		if !slices.Contains(s.Roots, x.Root) {
			t.Fatalf("%s %v: root %s", s.Symbol, d, x.Root)
		}
		if i > 0 {
			p := ss[i-1]
			if p.Root > x.Root || p.Root == x.Root && p.Expiry >= x.Expiry {
				t.Fatalf("%s %v: %s %v after %s %v", s.Symbol, d, x.Root, x.Expiry, p.Root, p.Expiry)
			}
		}
		if !market.IsTradingDay(x.Expiry) || x.Expiry < d || x.AMSettled && x.Expiry == d {
			t.Fatalf("%s %v: expiry %v (AM %v)", s.Symbol, d, x.Expiry, x.AMSettled)
		}
		if len(x.Strikes) < 5 {
			t.Fatalf("%s %v %v: %d strikes", s.Symbol, d, x.Expiry, len(x.Strikes))
		}
		for j, k := range x.Strikes {
			if k <= 0 || k*2 != math.Trunc(k*2) || k >= 100000 || j > 0 && k <= x.Strikes[j-1] {
				t.Fatalf("%s %v %v: strikes %v", s.Symbol, d, x.Expiry, x.Strikes)
			}
		}
	}
}

func TestSeriesRules(t *testing.T) {
	u := Default()
	spx := lookup(t, u, "SPX")
	ss := u.Series(spx, Anchor)
	has := func(root string, e api.Date) bool {
		return slices.ContainsFunc(ss, func(x Series) bool { return x.Root == root && x.Expiry == e })
	}
	// Today's SPXW expires today (PM); the AM-settled SPX of today stopped
	// trading yesterday; the December AM monthly and the LEAPS are listed.
	for _, c := range []struct {
		root string
		e    api.Date
		want bool
	}{
		{"SPXW", Anchor, true}, {"SPX", Anchor, false}, {"SPX", 20261218, true}, {"SPXW", 20261123, true},
		{"SPXW", 20261231, true}, {"SPX", 20311219, true}, {"SPXW", 20261126, false}, {"SPX", 20270115, true},
	} {
		if has(c.root, c.e) != c.want {
			t.Errorf("SPX on Anchor: %s %v listed %v, want %v", c.root, c.e, !c.want, c.want)
		}
	}
	for _, x := range ss {
		if x.AMSettled != (x.Root == "SPX") {
			t.Errorf("%s %v AM %v", x.Root, x.Expiry, x.AMSettled)
		}
	}
	// Monthly on Thursday when the third Friday is a holiday (Good Friday 2025).
	if e := dateOf(monthlyExpiry(2025, time.April)); e != 20250417 {
		t.Errorf("April 2025 monthly on %v", e)
	}
	for _, x := range u.Series(lookup(t, u, "VIX"), Anchor) {
		if wd := x.Expiry.Weekday(); wd != time.Wednesday && wd != time.Tuesday || !x.AMSettled {
			t.Errorf("VIX expiry %v on %v", x.Expiry, wd)
		}
	}
	if e := dateOf(vixExpiry(2026, time.November)); e != 20261118 {
		t.Errorf("November 2026 VIX expiry %v, want 2026-11-18", e)
	}
	// 2003: no SPX weeklies yet; stocks list LEAPS Januaries past two years.
	for _, x := range u.Series(spx, 20030505) {
		if x.Root != "SPX" {
			t.Errorf("2003 lists %s %v", x.Root, x.Expiry)
		}
	}
	aapl := u.Series(lookup(t, u, "AAPL"), Anchor)
	last := aapl[len(aapl)-1].Expiry
	if last.Month() != time.January || last.Year() < 2028 {
		t.Errorf("AAPL's last expiry %v is no LEAPS", last)
	}
	if u.Series(lookup(t, u, "BRK.A"), Anchor) != nil || u.Series(lookup(t, u, "META"), 20120101) != nil {
		t.Error("a security without options on the day lists series")
	}
	// A weekend asks for the Friday's listing.
	if got, want := contracts(u.Series(spx, 20261122)), contracts(ss); got != want {
		t.Errorf("Sunday lists %d contracts, Friday %d", got, want)
	}
	// Strikes sit on their increment near the money: SPX 5, SPY 1.
	for sym, inc := range map[string]float64{"SPX": 5, "SPY": 1} {
		s := lookup(t, u, sym)
		for _, k := range u.Series(s, Anchor)[1].Strikes {
			if math.Abs(k/s.Price-1) < 0.01 && math.Mod(k, inc) != 0 {
				t.Errorf("%s strike %v off the %v grid", sym, k, inc)
			}
		}
	}
}

func BenchmarkSeriesSPX(b *testing.B) {
	u := Default()
	spx := lookup(b, u, "SPX")
	for b.Loop() {
		u.Series(spx, Anchor)
	}
}

func BenchmarkSeriesAAPL(b *testing.B) {
	u := Default()
	s := lookup(b, u, "AAPL")
	for b.Loop() {
		u.Series(s, Anchor)
	}
}
