package model

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
)

// maxRecent is how many recent symbols are remembered.
const maxRecent = 20

// earliestDate is the first day the service has option data for.
var earliestDate = api.NewDate(2003, 1, 1)

// onPromptKey feeds a key to the open prompt and acts on enter.
func (a *App) onPromptKey(k tea.KeyPressMsg) tea.Cmd {
	p := a.prompt
	accepted, canceled := p.update(k, a.sh.Prompt)
	switch {
	case canceled:
		a.prompt = nil
	case accepted && p.kind == promptSymbol:
		return a.submitSymbol(p)
	case accepted && p.kind == promptDate:
		return a.submitDate(p)
	}
	return nil
}

func (a *App) submitSymbol(p *prompt) tea.Cmd {
	sym := p.value
	if sym == "" {
		p.errMsg = "type a symbol, or esc to keep " + a.q.Symbol
		return nil
	}
	if !validSymbolChars(sym) || len(sym) > maxSymbolLen {
		p.errMsg = "a symbol has 1 to 10 letters, digits and . - ^ /"
		return nil
	}
	a.prompt = nil
	if sym == a.q.Symbol {
		return nil
	}
	q := a.q
	q.Symbol = sym
	return a.changeQuery(q)
}

func (a *App) submitDate(p *prompt) tea.Cmd {
	now := a.sh.Now()
	today := api.Today(now)
	var d api.Date
	if p.value != "" && p.value != "today" {
		var err error
		d, err = api.ParseDate(p.value)
		switch {
		case err != nil:
			p.errMsg = "not a date: use yyyy-mm-dd, e.g. " + today.String()
			return nil
		case d > today:
			p.errMsg = fmt.Sprintf("%s is in the future; today is %s", d, today)
			return nil
		case d < earliestDate:
			p.errMsg = "the service's option data starts on " + earliestDate.String()
			return nil
		}
		if d == today {
			d = 0
		}
	}
	a.prompt = nil
	if d == a.q.Date {
		return nil
	}
	q := a.q
	q.Date = d
	return a.changeQuery(q)
}

// remember puts sym first in the recent list and saves the list off the
// Update path. It is called when a symbol's chain arrives with options,
// so a typo never becomes a completion.
func (a *App) remember(sym string) tea.Cmd {
	list := []string{sym}
	for _, s := range a.recent {
		if s != sym && len(list) < maxRecent {
			list = append(list, s)
		}
	}
	a.recent = list
	save := a.cfg.SaveRecent
	if save == nil {
		return nil
	}
	saved := append([]string(nil), list...)
	return func() tea.Msg {
		if err := save(saved); err != nil {
			return saveErrMsg{err}
		}
		return nil
	}
}

// saveErrMsg reports that the recent list could not be saved; the screen
// says so in the status bar and carries on.
type saveErrMsg struct{ err error }
