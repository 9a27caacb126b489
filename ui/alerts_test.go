package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/theme"
)

// TestAlertRuleNameCutWhole: a rule's name with a wide-byte rune ("≥")
// is cut in cells with "…", never in bytes: padRight cut "blocks ≥ 3
// contracts" inside the "≥", and the stray byte moved the cost a cell
// (" R1,800 pts/h" on the 80-column alerts page).
func TestAlertRuleNameCutWhole(t *testing.T) {
	st := theme.New(theme.Dark(), true)
	row := &AlertRow{On: true, Name: "SPY270122C00730000 blocks ≥ 3 contracts", Last: "print ≥ 3", State: "armed", Cost: "1,800 pts/h"}
	for w := 40; w <= 160; w++ {
		line := alertRuleLine(row, false, w, st)
		plain := ansi.Strip(line)
		if !utf8.ValidString(line) || ansi.StringWidth(plain) != w {
			t.Fatalf("%d columns: %q (%d wide)", w, plain, ansi.StringWidth(plain))
		}
		name := strings.TrimSpace(strings.TrimPrefix(plain, " ● "))
		if !strings.HasPrefix(name, row.Name) && !strings.Contains(name, "…") {
			t.Errorf("%d columns: the name cut without …: %q", w, plain)
		}
	}
}
