package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/theme"
)

// TestGoldenWatchScreen snapshots the whole frame: the panes as the App
// composes them, at the sizes a trader uses, with and without colour.
// Regenerate with go test ./model -run Golden -update, and read the
// result with the escape codes stripped before committing it.
func TestGoldenWatchScreen(t *testing.T) {
	for _, tc := range []struct {
		w, h    int
		noColor bool
	}{{160, 48, false}, {80, 24, false}, {120, 40, true}} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.noColor {
			name += "-nocolor"
		}
		t.Run(name, func(t *testing.T) {
			a, now := loadedApp(t, 3, 80)
			a.resize(tc.w, tc.h)
			if tc.noColor {
				a.sh.Styles = theme.New(theme.Dark(), true)
			}
			out := a.drawAt(now)
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range []string{"SPY", "[SANDBOX]", "Strike", "Time & Sales", "Events", "GREEN", "pts"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the frame lacks %q:\n%s", want, plain)
				}
			}
			if tc.noColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;")) {
				t.Error("NO_COLOR frame carries colours")
			}
		})
	}
}
