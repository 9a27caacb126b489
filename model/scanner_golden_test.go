package model

import (
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/model/scanner"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenScanner snapshots the scanner modal over the watch screen,
// without colour, on the tests' stopped clock: the rows being edited at
// the two smaller sizes a trader uses, the question before an
// all-results run, and the results of a run on the sandbox (whose market
// is the same on every run at that clock). Regenerate with
// go test ./model -run Golden -update, and read the result with the
// escape codes stripped before committing it.
func TestGoldenScanner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w, h  int
		setup func(t *testing.T, d *scanDriver)
		wants []string
	}{
		{"edit-80x24", 80, 24, goldenRows, []string{"iv30 > 40", "desc", "✓ filter", "✓ value", "live · top 20 · 30 points"}},
		{"edit-120x40", 120, 40, goldenRows, []string{"iv30 > 40", "desc", "✓ filter", "✓ value", "30-day at-the-money implied volatility"}},
		{"confirm-120x40", 120, 40, goldenConfirm, []string{"Run for all results?", "Run · 150 points", "Cancel"}},
		{"results-120x40", 120, 40, goldenResults, []string{"Symbol", "Company", "iv30", "20 of 20 rows", "30 points"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, d := scannerApp(t, Config{NoColor: true}, tc.w, tc.h)
			// A chain under the modal, so the header is a trader's.
			d.rig.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4), At: testNow})
			d.openScanner()
			tc.setup(t, d)
			out := a.drawAt(testNow)
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range tc.wants {
				if !strings.Contains(plain, want) {
					t.Errorf("the frame lacks %q:\n%s", want, plain)
				}
			}
			if lines := strings.Split(out, "\n"); len(lines) != tc.h {
				t.Errorf("%d lines, want %d", len(lines), tc.h)
			}
			if strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;") {
				t.Error("a NO_COLOR frame carries colours")
			}
		})
	}
}

// goldenRows types the two rows of the example: iv30 > 40, and
// iv30 sorted highest first; then back on the second row's formula.
func goldenRows(t *testing.T, d *scanDriver) {
	t.Helper()
	d.typeText("iv30 > 40")
	d.keys("ctrl+o")
	d.typeText("iv30")
	d.keys("tab", "tab", "tab", "right", "pgup", "pgdown")
	if s := d.a.scan; len(s.State().Rows) != 2 || s.State().Rows[1].Sort != "desc" || (s.State().Focused != "formula") {
		t.Fatalf("rows %+v", s.State().Rows)
	}
}

func goldenConfirm(t *testing.T, d *scanDriver) {
	t.Helper()
	goldenRows(t, d)
	d.keys("ctrl+t", "ctrl+r")
	if d.a.scan.State().Screen != scanner.Confirm {
		t.Fatalf("state %d", d.a.scan.State().Screen)
	}
}

func goldenResults(t *testing.T, d *scanDriver) {
	t.Helper()
	goldenRows(t, d)
	d.keys("ctrl+r")
	if s := d.a.scan; s.State().Screen != scanner.Results || s.State().Last == nil || s.State().Last.Rows() != 20 {
		t.Fatalf("state %d, %q", s.State().Screen, s.State().Msg)
	}
}
