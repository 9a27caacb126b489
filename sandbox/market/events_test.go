package market

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

func TestEarnings(t *testing.T) {
	u := Default()
	today := Anchor
	for _, s := range u.All() {
		evs := u.Earnings(s, 20030101, 20300101, today)
		if s.Kind != Stock {
			if len(evs) != 0 || u.EarningsMove(s) != 0 {
				t.Errorf("%s reports earnings", s.Symbol)
			}
			continue
		}
		if m := u.EarningsMove(s); m < 0.02 || m > 0.12 {
			t.Errorf("%s: earnings move %v", s.Symbol, m)
		}
		years := float64(dayNum(20300101)-dayNum(max(s.Since, 20030101))) / 365.25
		if n := float64(len(evs)); n < 4*years-2 || n > 4*years+2 {
			t.Errorf("%s: %v reports in %.1f years", s.Symbol, n, years)
		}
		for i, e := range evs {
			if i > 0 && e.ReportDate <= evs[i-1].ReportDate {
				t.Fatalf("%s: reports out of order at %v", s.Symbol, e.ReportDate)
			}
			if i > 0 && (e.Quarter != evs[i-1].Quarter%4+1 || e.Quarter == 1 && e.Year != evs[i-1].Year+1) {
				t.Fatalf("%s: FY%d Q%d follows FY%d Q%d", s.Symbol, e.Year, e.Quarter, evs[i-1].Year, evs[i-1].Quarter)
			}
			if !market.IsTradingDay(e.ReportDate) || e.ReportDate < s.Since {
				t.Fatalf("%s: report on %v", s.Symbol, e.ReportDate)
			}
			if e.EPSActual.Valid != (e.ReportDate < today) || !e.EPSEstimate.Valid {
				t.Fatalf("%s %v: actual %v estimate %v", s.Symbol, e.ReportDate, e.EPSActual, e.EPSEstimate)
			}
			wantType := "Confirmed"
			if e.ReportDate.Time(time.UTC).Sub(today.Time(time.UTC)) > 42*24*time.Hour {
				wantType = "Estimated"
			}
			if e.ReportDateType != wantType || e.ActualCurrency != "USD" || e.UnderlyingSymbol != s.Symbol || e.CompanyName != s.Name {
				t.Fatalf("%s: %+v", s.Symbol, e)
			}
			if e.TimeOfDay != api.BeforeOpen && e.TimeOfDay != api.AfterClose && e.TimeOfDay != api.DuringMarket {
				t.Fatalf("%s: time of day %q", s.Symbol, e.TimeOfDay)
			}
		}
	}
	aapl := lookup(t, u, "AAPL")
	// Apple's fiscal year ends in September: the December quarter is Q1 of
	// the next fiscal year, reported in late January or February.
	for _, e := range u.Earnings(aapl, 20260101, 20261231, today) {
		q1 := e.Quarter == 1
		if q1 != (e.ReportDate.Month() <= time.February) || q1 && e.Year != 2026 || e.TimeOfDay != api.AfterClose {
			t.Errorf("AAPL: FY%d Q%d on %v %s", e.Year, e.Quarter, e.ReportDate, e.TimeOfDay)
		}
		if est := e.EPSEstimate.V; math.Abs(est/(aapl.EPS/4)-1) > 0.25 {
			t.Errorf("AAPL: estimate %v for an annual EPS of %v", est, aapl.EPS)
		}
	}
	if evs := u.Earnings(aapl, 20261101, 20261231, 20261101); len(evs) == 0 || evs[0].EPSActual.Valid {
		t.Error("a report after today has an actual")
	}
}

