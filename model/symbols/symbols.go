// Package symbols is what the session knows of symbols: the recent ones,
// most recent first (saved off the Update path), and those the service
// answered 204 for this session, which the symbol prompt refuses without
// asking again.
package symbols

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"chainwatch/config"
	"chainwatch/model/common"
)

// Session is the session's symbols.
type Session struct {
	Recent, Unknown []string
	save            func([]string) error // nil: the recent list is not saved
}

// SaveErrMsg reports that the recent list could not be saved; the screen
// says so in the status bar and carries on.
type SaveErrMsg struct{ Err error }

// New starts from recent, saving the list with save.
func New(recent []string, save func([]string) error) Session {
	return Session{Recent: slices.Clone(recent), save: save}
}

// Remember puts sym first in the recent list and saves the list. It is
// called when a symbol's chain arrives with options, so a typo never
// becomes a completion.
func (s *Session) Remember(sym string) tea.Cmd {
	if len(s.Recent) > 0 && s.Recent[0] == sym {
		return nil
	}
	list := []string{sym}
	for _, r := range s.Recent {
		if r != sym && len(list) < config.MaxRecent {
			list = append(list, r)
		}
	}
	s.Recent = list
	save := s.save
	if save == nil {
		return nil
	}
	saved := slices.Clone(list)
	return func() tea.Msg {
		if err := save(saved); err != nil {
			return SaveErrMsg{err}
		}
		return nil
	}
}

// Known are the symbols the prompt completes from and trusts: the recent
// ones, then more's (the watchlist's).
func (s *Session) Known(more ...[]string) []string {
	out := slices.Clone(s.Recent)
	for _, list := range more {
		for _, sym := range list {
			if !slices.Contains(out, sym) {
				out = append(out, sym)
			}
		}
	}
	return out
}

// KnownOf is Known with the symbols of the pages that know some (the
// watchlist's), in the pages' order.
func (s *Session) KnownOf(pages []common.Page) []string {
	var more [][]string
	for _, p := range pages {
		if k, ok := p.(common.Known); ok {
			more = append(more, k.Known())
		}
	}
	return s.Known(more...)
}

// NoSuch notes that the service does not know sym and says so, with the
// nearest of known (the prompt's completions) the user may have meant and the key that picks
// another.
func (s *Session) NoSuch(sym string, known []string, key string) string {
	if !slices.Contains(s.Unknown, sym) {
		s.Unknown = append(s.Unknown, sym)
	}
	notice := "no such symbol: " + sym
	if near := config.NearestSymbol(sym, known); near != "" {
		notice += "; did you mean " + near + "?"
	}
	return notice + " (" + key + " picks another)"
}
