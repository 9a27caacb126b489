package model

import (
	"chainwatch/config"

	tea "charm.land/bubbletea/v2"
)

// remember puts sym first in the recent list and saves the list off the
// Update path. It is called when a symbol's chain arrives with options,
// so a typo never becomes a completion.
func (a *App) remember(sym string) tea.Cmd {
	list := []string{sym}
	for _, s := range a.syms.recent {
		if s != sym && len(list) < config.MaxRecent {
			list = append(list, s)
		}
	}
	a.syms.recent = list
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
