// Package prompt is the one-line input over the status bar: the symbol
// prompt (with completion from the recent and popular symbols) and the
// date prompt. It checks what was typed itself and returns an Action for
// the root: PickSymbol, PickDate or Close. A refused entry stays on screen
// with the reason, so a typo costs one keystroke to fix.
package prompt

import (
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
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

// Model is a prompt. It keeps what was typed when the input is refused.
type Model struct {
	com     *common.Common
	kind    promptKind
	label   string
	value   string
	current string   // the symbol on screen, for "esc to keep"
	unknown []string // symbols the service said it does not have
	onList  []string // adding to the watchlist: the symbols already on it
	pool    []string // completion candidates, best first
	sugg    []string // candidates matching value
	sel     int      // selected suggestion; -1 none
	errMsg  string
	width   int
}

var _ common.Overlay = (*Model)(nil)

// NewSymbol is the symbol prompt over a screen showing current, completing
// from recent first. A symbol in unknown (the service answered 204 for it
// this session) is refused at once, with the nearest known symbol, instead
// of being fetched again.
func NewSymbol(c *common.Common, current string, recent, unknown []string) *Model {
	pool := Known(recent)
	p := &Model{com: c, kind: promptSymbol, label: "symbol", current: current, pool: pool, unknown: unknown, sel: -1}
	p.filter()
	return p
}

// NewWatchSymbol is the symbol prompt that adds to the watchlist, whose
// symbols are onList: they are refused and not offered, and the rest of
// the rule is the symbol prompt's.
func NewWatchSymbol(c *common.Common, onList, recent, unknown []string) *Model {
	var pool []string
	for _, s := range Known(recent) {
		if !slices.Contains(onList, s) {
			pool = append(pool, s)
		}
	}
	p := &Model{com: c, kind: promptSymbol, label: "add to watchlist", pool: pool, unknown: unknown, onList: onList, sel: -1}
	p.filter()
	return p
}

// NewDate is the date prompt over a screen showing day cur (0: today) in
// mode. It starts empty, as its label says an empty entry is today (or,
// on a day without a session and before the open, the last session:
// "empty for the last session, Wed Nov 25", which is what the screen
// shows for "today"); a past day shown is named after it, not typed in
// for the trader to clear.
func NewDate(c *common.Common, cur api.Date, mode api.Mode) *Model {
	label := "date (yyyy-mm-dd, empty for today"
	now := c.Now()
	if d := feed.ShownDay(feed.Query{Mode: mode}, now); d != api.Today(now) {
		label = "date (yyyy-mm-dd, empty for the last session, " + d.Time(api.Eastern).Format("Mon Jan 2")
	}
	if cur != 0 {
		label += "; showing " + cur.String()
	}
	return &Model{com: c, kind: promptDate, label: label + ")", sel: -1}
}

// Known is every symbol the prompt completes from, best first: the
// user's recent symbols, then popular ones. "Did you mean" looks here too.
func Known(recent []string) []string {
	pool := append([]string(nil), recent...)
	for _, s := range popular {
		if !slices.Contains(pool, s) {
			pool = append(pool, s)
		}
	}
	return pool
}

// Value is what was typed; Err why it was refused ("" when it was not).
func (p *Model) Value() string { return p.value }
func (p *Model) Err() string   { return p.errMsg }

// SetSize sets the width of the prompt's one line.
func (p *Model) SetSize(width, _ int) { p.width = width }

// View is the prompt's line, with the suggestions and the refusal.
func (p *Model) View() []string {
	return []string{ui.Prompt(p.label, p.value, p.sugg, p.sel, p.errMsg, p.width, p.com.Styles)}
}

// ShortHelp and FullHelp are the prompt's keys.
func (p *Model) ShortHelp() []key.Binding  { return p.com.Prompt.ShortHelp() }
func (p *Model) FullHelp() [][]key.Binding { return p.com.Prompt.FullHelp() }

// Update takes a key. Enter on an acceptable entry returns PickSymbol or
// PickDate, esc Close; a refused entry stays with its reason.
func (p *Model) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	accepted, canceled := p.update(k)
	switch {
	case canceled:
		return nil, common.Close{}
	case accepted && p.kind == promptSymbol:
		return nil, p.submitSymbol()
	case accepted:
		return nil, p.submitDate()
	}
	return nil, nil
}

// submitSymbol checks what was typed by the one symbol rule; a refusal
// shows it as typed, with the reason, and nothing is fetched.
func (p *Model) submitSymbol() common.Action {
	if p.value == "" {
		p.errMsg = "type a symbol, or esc to keep " + p.current
		if p.current == "" {
			p.errMsg = "type a symbol, or esc to cancel"
		}
		return nil
	}
	sym, err := config.ParseSymbol(p.value)
	if err != nil {
		p.errMsg = err.Error()
		return nil
	}
	if slices.Contains(p.onList, sym) {
		p.errMsg = sym + " is already on the watchlist"
		return nil
	}
	if slices.Contains(p.unknown, sym) {
		p.errMsg = "no such symbol: " + sym
		if near := config.NearestSymbol(sym, p.pool); near != "" {
			p.errMsg += "; did you mean " + near + "?"
		}
		return nil
	}
	return common.PickSymbol{Symbol: sym, Known: slices.Contains(p.pool, sym)}
}

// submitDate accepts a past trading day or today (today as 0: live), by
// the one date rule the command line uses too.
func (p *Model) submitDate() common.Action {
	d, err := config.ParseDate(p.value, p.com.Now())
	if err != nil {
		p.errMsg = err.Error()
		return nil
	}
	return common.PickDate{Date: d}
}

// update applies a key; accepted is true when the user pressed enter.
func (p *Model) update(k tea.KeyPressMsg) (accepted, canceled bool) {
	keys := p.com.Prompt
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

// typed appends printable text as typed: only a-z are folded to upper case
// (the rule's case folding); nothing is dropped, replaced or cut here, so a refusal can show exactly what the user wrote. A symbol
// that can no longer become valid says why at once.
func (p *Model) typed(text string) {
	if text == "" {
		return
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return
		}
	}
	if p.kind == promptSymbol {
		text = foldASCII(text)
	}
	p.value += text
	p.edited()
	if p.kind == promptSymbol {
		// "BRK." is on its way to BRK.B; "SP X" and eleven letters are not.
		if _, err := config.ParseSymbol(p.value); err != nil {
			if _, more := config.ParseSymbol(p.value + "A"); more != nil {
				p.errMsg = err.Error()
			}
		}
	}
}

func (p *Model) edited() {
	p.errMsg = ""
	p.sel = -1
	p.filter()
}

// filter keeps the candidates that start with what was typed.
func (p *Model) filter() {
	p.sugg = p.sugg[:0]
	if p.kind != promptSymbol {
		return
	}
	typed := strings.ToUpper(p.value)
	for _, s := range p.pool {
		if strings.HasPrefix(s, typed) && s != typed {
			p.sugg = append(p.sugg, s)
		}
		if len(p.sugg) == 8 {
			break
		}
	}
}

// foldASCII upper-cases a to z and leaves every other character as it is,
// so that "ß" or "é" reach the rule as typed rather than as "SS" or "É".
func foldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
