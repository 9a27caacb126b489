package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCutWords: a sentence is cut at a word's end near the cut, with
// "…"; a long word is cut where it must; what fits is left alone.
func TestCutWords(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"fired 10:41:03; re-arms past the margin", 40, "fired 10:41:03; re-arms past the margin"},
		{"fired 10:41:03; re-arms past the margin", 37, "fired 10:41:03; re-arms past the…"},
		{"fired 10:41:03; re-arms past the margin", 34, "fired 10:41:03; re-arms past the…"},
		{"fired 10:41:03; re-arms past the margin", 33, "fired 10:41:03; re-arms past the…"},
		{"fired 10:41:03; re-arms past the margin", 32, "fired 10:41:03; re-arms past…"},
		{"supercalifragilistic", 8, "superca…"},
		{"a b", 1, "…"},
	} {
		if got := CutWords(c.s, c.w); got != c.want || ansi.StringWidth(got) > c.w {
			t.Errorf("CutWords(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

// TestAlertStateCutAtAWord: at 80 columns a rule's state that does not
// fit ends at a word ("re-arms past the margi" was the cut), its cost
// still beside it.
func TestAlertStateCutAtAWord(t *testing.T) {
	v := &AlertsView{Rules: []AlertRow{{Name: "SPY261124C00699000 mid above 0.70", On: true, Fired: true, Last: "0.71",
		State: "fired 10:00:02; re-arms past the margin", Cost: "on screen"}}}
	lines := Alerts(v, 80, 20, pxColor)
	var row string
	for _, l := range lines {
		if l = ansi.Strip(l); strings.Contains(l, "fired 10:00:02") {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no rule row:\n%s", ansi.Strip(strings.Join(lines, "\n")))
	}
	if !strings.Contains(row, "on screen") || strings.Contains(row, "margi…") || strings.Contains(row, "margi ") {
		t.Errorf("the state is cut mid-word or the cost lost: %q", row)
	}
	if !strings.Contains(row, "margin") && !strings.Contains(row, "…") {
		t.Errorf("a cut state does not say so: %q", row)
	}
}
