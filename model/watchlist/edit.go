package watchlist

import (
	"slices"
	"strconv"
	"sync"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/ui"
)

// Editing the list: add (through the root's symbol prompt), remove with
// one undo, and move in the user's order. Every edit is saved at once, so
// nothing is lost if the terminal closes; saves run off the update loop
// and the newest list always wins (saver).

// Add puts sym (checked by the symbol rule) at the end of the list and
// selects it. added is false when sym is on the list already (it is
// selected instead) or the list is full; cmd saves the list.
func (m *Model) Add(sym string) (added bool, cmd tea.Cmd) {
	defer m.keepCursor()
	switch {
	case slices.Contains(m.symbols, sym):
		m.note = ui.Note{Text: sym + " is already on the watchlist", Tone: ui.ToneValue}
		m.cursor = sym
		m.arrange()
		return false, nil
	case len(m.symbols) >= config.MaxWatchlist:
		m.note = m.fullNote()
		return false, nil
	}
	m.symbols = append(m.symbols, sym)
	m.rows[sym] = &entry{}
	m.cursor, m.undo, m.added = sym, nil, sym
	m.note = ui.Note{Text: "added " + sym, Tone: ui.ToneValue}
	m.arrange()
	return true, m.saveList()
}

// fullNote says the list cannot grow.
func (m *Model) fullNote() ui.Note {
	return ui.Note{Text: "the watchlist holds at most " + strconv.Itoa(config.MaxWatchlist) + " symbols: " + m.keys.Remove.Help().Key + " removes one", Tone: ui.ToneWarn}
}

// remove takes the selected symbol off the list; u puts it back.
func (m *Model) remove() tea.Cmd {
	i := slices.Index(m.symbols, m.cursor)
	if i < 0 {
		return nil
	}
	sym := m.symbols[i]
	// The cursor goes to the next row shown, as in a list one clears.
	if j := slices.Index(m.order, sym); j+1 < len(m.order) {
		m.cursor = m.order[j+1]
	} else if j > 0 {
		m.cursor = m.order[j-1]
	} else {
		m.cursor = ""
	}
	m.symbols = slices.Delete(m.symbols, i, i+1)
	m.undo = &removal{symbol: sym, at: i, e: m.rows[sym]}
	delete(m.rows, sym)
	m.note = ui.Note{Text: "removed " + sym + " · " + m.keys.Undo.Help().Key + " puts it back", Tone: ui.ToneValue}
	m.arrange()
	return m.saveList()
}

// restore puts the symbol removed last back where it was, with its data.
func (m *Model) restore() tea.Cmd {
	u := m.undo
	if u == nil || slices.Contains(m.symbols, u.symbol) {
		m.note = ui.Note{Text: "nothing to undo", Tone: ui.ToneValue}
		return nil
	}
	m.undo = nil
	m.symbols = slices.Insert(m.symbols, min(u.at, len(m.symbols)), u.symbol)
	m.rows[u.symbol] = u.e
	m.cursor = u.symbol
	m.note = ui.Note{Text: "put back " + u.symbol, Tone: ui.ToneValue}
	m.arrange()
	return m.saveList()
}

// move shifts the selected symbol by step in the user's order. In a
// sorted view the order on screen is the sort's, so it says how to get
// to the user's own instead of moving something out of sight.
func (m *Model) move(step int) tea.Cmd {
	if !m.manual {
		m.note = ui.Note{Text: m.keys.MoveUp.Help().Key + "/" + m.keys.MoveDown.Help().Key +
			" move symbols in your own order: " + m.keys.SortNext.Help().Key + " until the title says \"your order\"", Tone: ui.ToneValue}
		return nil
	}
	i := slices.Index(m.symbols, m.cursor)
	j := i + step
	if i < 0 || j < 0 || j >= len(m.symbols) {
		return nil
	}
	m.symbols[i], m.symbols[j] = m.symbols[j], m.symbols[i]
	m.note = ui.Note{}
	m.arrange()
	return m.saveList()
}

// SavedMsg is a save's outcome.
type SavedMsg struct {
	Seq uint64
	Err error
}

// saveList is the command that saves the list as it is now.
func (m *Model) saveList() tea.Cmd {
	if m.saver.save == nil {
		m.note = ui.Note{Text: "the watchlist is kept for this session only: there is no config file to save it in (--config)", Tone: ui.ToneWarn}
		return nil
	}
	return m.saver.cmd(slices.Clone(m.symbols))
}

// saved shows a save's outcome: a failure until a later save succeeds; the
// first success after the config file had skipped entries says they are
// gone from the file now.
func (m *Model) saved(s SavedMsg) {
	switch {
	case s.Err != nil:
		m.note = ui.Note{Text: "watchlist not saved: " + api.OneLine(s.Err.Error()), Tone: ui.ToneError}
	case m.note.Tone == ui.ToneError:
		m.note = ui.Note{Text: "watchlist saved", Tone: ui.ToneValue}
	}
	if s.Err == nil && len(m.skipped) > 0 {
		m.note = ui.Note{Text: "watchlist saved; the " + strconv.Itoa(len(m.skipped)) + " skipped entries are no longer in the file", Tone: ui.ToneValue}
		m.skipped = nil
	}
}

// Flush saves the latest list now if a save of it has not finished: the
// root calls it when the program quits, so the last edit is not lost with
// a command that had no time to run.
func (m *Model) Flush() error { return m.saver.flush() }

// saver runs the saves of the list. Commands run concurrently and in no
// order, so each save carries a sequence number and one that finds a
// newer list already written does nothing: the file ends up with the
// newest list whatever the order.
type saver struct {
	save   func([]string) error
	seq    uint64   // the newest save asked for (update loop only)
	latest []string // its list (update loop only)

	mu      sync.Mutex
	written uint64 // the newest save written
}

func newSaver(save func([]string) error) *saver { return &saver{save: save} }

func (s *saver) cmd(list []string) tea.Cmd {
	s.seq++
	seq := s.seq
	s.latest = list
	return func() tea.Msg {
		s.mu.Lock()
		defer s.mu.Unlock()
		if seq <= s.written {
			return nil
		}
		err := s.save(list)
		if err == nil {
			s.written = seq
		}
		return SavedMsg{Seq: seq, Err: err}
	}
}

func (s *saver) flush() error {
	if s.save == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seq <= s.written {
		return nil
	}
	if err := s.save(s.latest); err != nil {
		return err
	}
	s.written = s.seq
	return nil
}
