package market

import (
	"chainwatch/api"
	"testing"
)

func TestHolidays(t *testing.T) {
	closed := map[api.Date]string{
		20240329: "Good Friday 2024", 20261126: "Thanksgiving 2026", 20220620: "Juneteenth 2022 (observed Monday)",
		20260101: "New Year 2026", 20260119: "MLK 2026", 20260216: "Washington's Birthday 2026",
		20260403: "Good Friday 2026", 20260525: "Memorial Day 2026", 20260619: "Juneteenth 2026",
		20260703: "Independence Day 2026 (observed Friday)", 20260907: "Labor Day 2026", 20261225: "Christmas 2026",
		20000421: "Good Friday 2000", 20080321: "Good Friday 2008", 20190419: "Good Friday 2019", 20250418: "Good Friday 2025",
		20010911: "September 11", 20010914: "September 14, 2001", 20040611: "Reagan", 20070102: "Ford",
		20121029: "Sandy", 20121030: "Sandy", 20181205: "Bush", 20250109: "Carter",
		20221226: "Christmas 2022 (observed Monday)", 20170102: "New Year 2017 (observed Monday)",
		20261121: "Saturday", 20261122: "Sunday",
	}
	for d, why := range closed {
		if IsTradingDay(d) {
			t.Errorf("%v (%s) is a trading day", d, why)
		}
	}
	open := map[api.Date]string{
		20211231: "Dec 31, 2021: New Year 2022 fell on a Saturday, not observed",
		20261127: "day after Thanksgiving", 20261120: "a Friday", 20220103: "first Monday of 2022",
		20210618: "Juneteenth 2021 was not yet a holiday", 20010917: "market reopened after 9/11",
		20261224: "Christmas Eve 2026 (early close)", 20000103: "first trading day of 2000",
	}
	for d, why := range open {
		if !IsTradingDay(d) {
			t.Errorf("%v (%s) is not a trading day", d, why)
		}
	}
	if IsTradingDay(20260230) || IsTradingDay(0) {
		t.Error("a day that does not exist is not a trading day")
	}
}

func TestTradingDaysPerYear(t *testing.T) {
	// NYSE session counts as published.
	want := map[int]int{2012: 250, 2018: 251, 2019: 252, 2022: 251, 2023: 250, 2024: 252, 2025: 250}
	for y, n := range want {
		got := 0
		for d := api.NewDate(y, 1, 1); d < api.NewDate(y+1, 1, 1); d = d.AddDays(1) {
			if IsTradingDay(d) {
				got++
			}
		}
		if got != n {
			t.Errorf("%d: %d trading days, want %d", y, got, n)
		}
	}
}

func TestEarlyCloses(t *testing.T) {
	early := []api.Date{20261127, 20261224, 20250703, 20241129, 20241224, 20230703}
	for _, d := range early {
		if SessionClose(d) != api.NewTimeOfDay(13, 0, 0, 0) {
			t.Errorf("%v closes at %v, want 13:00", d, SessionClose(d))
		}
	}
	regular := []api.Date{20261120, 20260702, 20261126, 20211223}
	for _, d := range regular {
		if SessionClose(d) != api.NewTimeOfDay(16, 0, 0, 0) {
			t.Errorf("%v closes at %v, want 16:00", d, SessionClose(d))
		}
	}
	if SessionOpen != api.NewTimeOfDay(9, 30, 0, 0) || SessionEnd != api.NewTimeOfDay(16, 0, 0, 0) {
		t.Errorf("session %v to %v", SessionOpen, SessionEnd)
	}
}

func TestStepping(t *testing.T) {
	cases := []struct {
		f        func(api.Date) api.Date
		name     string
		in, want api.Date
	}{
		{NextTradingDay, "next", 20261125, 20261127},
		{NextTradingDay, "next", 20261120, 20261123},
		{PrevTradingDay, "prev", 20261127, 20261125},
		{PrevTradingDay, "prev", 20220103, 20211231},
		{PrevTradingDay, "prev", 20010917, 20010910},
		{LastTradingDay, "last", 20261122, 20261120},
		{LastTradingDay, "last", 20261120, 20261120},
		{LastTradingDay, "last", 20240329, 20240328},
	}
	for _, c := range cases {
		if got := c.f(c.in); got != c.want {
			t.Errorf("%s(%v) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
	if PrevTradingDay(20000103) != 19991231 {
		t.Errorf("PrevTradingDay(2000-01-03) = %v", PrevTradingDay(20000103))
	}
}

func TestClosedReason(t *testing.T) {
	cases := map[api.Date]string{
		20261122: "a Sunday", 20261126: "Thanksgiving Day", 20250109: "a national day of mourning (Carter)",
		20260703: "Independence Day", 20261120: "", 20260101: "New Year's Day",
	}
	for d, want := range cases {
		if got := ClosedReason(d); got != want {
			t.Errorf("ClosedReason(%v) = %q, want %q", d, got, want)
		}
	}
}
