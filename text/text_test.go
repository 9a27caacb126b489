package text

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb\nc\rd", "a b c d"},
		{"\x1b[2J\x1b]0;owned\x07A\u009b31mB\x7f\tC\nD\x1b[0m", "AB C D"},
		{"x\x1b[1mbold\x1b[m", "xbold"},
		{"evil\x1b]0;pwned\x07", "evil"},
		{"st\x1bP1;2|data\x1b\\end", "stend"},
		{"c1 \u009d0;t\u009cok", "c1 ok"},
		{"bell\x07", "bell"},
		{"open\x1b[", "open"},
		{"漢字 wide", "漢字 wide"},
		{"\x1b", ""},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine("  first \x1b[31mline\nsecond", 0); got != "first line" {
		t.Fatalf("OneLine = %q", got)
	}
	long := strings.Repeat("é", 200)
	if got := OneLine(long, 160); got != strings.Repeat("é", 160)+"…" {
		t.Fatalf("OneLine cut = %q", got)
	}
}

func BenchmarkCleanPlain(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = Clean("SPY 2026-11-20 C 590.00 1.23 x 4.56")
	}
}

// TestQuote: an echoed value is quoted with its control characters
// escaped, never sent to the terminal and never dropped (a value made only
// of escape sequences was echoed as ""), and cut at EchoMax runes.
func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"SPY":                   `"SPY"`,
		"SP X":                  `"SP X"`,
		"\x1b[2J\x1b[H":         `"\x1b[2J\x1b[H"`,
		"A\u009b31mB":           `"A\u009b31mB"`,
		"A\x9b31mB":             `"A\x9b31mB"`,
		"\u202eXPS":             `"\u202eXPS"`,
		strings.Repeat("é", 70): `"` + strings.Repeat("é", 60) + `…"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		if strings.ContainsAny(Quote(in), "\x1b\u009b\u202e") {
			t.Errorf("Quote(%q) holds a control character", in)
		}
	}
}
