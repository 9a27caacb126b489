package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

func TestStatusExactWidths(t *testing.T) {
	long := strings.Repeat("the service said something very long ", 10)
	for _, w := range []int{1, 10, 40, 80, 120, 160, 200} {
		for _, s := range []*StatusData{pxStatus(), {PointsLeft: -1}, {Err: long, Hint: "? help"}, {Err: "line one\nline two"}} {
			out := Status(s, w, pxColor)
			pxCheck(t, "status", []string{out}, w, 1)
		}
	}
}

func TestStatusSaysWhatPollingCosts(t *testing.T) {
	out := ansi.Strip(Status(pxStatus(), 200, pxColor))
	for _, w := range []string{"pts 124 session", "310/h of 2400/h", "3.9M left", "next chain 3s", "⚠ 429 rate limited: per-second limit", "12s ago", "? help  q quit"} {
		if !strings.Contains(out, w) {
			t.Errorf("status lacks %q: %q", w, out)
		}
	}
	if !strings.HasSuffix(out, "? help  q quit ") {
		t.Errorf("hint not against the right edge: %q", out)
	}
	s := &StatusData{PointsLeft: -1, NextFeed: "tape"}
	out = ansi.Strip(Status(s, 120, pxColor))
	if !strings.Contains(out, "- left") || !strings.Contains(out, "next tape now") {
		t.Errorf("unknown points left or a due refresh: %q", out)
	}
	// Before the first poll there is no rate to show, only the budget.
	s = &StatusData{BudgetPerHour: 2400, PointsLeft: -1}
	if out := ansi.Strip(Status(s, 120, pxColor)); !strings.Contains(out, "budget 2400/h") || strings.Contains(out, "0/h of") {
		t.Errorf("before the first poll: %q", out)
	}
	// The trial's allowance is daily, and the bar says so.
	s = &StatusData{PointsLeft: 412, Daily: true}
	if out := ansi.Strip(Status(s, 120, pxColor)); !strings.Contains(out, "412 left today") {
		t.Errorf("trial: %q", out)
	}
	// Paused: the pause replaces the rate and the next refresh.
	s = pxStatus()
	s.Err, s.Paused = "", "paused until 09:30 ET (in 13h20m)"
	if out := ansi.Strip(Status(s, 160, pxColor)); !strings.Contains(out, "pts 124 session · paused until 09:30 ET (in 13h20m) · 3.9M left") || strings.Contains(out, "/h") || strings.Contains(out, "next") {
		t.Errorf("paused: %q", out)
	}
}

// chainwatch serve: a feed several sessions show says so, and gives way
// first when the bar is short; one session's bar is as before.
func TestStatusSharedFeed(t *testing.T) {
	s := pxStatus()
	s.Err, s.Shared = "", 3
	if out := ansi.Strip(Status(s, 200, pxColor)); !strings.Contains(out, "next chain 3s · shared by 3 sessions") {
		t.Errorf("shared by three: %q", out)
	}
	if out := ansi.Strip(Status(s, 90, pxColor)); strings.Contains(out, "shared") || !strings.Contains(out, "3.9M left") {
		t.Errorf("a short bar keeps the points, not the sharing: %q", out)
	}
	s.Shared = 1
	if out := ansi.Strip(Status(s, 200, pxColor)); strings.Contains(out, "shared") {
		t.Errorf("one session: %q", out)
	}
}

func TestStatusOverBudgetWarns(t *testing.T) {
	s := pxStatus()
	s.HourlyRate = 3000
	out := Status(s, 160, pxColor)
	if !strings.Contains(out, pxColor.Span(theme.ToneWarn, theme.ShadeHeader).Open+"3000") {
		t.Errorf("a rate over budget is not in the warning tone")
	}
	s.HourlyRate = 100
	if strings.Contains(Status(s, 160, pxColor), pxColor.Span(theme.ToneWarn, theme.ShadeHeader).Open+"100") {
		t.Errorf("a rate within budget warns")
	}
}

// On 80 columns a long error is cut, not dropped, and not at the cost of
// the rate.
func TestStatusLongErrorIsCut(t *testing.T) {
	s := pxStatus()
	s.Err = "503 service unavailable: the upstream market data provider did not answer in time, try again later"
	s.ErrAge = 3 * time.Second
	out := ansi.Strip(Status(s, 80, pxColor))
	if !strings.Contains(out, "⚠ 503 service") || !strings.Contains(out, "…") {
		t.Errorf("error not cut with an ellipsis: %q", out)
	}
	if !strings.Contains(out, "310/h") {
		t.Errorf("rate lost to the error: %q", out)
	}
	// First line only.
	s.Err = "bad request\nmin_strike must be <= max_strike"
	if out := ansi.Strip(Status(s, 200, pxColor)); strings.Contains(out, "min_strike") {
		t.Errorf("multi-line error not cut to its first line: %q", out)
	}
}

// A service's error body is drawn, never obeyed: no escape reaches the
// terminal.
func TestStatusErrorCannotEscape(t *testing.T) {
	s := &StatusData{Err: "boom\x1b[2J\x1b]0;pwned\x07 \u009b31m", PointsLeft: -1}
	out := Status(s, 120, pxNoColor)
	pxCheck(t, "status", []string{out}, 120, 1)
	if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b]0") || strings.Contains(out, "\u009b") || strings.Contains(out, "\x07") {
		t.Fatalf("control characters from the error reached the line: %q", out)
	}
	if !strings.Contains(ansi.Strip(out), "boom") {
		t.Fatalf("the error text is lost: %q", ansi.Strip(out))
	}
}

// TestStatusNoteIsNoWarning: word of something done ("saved as position
// 1") is drawn plain, in the place of an error but without its ⚠; an
// error outranks it.
func TestStatusNoteIsNoWarning(t *testing.T) {
	s := &StatusData{PointsLeft: -1, Note: "saved as position 1", Hint: "? help"}
	l := ansi.Strip(Status(s, 120, pxColor))
	if !strings.Contains(l, "saved as position 1") || strings.Contains(l, "⚠") {
		t.Errorf("a note: %q", l)
	}
	s.Err = "429 rate limited"
	l = ansi.Strip(Status(s, 120, pxColor))
	if !strings.Contains(l, "⚠ 429 rate limited") || strings.Contains(l, "saved as") {
		t.Errorf("an error over a note: %q", l)
	}
}

// TestStatusKeepsTheHelpKey: at 80 columns the hint's other items give
// way to the points figures but "? help" stays, on its own at the right
// edge, with a failure shown or not; where there is room the whole hint
// shows.
func TestStatusKeepsTheHelpKey(t *testing.T) {
	hint := "/ symbol  S scan  v vol  W watchlist  ? help  q quit"
	s := &StatusData{Spent: 53, HourlyRate: 1140, RateKnown: true, BudgetPerHour: 44446, PointsLeft: 3_900_000,
		NextFeed: "chain", Next: time.Second, Hint: hint}
	if l := ansi.Strip(Status(s, 80, pxColor)); !strings.HasSuffix(l, " ? help ") || strings.Contains(l, "scan") {
		t.Errorf("80 columns: %q", l)
	}
	if l := ansi.Strip(Status(s, 160, pxColor)); !strings.HasSuffix(l, hint+" ") {
		t.Errorf("160 columns: %q", l)
	}
	s.Err = "429 rate limited: per-second limit"
	if l := ansi.Strip(Status(s, 80, pxColor)); !strings.HasSuffix(l, " ? help ") || !strings.Contains(l, "⚠ 429") {
		t.Errorf("80 columns with a failure: %q", l)
	}
}
