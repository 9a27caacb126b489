package prompt

import (
	"testing"

	tea "charm.land/bubbletea/v2"

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
	p := NewSymbol(testCommon, "SPY", []string{"AMZN", "QQQ"})
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

func TestSymbolPromptRefusesWhatASymbolCannotHold(t *testing.T) {
	p := NewSymbol(testCommon, "SPY", nil)
	typeInto(p, "sp ")
	if p.value != "SP" || p.errMsg == "" {
		t.Fatalf("a space is refused with a message and keeps what was typed: %q, %q", p.value, p.errMsg)
	}
	typeInto(p, "Y")
	if p.value != "SPY" || p.errMsg != "" {
		t.Fatalf("typing on clears the message: %q, %q", p.value, p.errMsg)
	}
	typeInto(p, "ABCDEFGHIJ")
	if len(p.value) != maxSymbolLen || p.errMsg == "" {
		t.Fatalf("more than %d characters are refused: %q, %q", maxSymbolLen, p.value, p.errMsg)
	}
}

func TestPromptSuggestionCycleAndAccept(t *testing.T) {
	p := NewSymbol(testCommon, "SPY", []string{"SPY", "SPX", "SMH"})
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
	q := NewSymbol(testCommon, "SPY", nil)
	if _, canceled := press(q, tea.KeyEscape); !canceled {
		t.Fatal("esc cancels")
	}
}
