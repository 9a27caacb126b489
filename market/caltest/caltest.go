// Package caltest holds the NYSE's published session history as a test
// fixture (testdata/nyse-sessions.tsv, its sources named in its header),
// so that the client's trading calendar (api) and the sandbox's (its
// market paths, its sessions) are each checked against the exchange's
// record, day by day, by one reading of it.
package caltest

import (
	"bufio"
	_ "embed"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

//go:embed testdata/nyse-sessions.tsv
var fixture string

// Day is what the published history says of one date.
type Day struct {
	Trading bool          // the exchange held a session
	Close   api.TimeOfDay // its end, Eastern: 16:00, or 13:00 on an early close; 0 without a session
	Why     string        // the holiday, closure or early close; "" for a full session or a weekend
}

// History is the record: the dates that are not a full weekday session,
// from its first to its last year.
type History struct {
	From, To api.Date // the first and last day it covers
	days     map[api.Date]Day
}

// NYSE reads the fixture, failing t on a line it cannot read: a date out
// of order, an unknown session kind, a weekend listed.
func NYSE(t testing.TB) *History {
	t.Helper()
	h := &History{days: map[api.Date]Day{}}
	sc := bufio.NewScanner(strings.NewReader(fixture))
	var last api.Date
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("nyse-sessions.tsv:%d: %d fields, want date, session, why", n, len(f))
		}
		d, err := api.ParseDate(f[0])
		if err != nil || d <= last || !weekday(d) {
			t.Fatalf("nyse-sessions.tsv:%d: %q is not a weekday after %s", n, f[0], last)
		}
		last = d
		switch f[1] {
		case "closed":
			h.days[d] = Day{Why: f[2]}
		case "13:00":
			h.days[d] = Day{Trading: true, Close: market.EarlySession, Why: f[2]}
		default:
			t.Fatalf("nyse-sessions.tsv:%d: session %q, want closed or 13:00", n, f[1])
		}
	}
	if len(h.days) == 0 {
		t.Fatal("nyse-sessions.tsv lists no day")
	}
	first := api.Date(0)
	for d := range h.days {
		if first == 0 || d < first {
			first = d
		}
	}
	h.From, h.To = api.NewDate(first.Year(), 1, 1), api.NewDate(last.Year(), 12, 31)
	return h
}

// On is the record of d (within From to To): a listed day as listed, any
// other weekday a full session, a weekend none.
func (h *History) On(d api.Date) Day {
	if day, ok := h.days[d]; ok {
		return day
	}
	if !weekday(d) {
		return Day{}
	}
	return Day{Trading: true, Close: market.SessionEnd}
}

// Listed reports whether the record lists d (a holiday, a closure or an
// early close).
func (h *History) Listed(d api.Date) bool {
	_, ok := h.days[d]
	return ok
}

// Len is how many days the record lists, for a test's log.
func (h *History) Len() int { return len(h.days) }

func weekday(d api.Date) bool {
	w := d.Weekday()
	return w >= time.Monday && w <= time.Friday
}
