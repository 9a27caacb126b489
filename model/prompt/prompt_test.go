package prompt

import (
	"strings"
	"testing"

	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
	"chainwatch/theme"
)

var testCommon = &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Prompt: keymap.Prompt(), Now: modeltest.Clock}

func typeInto(p *Model, s string) {
	for _, r := range s {
		p.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func press(p *Model, code rune) (bool, bool) {
	return p.update(tea.KeyPressMsg{Code: code})
}

func TestSymbolPromptCompletesFromRecentFirst(t *testing.T) {
	p := NewSymbol(testCommon, "SPY", []string{"AMZN", "QQQ"}, nil)
	typeInto(p, "a")
	if p.value != "A" {
		t.Fatalf("typed a, value %q; symbols are upper case", p.value)
	}
	if len(p.sugg) < 2 || p.sugg[0] != "AMZN" || p.sugg[1] != "AAPL" {
		t.Fatalf("suggestions %v: the recent AMZN first, then popular ones", p.sugg)
	}
	press(p, tea.KeyTab)
	if p.value != "AMZN" {
		t.Fatalf("tab completes to the first suggestion, got %q", p.value)
	}
	press(p, tea.KeyBackspace)
	if p.value != "AMZ" {
		t.Fatalf("backspace: %q", p.value)
	}
}

// TestSymbolPromptRefusesWhatASymbolCannotHold: what was typed stays as
// typed (nothing dropped, nothing cut), the reason shows as soon as the
// entry cannot become a symbol, and enter refuses it without a fetch.
func TestSymbolPromptRefusesWhatASymbolCannotHold(t *testing.T) {
	for _, tc := range []struct{ typed, value, err string }{
		{"sp x", "SP X", `symbol "SP X": a blank is not part of a symbol`},
		{"ÄPFEL€", "ÄPFEL€", `symbol "ÄPFEL€": "Ä" cannot be in a symbol`},
		{strings.Repeat("a", 100), strings.Repeat("A", 100), "100 characters; a symbol has at most 10"},
		{"../../etc", "../../ETC", `'.' must sit between letters or digits`},
	} {
		p := NewSymbol(testCommon, "SPY", nil, nil)
		typeInto(p, tc.typed)
		if p.Value() != tc.value || !strings.Contains(p.Err(), tc.err) {
			t.Errorf("typed %q: value %q, message %q; want %q and %q", tc.typed, p.Value(), p.Err(), tc.value, tc.err)
		}
		if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || p.Value() != tc.value || !strings.Contains(p.Err(), tc.err) {
			t.Errorf("enter on %q: action %v, message %q; want a refusal that keeps the entry", tc.typed, act, p.Err())
		}
	}
	// On its way to a symbol: no message yet.
	p := NewSymbol(testCommon, "SPY", nil, nil)
	typeInto(p, "brk.")
	if p.Err() != "" {
		t.Fatalf("BRK. is on its way to BRK.B, yet: %q", p.Err())
	}
	// BRK.B is neither recent nor popular: the screen looks it up before moving.
	typeInto(p, "b")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != (common.PickSymbol{Symbol: "BRK.B", Known: false}) {
		t.Fatalf("BRK.B: %v %q", act, p.Err())
	}
}

// TestSymbolPromptRefusesAnUnknownSymbol: a symbol the service said it
// does not have is refused at once, with the nearest known one.
func TestSymbolPromptRefusesAnUnknownSymbol(t *testing.T) {
	p := NewSymbol(testCommon, "SPY", []string{"QQQ"}, []string{"SPXX"})
	typeInto(p, "spxx")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || p.Err() != "no such symbol: SPXX; did you mean SPX?" {
		t.Fatalf("action %v, message %q", act, p.Err())
	}
}

// TestDatePromptStartsEmpty: over a past day the prompt starts empty
// (it held the day shown, which an enter kept and a trader had to clear
// for today) and names the day in its label; ctrl+u clears what was
// typed, and a day without a session is refused with the trading day
// before it.
func TestDatePromptStartsEmpty(t *testing.T) {
	p := NewDate(testCommon, 20261118, api.Live)
	p.SetSize(120, 1)
	if line := ansi.Strip(p.View()[0]); p.Value() != "" || !strings.Contains(line, "empty for today; showing 2026-11-18)") {
		t.Fatalf("value %q, line %q", p.Value(), line)
	}
	typeInto(p, "2026-11-15")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || !strings.Contains(p.Err(), "2026-11-15 is a Sunday, not a trading day; try Fri 2026-11-13") {
		t.Fatalf("a Sunday: %v %q", act, p.Err())
	}
	p.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	if p.Value() != "" {
		t.Fatalf("ctrl+u clears: %q", p.Value())
	}
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != (common.PickDate{}) {
		t.Fatalf("enter on an empty prompt: %#v, want today", act)
	}
}

func TestPromptSuggestionCycleAndAccept(t *testing.T) {
	p := NewSymbol(testCommon, "SPY", []string{"SPY", "SPX", "SMH"}, nil)
	typeInto(p, "SP")
	press(p, tea.KeyDown)
	press(p, tea.KeyDown)
	if p.sel != 1 {
		t.Fatalf("two downs select the second suggestion, sel=%d of %v", p.sel, p.sugg)
	}
	press(p, tea.KeyUp)
	if ok, _ := press(p, tea.KeyEnter); !ok || p.value != "SPY" {
		t.Fatalf("enter on a selected suggestion takes it: ok=%v value=%q", ok, p.value)
	}
	q := NewSymbol(testCommon, "SPY", nil, nil)
	if _, canceled := press(q, tea.KeyEscape); !canceled {
		t.Fatal("esc cancels")
	}
}

// TestWatchSymbolPrompt: adding to the watchlist follows the symbol rule,
// refuses a symbol on the list already and does not offer one.
func TestWatchSymbolPrompt(t *testing.T) {
	p := NewWatchSymbol(testCommon, []string{"SPY", "QQQ"}, []string{"QQQ", "AMD"}, []string{"SPYY"})
	typeInto(p, "s")
	if len(p.sugg) == 0 || p.sugg[0] == "SPY" || strings.Contains(strings.Join(p.sugg, " "), "SPY ") {
		t.Fatalf("suggestions %v offer a symbol on the list", p.sugg)
	}
	typeInto(p, "py")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || p.Err() != "SPY is already on the watchlist" {
		t.Fatalf("SPY: %v %q", act, p.Err())
	}
	p = NewWatchSymbol(testCommon, nil, nil, nil)
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || p.Err() != "type a symbol, or esc to cancel" {
		t.Fatalf("empty: %v %q", act, p.Err())
	}
	typeInto(p, "s p")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || !strings.Contains(p.Err(), "a blank is not part of a symbol") {
		t.Fatalf("bad symbol: %v %q", act, p.Err())
	}
	p = NewWatchSymbol(testCommon, []string{"SPY"}, nil, nil)
	typeInto(p, "tsla")
	if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act != (common.PickSymbol{Symbol: "TSLA", Known: true}) {
		t.Fatalf("TSLA: %#v %q", act, p.Err())
	}
	p.SetSize(80, 1)
	if !strings.Contains(ansi.Strip(p.View()[0]), "add to watchlist: ") {
		t.Fatalf("label: %q", p.View()[0])
	}
}

// TestDatePromptSaysWhatEmptyShowsAndKeepsTheSuggestion: on Thanksgiving
// an empty entry shows Wednesday's session, and the label says so rather
// than "today"; a weekend refused at 80 or 160 columns still names the
// day to try, the label's hint giving way to the refusal.
func TestDatePromptSaysWhatEmptyShowsAndKeepsTheSuggestion(t *testing.T) {
	for _, tc := range []struct {
		now   time.Time
		label string
	}{
		{time.Date(2026, 11, 26, 10, 0, 0, 0, api.Eastern), "empty for the last session, Wed Nov 25"},
		{time.Date(2026, 11, 24, 8, 0, 0, 0, api.Eastern), "empty for the last session, Mon Nov 23"}, // before the open
		{time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern), "empty for today"},
	} {
		c := *testCommon
		c.Now = func() time.Time { return tc.now }
		p := NewDate(&c, 0, api.Live)
		p.SetSize(160, 1)
		if got := ansi.Strip(p.View()[0]); !strings.Contains(got, tc.label) {
			t.Errorf("at %v the label reads %q, want %q", tc.now, got, tc.label)
		}
		if _, act := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); act == nil {
			t.Errorf("at %v empty was refused: %s", tc.now, p.Err())
		}
	}
	c := *testCommon
	c.Now = func() time.Time { return time.Date(2026, 11, 30, 11, 0, 0, 0, api.Eastern) }
	for _, w := range []int{80, 160} {
		p := NewDate(&c, 0, api.Live)
		p.SetSize(w, 1)
		typeInto(p, "2026-11-28")
		p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		line := ansi.Strip(p.View()[0])
		if !strings.Contains(line, "try Fri 2026-11-27") || ansi.StringWidth(line) != w {
			t.Errorf("at %d columns the refusal loses the day to try:\n%q", w, line)
		}
		if w == 160 && !strings.Contains(line, "2026-11-28 is a Saturday, not a trading day; try Fri 2026-11-27") {
			t.Errorf("at 160 columns the refusal is cut:\n%q", line)
		}
	}
}
