package watchlist

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/ui"
)

// Checking a symbol before it joins the list: a typo must never reach the
// config file. The symbol picked rides along in the next quotes request
// (no extra request, no extra points); the service's answer decides. Found:
// it is added and saved. Left out of the answer: it is refused and the
// list is as it was. A failed request keeps it waiting for the next one.

// Propose asks the service about sym before adding it. A symbol already on
// the list is selected, a full list says so; otherwise nothing changes
// until the quotes reply (Confirm).
func (m *Model) Propose(sym string) {
	switch {
	case slices.Contains(m.symbols, sym):
		m.Add(sym) // selects it and says it is there
		return
	case len(m.symbols) >= config.MaxWatchlist:
		m.note = m.fullNote()
		return
	}
	m.checking = sym
	m.note = ui.Note{Text: "checking " + sym + " with the service…", Tone: ui.ToneValue}
}

// Checking is the symbol waiting for the service's answer, "" if none.
func (m *Model) Checking() string { return m.checking }

// Confirm settles the symbol being checked from a quotes reply for the
// current query: the command saves the list when it was added.
func (m *Model) Confirm(msg feed.QuotesMsg) tea.Cmd {
	sym := m.checking
	if sym == "" || msg.Query.Gen != m.q.Gen || !slices.Contains(msg.Symbols, sym) {
		return nil
	}
	if msg.Err != nil && !api.IsNoData(msg.Err) {
		m.note = ui.Note{Text: sym + " not checked yet: " + api.OneLine(msg.Err.Error()) + "; it is asked again with the next quotes", Tone: ui.ToneWarn}
		return nil
	}
	m.checking = ""
	for _, r := range feed.QuoteRows([]string{sym}, msg.Quotes, nil) {
		if r.Found {
			_, save := m.Add(sym) // the reply then fills its row (Apply)
			return save
		}
	}
	m.note = ui.Note{Text: "no such symbol: " + sym + "; not added", Tone: ui.ToneWarn}
	return nil
}

// quoted are the symbols the quotes feed asks for: the list's fetchable
// ones and the one being checked.
func (m *Model) quoted() []string {
	syms := m.Fetchable()
	if m.checking != "" && !slices.Contains(syms, m.checking) {
		syms = append(syms, m.checking)
	}
	return syms
}

// Note is the outcome of the last action, as the page shows it.
func (m *Model) Note() string { return m.note.Text }