func TestNextEarnings(t *testing.T) {
	u := Default()
	for _, sym := range []string{"AAPL", "JPM", "NVDA", "BRK.B"} {
		s := lookup(t, u, sym)
		for _, d := range []api.Date{Anchor, 20250301, 20130815} {
			date, when, ok := u.NextEarnings(s, d)
			evs := u.Earnings(s, d, d.AddDays(120), d)
			if !ok || len(evs) == 0 || evs[0].ReportDate != date || evs[0].TimeOfDay != when || date < d {
				t.Errorf("%s %v: next %v %v %v, calendar %v", sym, d, date, when, ok, evs)
			}
		}
	}
	if _, _, ok := u.NextEarnings(lookup(t, u, "SPY"), Anchor); ok {
		t.Error("SPY has earnings")
	}
}

func TestDividends(t *testing.T) {
	u := Default()
	for _, s := range u.All() {
		evs := u.Dividends(s, 20030101, 21000101)
		if s.DivFreq == 0 {
			if len(evs) != 0 {
				t.Errorf("%s pays dividends", s.Symbol)
			}
			continue
		}
		var yearSum float64
		for i, e := range evs {
			if i > 0 && e.ExDividendDate < evs[i-1].ExDividendDate {
				t.Fatalf("%s: dividends out of order at %v", s.Symbol, e.ExDividendDate)
			}
			if !market.IsTradingDay(e.ExDividendDate) || e.PaymentDate <= e.ExDividendDate || e.ExDividendDate < s.Since {
				t.Fatalf("%s: ex %v pay %v", s.Symbol, e.ExDividendDate, e.PaymentDate)
			}
			special := e.DividendCode == "Special"
			if special != (e.SpecialDividendCode.V == 1) || !special && e.DividendCode != "Regular" || !e.Dividend.Valid || e.Dividend.V <= 0 || e.UnadjustedDividend != e.Dividend {
				t.Fatalf("%s: %+v", s.Symbol, e)
			}
			if !special && e.ExDividendDate > market.PrevTradingDay(Anchor).AddDays(-365) && e.ExDividendDate <= Anchor {
				yearSum += e.Dividend.V
			}
		}
		if y := yearSum / s.Price; math.Abs(y/s.DivYield-1) > 0.3 {
			t.Errorf("%s: trailing yield %.4f, want about %.4f", s.Symbol, y, s.DivYield)
		}
	}
	// Apple paid no dividend before August 2012; TLT pays monthly.
	aapl := lookup(t, u, "AAPL")
	if evs := u.Dividends(aapl, 20030101, 20120801); len(evs) != 0 {
		t.Errorf("AAPL dividends before 2012: %v", evs[0].ExDividendDate)
	}
	if n := len(u.Dividends(lookup(t, u, "TLT"), 20250101, 20251231)); n != 12 {
		t.Errorf("TLT: %d dividends in 2025", n)
	}
	if n := len(u.Dividends(aapl, 20250101, 20251231)); n != 4 {
		t.Errorf("AAPL: %d dividends in 2025", n)
	}
}

func TestCalendarRangeBounds(t *testing.T) {
	u := Default()
	s := lookup(t, u, "KO")
	for _, r := range [][2]api.Date{{20250101, 20250331}, {20990101, 21000101}, {20260601, 20260501}} {
		for _, e := range u.Earnings(s, r[0], r[1], Anchor) {
			if e.ReportDate < r[0] || e.ReportDate > r[1] {
				t.Errorf("report %v outside %v", e.ReportDate, r)
			}
		}
		for _, e := range u.Dividends(s, r[0], r[1]) {
			if e.ExDividendDate < r[0] || e.ExDividendDate > r[1] {
				t.Errorf("dividend %v outside %v", e.ExDividendDate, r)
			}
		}
	}
}

// BenchmarkCalendarAll is the calendar endpoint's worst case: every event
// of every symbol from 2003 to 2100.
func BenchmarkCalendarAll(b *testing.B) {
	u := Default()
	all := u.All()
	for b.Loop() {
		n := 0
		for _, s := range all {
			n += len(u.Earnings(s, 20030101, 21000101, Anchor)) + len(u.Dividends(s, 20030101, 21000101))
		}
		if n < 50000 {
			b.Fatalf("%d events", n)
		}
	}
}
