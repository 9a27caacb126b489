package config

import (
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

// TestParseSymbol: the one symbol rule folds case and changes nothing
// else; everything it refuses is echoed as typed, with the reason.
func TestParseSymbol(t *testing.T) {
	ok := map[string]string{"spy": "SPY", "BRK.B": "BRK.B", "bf-b": "BF-B", "X": "X", "ABCDEFGHIJ": "ABCDEFGHIJ", "3M": "3M"}
	for in, want := range ok {
		if got, err := ParseSymbol(in); err != nil || got != want {
			t.Errorf("ParseSymbol(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":                       `symbol "": empty`,
		"SP X":                   `symbol "SP X": a blank is not part of a symbol`,
		" SPY":                   `symbol " SPY": a blank`,
		"ÄPFEL€":                 `symbol "ÄPFEL€": "Ä" cannot be in a symbol`,
		strings.Repeat("A", 100): `symbol "` + strings.Repeat("A", 60) + `…": 100 characters; a symbol has at most 10`,
		"../../etc":              `symbol "../../etc": '.' must sit between letters or digits`,
		"BRK..B":                 `'.' must sit between`,
		"BRK.":                   `ends in '.' or '-'`,
		"^SPX":                   `"^" cannot be in a symbol`,
		"/ES":                    `"/" cannot be in a symbol`,
		"SPY\x1b[2J":             `symbol "SPY\x1b[2J": a control character`,
		"\x1b[2J\x1b[H":          `symbol "\x1b[2J\x1b[H": a control character`, // escaped, not ""
	}
	for in, want := range bad {
		_, err := ParseSymbol(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSymbol(%q) = %v, want %q", in, err, want)
		}
	}
}

// TestParseDate: today is live, a day without a session names the
// trading day before it, and nothing in the future or before the data.
func TestParseDate(t *testing.T) {
	sunday := time.Date(2026, 11, 22, 20, 0, 0, 0, api.Eastern)
	friday := time.Date(2026, 11, 20, 11, 0, 0, 0, api.Eastern)
	cases := []struct {
		in   string
		now  time.Time
		want api.Date
		err  string
	}{
		{"", friday, 0, ""},
		{"today", friday, 0, ""},
		{"2026-11-20", friday, 0, ""},
		{" 2026-11-18 ", friday, 20261118, ""},
		{"2026-11-22", sunday, 0, "2026-11-22 is a Sunday, not a trading day; try Fri 2026-11-20"},
		{"2026-11-26", sunday.AddDate(0, 0, 5), 0, "2026-11-26 is Thanksgiving Day, not a trading day; try Wed 2026-11-25"},
		{"2025-01-09", friday, 0, "2025-01-09 is a national day of mourning (Carter), not a trading day"},
		{"2026-11-23", sunday, 0, "2026-11-23 is in the future (today is 2026-11-22, Eastern)"},
		{"2002-12-31", friday, 0, "before the service's option data, which starts on 2003-01-01"},
		// The day before is refused (before the data): the day after is named.
		{"2003-01-01", friday, 0, "2003-01-01 is New Year's Day, not a trading day, and the service's data starts on 2003-01-01; the first trading day is Thu 2003-01-02"},
		{"11/18/2026", friday, 0, `"11/18/2026" is not a date; use yyyy-mm-dd, e.g. 2026-11-20`},
	}
	for _, c := range cases {
		got, err := ParseDate(c.in, c.now)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseDate(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseDate(%q) = %v, want an error with %q", c.in, err, c.err)
		}
	}
}

func TestParseClock(t *testing.T) {
	for in, want := range map[string]api.TimeOfDay{
		"09:45": api.NewTimeOfDay(9, 45, 0, 0), "9:45": api.NewTimeOfDay(9, 45, 0, 0),
		"15:59:30": api.NewTimeOfDay(15, 59, 30, 0), " 10:00 ": api.NewTimeOfDay(10, 0, 0, 0),
		"10:00:01.250": api.NewTimeOfDay(10, 0, 1, 250),
	} {
		if got, err := ParseClock(in); err != nil || got != want {
			t.Errorf("ParseClock(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "9", "24:00", "09:60", "09:45pm", "9.45", "-1:00", "09:45:61", "09:45:00.5x", "10:00:00.1"} {
		if _, err := ParseClock(bad); err == nil {
			t.Errorf("ParseClock(%q) accepted", bad)
		}
	}
}
