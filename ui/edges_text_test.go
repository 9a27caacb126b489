package ui

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/tas"
	"chainwatch/theme"
)

// TestCutKeepingTailAndAtItems: a cut message keeps its last clause (the
// day to try); a list of keys or clauses is cut between items, never
// inside one.
func TestCutKeepingTailAndAtItems(t *testing.T) {
	msg := "2026-11-26 is Thanksgiving Day, not a trading day; try Wed 2026-11-25"
	if got := CutKeepingTail(msg, 50); paneWidth(got) > 50 || !strings.HasSuffix(got, "…; try Wed 2026-11-25") {
		t.Errorf("CutKeepingTail: %q", got)
	}
	if got := CutKeepingTail(msg, 200); got != msg {
		t.Errorf("CutKeepingTail cut what fits: %q", got)
	}
	items := []string{"ctrl+r run", "ctrl+o add row", "pgdn next row"}
	if got := CutAtItems(items, " · ", 32); got != "ctrl+r run · ctrl+o add row · …" {
		t.Errorf("CutAtItems: %q", got)
	}
	if got := CutAtItems(items, " · ", 100); got != strings.Join(items, " · ") {
		t.Errorf("CutAtItems cut what fits: %q", got)
	}
}

// TestContractTheoSaysWhichSide: "Theo 6.66 vs mid 0.00" read as a mid of
// nothing; the theo's line says how far from the mid and on which side.
func TestContractTheoSaysWhichSide(t *testing.T) {
	for _, tc := range []struct {
		theo, mid float64
		want      string
	}{
		{6.66, 6.66, "Theo 6.66 (at mid)"},
		{2.09, 2.11, "Theo 2.09 (0.02 under mid)"},
		{2.20, 2.11, "Theo 2.20 (0.09 over mid)"},
		{2.20, math.NaN(), "Theo 2.20 "},
	} {
		h := &ContractHeaderData{OSI: "SPY261120C00579000", Theo: tc.theo, Quote: Contract{Mid: tc.mid, Bid: math.NaN(), Ask: math.NaN()}, Spot: math.NaN()}
		if got := pxPlain(ContractHeader(h, 120, pxColor)); !strings.Contains(got, tc.want) || strings.Contains(got, "vs mid") {
			t.Errorf("theo %v mid %v:\n%s\nwant %q", tc.theo, tc.mid, got, tc.want)
		}
	}
}

// TestContractCostLineKeepsItsPoint: at 80 columns on a closed market the
// cost line keeps the total and the pause, and cuts the breakdown between
// feeds.
func TestContractCostLineKeepsItsPoint(t *testing.T) {
	cost := "34 pts a refresh · paused until 09:30 ET (in 13h20m) · quote 4 · trades 15 · quotes 15"
	lines := ContractSummary(&tas.Summary{}, cost, 80, 3, pxColor)
	last := pxPlain(lines[len(lines)-1:])
	if !strings.Contains(last, "Cost 34 pts a refresh · paused until 09:30 ET (in 13h20m) · quote 4 · …") {
		t.Errorf("cost line at 80: %q", last)
	}
}

// TestPromptRefusalKeepsWhatToType: at 80 columns the date prompt's
// refusal (config.ParseDate's) keeps what to type, its head cut at a
// word: not "use yyyy-mm-dd, e.g. 2026-11-…". A refusal of one clause is
// cut at a word too.
func TestPromptRefusalKeepsWhatToType(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	label, value := "date (yyyy-mm-dd, empty for today)", "2026-13-45"
	line := ansi.Strip(Prompt(label, value, nil, 0, `"2026-13-45" is not a date; use yyyy-mm-dd, e.g. 2026-11-24`, 80, st))
	if paneWidth(line) != 80 || !strings.Contains(line, "…; use yyyy-mm-dd, e.g. 2026-11-24") {
		t.Errorf("the refusal: %q", line)
	}
	msg := "no such symbol: ZZZZ (there is no symbol of that name on the service)"
	line = ansi.Strip(Prompt("symbol", "ZZZZ", nil, 0, msg, 60, st))
	_, after, _ := strings.Cut(line, "⚠ ")
	head, cut := strings.CutSuffix(strings.TrimRight(after, " "), "…")
	if !cut || !strings.HasPrefix(msg, head) || msg[len(head)] != ' ' {
		t.Errorf("one clause cut: %q", line)
	}
}
