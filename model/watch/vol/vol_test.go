package vol

import (
	"fmt"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
	volfig "chainwatch/vol"
)

// TestPageThroughItsContract: the page is sized, set and drawn through
// the Page contract; its figures are chainwatch/vol's for the surface it
// is handed, its smile follows the expiry, o switches the smile's mode.
func TestPageThroughItsContract(t *testing.T) {
	sh := modeltest.Common(modeltest.Now)
	snap := modeltest.SynthChain(3, 40, 0)
	surf := volfig.FromChain(snap, modeltest.SynthDay)
	p := New(sh)
	p.SetSize(100, 30)
	p.Set(Input{Surface: &surf, Expiry: surf.Exps[1].Date, Cursor: 530, Term: ui.TermCost{Points: 4, Age: -1, Next: -1}})
	// Compared as text: NaN (a wing the flat synthetic chain lacks) is
	// never equal to itself.
	if got, want := p.Figures(), surf.Figures(); len(got) != 3 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("figures %+v, want %+v", got, want)
	}
	lines := p.View()
	if len(lines) != 30 {
		t.Fatalf("%d lines", len(lines))
	}
	plain := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.Contains(plain, "Smile Nov21 1d") || !strings.Contains(plain, "all expiries not held") {
		t.Errorf("page:\n%s", plain)
	}
	p.Update(tea.KeyPressMsg{Code: 'o', Text: "o"})
	if !p.Both() || !strings.Contains(ansi.Strip(strings.Join(p.View(), "\n")), "◐ both") {
		t.Error("o does not switch the smile to both sides")
	}
	p.Set(Input{Message: "no such symbol: ZZZ", Expiry: api.Date(0), Cursor: math.NaN()})
	if plain := ansi.Strip(strings.Join(p.View(), "\n")); !strings.Contains(plain, "no such symbol: ZZZ") {
		t.Errorf("message page:\n%s", plain)
	}
	if len(p.ShortHelp()) == 0 || len(p.FullHelp()) == 0 {
		t.Error("no help")
	}
}
