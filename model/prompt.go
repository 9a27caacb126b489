package model

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/keymap"
)

type promptKind int

const (
	promptSymbol promptKind = iota
	promptDate
)

// popular seeds the symbol completion after the user's own recent
// symbols, so that a first session has something to complete from.
var popular = []string{"SPY", "QQQ", "IWM", "SPX", "AAPL", "NVDA", "TSLA", "MSFT", "AMZN", "META", "GOOGL", "AMD", "DIA", "XSP", "NDX"}

// maxSymbolLen is the longest symbol the prompt accepts.
const maxSymbolLen = 10

// prompt is a one-line input over the status bar. It keeps what was
// typed when the input is refused, so a typo costs one keystroke to fix.
type prompt struct {
	kind   promptKind
	label  string
	value  string
	pool   []string // completion candidates, best first
	sugg   []string // candidates matching value
	sel    int      // selected suggestion; -1 none
	errMsg string
}

func newSymbolPrompt(recent []string) *prompt {
	pool := append([]string(nil), recent...)
	for _, s := range popular {
		if !contains(pool, s) {
			pool = append(pool, s)
		}
	}
	p := &prompt{kind: promptSymbol, label: "symbol", pool: pool, sel: -1}
	p.filter()
	return p
}

func newDatePrompt(cur api.Date) *prompt {
	p := &prompt{kind: promptDate, label: "date (yyyy-mm-dd, empty for today)", sel: -1}
	if cur != 0 {
		p.value = cur.String()
	}
	return p
}

// update applies a key; accepted is true when the user pressed enter.
func (p *prompt) update(k tea.KeyPressMsg, keys keymap.PromptKeys) (accepted, canceled bool) {
	switch {
	case key.Matches(k, keys.Accept):
		if p.sel >= 0 && p.sel < len(p.sugg) {
			p.value = p.sugg[p.sel]
		}
		return true, false
	case key.Matches(k, keys.Cancel):
		return false, true
	case key.Matches(k, keys.Complete):
		if len(p.sugg) > 0 {
			i := max(p.sel, 0)
			p.value = p.sugg[i]
			p.sel = -1
			p.filter()
		}
	case key.Matches(k, keys.Next):
		if len(p.sugg) > 0 {
			p.sel = (p.sel + 1) % len(p.sugg)
		}
	case key.Matches(k, keys.Prev):
		if len(p.sugg) > 0 {
			p.sel = (p.sel - 1 + len(p.sugg)) % len(p.sugg)
		}
	case key.Matches(k, keys.Backspace):
		if r := []rune(p.value); len(r) > 0 {
			p.value = string(r[:len(r)-1])
		}
		p.edited()
	case key.Matches(k, keys.Clear):
		p.value = ""
		p.edited()
	default:
		p.typed(k.Text)
	}
	return false, false
}

// typed appends printable text, upper-cased for a symbol; anything a
// symbol cannot hold is refused with a word instead of silently.
func (p *prompt) typed(text string) {
	if text == "" {
		return
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return
		}
	}
	if p.kind == promptSymbol {
		text = strings.ToUpper(text)
		if !validSymbolChars(text) {
			p.errMsg = "a symbol has letters, digits and . - ^ / only"
			return
		}
		if len(p.value)+len(text) > maxSymbolLen {
			p.errMsg = "a symbol has at most 10 characters"
			return
		}
	}
	p.value += text
	p.edited()
}

func (p *prompt) edited() {
	p.errMsg = ""
	p.sel = -1
	p.filter()
}

// filter keeps the candidates that start with what was typed.
func (p *prompt) filter() {
	p.sugg = p.sugg[:0]
	if p.kind != promptSymbol {
		return
	}
	for _, s := range p.pool {
		if strings.HasPrefix(s, p.value) && s != p.value {
			p.sugg = append(p.sugg, s)
		}
		if len(p.sugg) == 8 {
			break
		}
	}
}

func validSymbolChars(s string) bool {
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-^/", r)) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
