package model

import (
	"chainwatch/config"
	"chainwatch/model/common"

	tea "charm.land/bubbletea/v2"
)

// onPromptKey feeds a key to the open prompt and carries out what it
// asks: close, or switch the screen to a symbol or a day.
func (a *App) onPromptKey(k tea.KeyPressMsg) tea.Cmd {
	cmd, act := a.prompt.Update(k)
	q := a.q
	switch act := act.(type) {
	case common.Close:
		a.prompt = nil
		return cmd
	case common.PickSymbol:
		q.Symbol = act.Symbol
	case common.PickDate:
		q.Date = act.Date
	default:
		return cmd
	}
	a.prompt = nil
	if q == a.q {
		return cmd
	}
	return tea.Batch(cmd, a.changeQuery(q))
}

// remember puts sym first in the recent list and saves the list off the
// Update path. It is called when a symbol's chain arrives with options,
// so a typo never becomes a completion.
func (a *App) remember(sym string) tea.Cmd {
	list := []string{sym}
	for _, s := range a.recent {
		if s != sym && len(list) < config.MaxRecent {
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
