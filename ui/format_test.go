package ui

import (
	"math"
	"testing"

	"chainwatch/api"
)

func TestPadding(t *testing.T) {
	cases := []struct{ got, want string }{
		{padLeft("1.23", 7), "   1.23"},
		{padLeft("1234567", 4), "1234"},
		{padLeft("x", 0), ""},
		{padRight("ab", 5), "ab   "},
		{padRight("abcdef", 3), "abc"},
		{center("ab", 6), "  ab  "},
		{center("ab", 5), " ab  "},
		{center("abcdef", 4), "abcd"},
		{padLeft("", 300)[299:], " "},
		{string(appendPadLeft(nil, []byte("7"), 3)), "  7"},
		{string(appendCenter(nil, "x", 3)), " x "},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("%d: got %q, want %q", i, c.got, c.want)
		}
	}
	if n := len(padRight("a", 400)); n != 400 {
		t.Errorf("padRight beyond the blank run: len %d", n)
	}
}

func TestNumberFormats(t *testing.T) {
	nan := math.NaN()
	cases := []struct{ got, want string }{
		{fmtPrice(1.234), "1.23"},
		{fmtPrice(1234.5), "1234.50"},
		{fmtPrice(nan), "-"},
		{fmtSize(-1), "-"},
		{fmtSize(0), "0"},
		{fmtSize(12345), "12345"},
		{fmtSize(99_999), "99999"},
		{fmtSize(123_456), "123.4k"},
		{fmtSize(999_999), "999.9k"},
		{fmtSize(1_234_567), "1.2M"},
		{fmtSize(12_345_678), "12.3M"},
		{fmtSize(2_500_000_000), "2.5B"},
		{fmtPct(0.2208, 1), "22.1%"},
		{fmtPct(nan, 1), "-"},
		{fmtSigned(1.234, 2), "+1.23"},
		{fmtSigned(-0.45, 2), "-0.45"},
		{fmtSigned(-0.001, 2), "0.00"},
		{fmtSigned(nan, 2), "-"},
		{fmtGreek(0.5123, 3), "0.512"},
		{fmtGreek(-0.0001, 3), "0.000"},
		{fmtGreek(nan, 3), "-"},
		{string(appendGreekShort(nil, 0.5123, 3)), ".512"},
		{string(appendGreekShort(nil, -0.4881, 3)), "-.488"},
		{string(appendGreekShort(nil, 1.0, 3)), "1.000"},
		{string(appendGreekShort(nil, -12.5, 2)), "-12.50"},
		{fmtDate(api.NewDate(2026, 11, 21)), "Nov21"},
		{fmtDate(api.NewDate(2027, 1, 5)), "Jan05"},
		{fmtDate(0), "-"},
		{fmtStrike(450), "450"},
		{fmtStrike(452.5), "452.5"},
		{fmtStrike(0.5), "0.5"},
		{fmtStrike(12.125), "12.125"},
		{fmtStrike(452.49999999), "452.5"},
		{fmtStrike(nan), "-"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("%d: got %q, want %q", i, c.got, c.want)
		}
	}
}

func TestSizeFit(t *testing.T) {
	cases := []struct {
		v    int64
		w    int
		want string
	}{
		{12345, 6, "12345"},
		{12345, 5, "12345"},
		{12345, 4, "12k"},
		{123456, 6, "123456"},
		{123456, 5, "123k"},
		{123456, 4, "123k"},
		{1234567, 6, "1.2M"},
		{1234567, 3, "1M"},
		{12345, 7, "12345"},
		{-1, 3, "-"},
		{9999, 3, "9k"},
		{999_999_999, 5, "999M"},
	}
	for _, c := range cases {
		if got := string(appendSizeFit(nil, c.v, c.w)); got != c.want {
			t.Errorf("appendSizeFit(%d, %d) = %q, want %q", c.v, c.w, got, c.want)
		}
	}
}

func TestAppendDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 64)
	n := testing.AllocsPerRun(100, func() {
		b := buf[:0]
		b = appendPrice(b, 452.37)
		b = appendPct(b, 0.221, 1)
		b = appendGreekShort(b, -0.4881, 3)
		b = appendSizeFit(b, 1234567, 5)
		b = appendStrike(b, 452.5)
		b = appendPadLeft(b, "x", 9)
		_ = b
	})
	if n != 0 {
		t.Fatalf("append formatters allocate %v times per run", n)
	}
}
