package keymap

import (
	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"
	"github.com/evertras/bubble-table/table"
)

// ScannerKeys are the keys of the scanner modal, in its three states: the
// edit form (rows of formulas typed into huh text inputs), the results
// table, and the list of saved scans.
//
// The edit state is mostly typing, so its keys are chords a text input
// does not use: the textinput of bubbles binds ctrl+a b d e f h k n p u v
// w, the arrows, tab, enter, home and end, and huh adds shift+tab and
// enter to move between fields. What is left (ctrl+g l o r s t x, pgup,
// pgdown, alt+arrows, esc) is what the form's own actions use; a test
// checks it stays that way. The results and saved states type nothing
// (the table's filter takes every key while it is open), so they use
// plain letters and marks.
type ScannerKeys struct {
	// The edit state.
	Run, AddRow, RemoveRow, PrevRow, NextRow, AllResults, Saved, Save, Results, Close key.Binding
	// The results state.
	Pick, Filter, SortPrev, SortNext, SortFlip, Back key.Binding
	// Delete removes the highlighted scan of the saved-scans list.
	Delete key.Binding
}

// Scanner is the scanner modal's key map.
func Scanner() ScannerKeys {
	return ScannerKeys{
		Run:        key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "run")),
		AddRow:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "add row")),
		RemoveRow:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "remove row")),
		PrevRow:    key.NewBinding(key.WithKeys("pgup", "alt+up"), key.WithHelp("pgup", "prev row")),
		NextRow:    key.NewBinding(key.WithKeys("pgdown", "alt+down"), key.WithHelp("pgdn", "next row")),
		AllResults: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "all results")),
		Saved:      key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "saved scans")),
		Save:       key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save")),
		Results:    key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "last results")),
		Close:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),

		Pick:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open symbol")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		SortPrev: key.NewBinding(key.WithKeys("<", ","), key.WithHelp("<", "sort prev column")),
		SortNext: key.NewBinding(key.WithKeys(">", "."), key.WithHelp(">", "sort next column")),
		SortFlip: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "flip order")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Delete: key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "delete")),
	}
}

// EditHelp is the edit form's help line, most used first so a narrow
// modal that cuts it keeps what a new user needs.
func (k ScannerKeys) EditHelp() []key.Binding {
	return []key.Binding{k.Run, k.AddRow, k.RemoveRow, k.PrevRow, k.NextRow, k.AllResults, k.Saved, k.Save, k.Results, k.Close}
}

// ResultsHelp is the results table's help line. Moving along rows and
// pages is the table's (ResultsTableKeys) and goes without saying.
func (k ScannerKeys) ResultsHelp() []key.Binding {
	return []key.Binding{k.Pick, k.Filter, k.SortPrev, k.SortNext, k.SortFlip, k.Run, k.Back}
}

// SavedHelp is the saved-scans list's help line. In that list enter loads
// the highlighted scan into the form, so Pick is shown with that meaning;
// the keys are Pick's.
func (k ScannerKeys) SavedHelp() []key.Binding {
	load := key.NewBinding(key.WithKeys(k.Pick.Keys()...), key.WithHelp(k.Pick.Help().Key, "load"))
	return []key.Binding{load, k.Delete, k.Back}
}

// DialogHelp is the help line of the modal's small forms (the
// confirmation before an expensive run, the name to save under, the
// confirmation of a delete): enter answers, esc goes back unanswered.
func (k ScannerKeys) DialogHelp() []key.Binding {
	answer := key.NewBinding(key.WithKeys(k.Pick.Keys()...), key.WithHelp(k.Pick.Help().Key, "answer"))
	choose := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose"))
	return []key.Binding{answer, choose, k.Back}
}

// NameHelp is the help line of the save dialog, a text input: enter
// saves, esc goes back.
func (k ScannerKeys) NameHelp() []key.Binding {
	save := key.NewBinding(key.WithKeys(k.Pick.Keys()...), key.WithHelp(k.Pick.Help().Key, "save"))
	return []key.Binding{save, k.Back}
}

// HuhKeys is the key map of the scanner's huh form: huh's defaults, with
// its Quit disabled. The App owns ctrl+c (quit from anywhere); a form that
// quit on it would close the modal and leave the program running.
func HuhKeys() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("ctrl+c"), key.WithDisabled())
	return km
}

// ResultsTableKeys are the bubble-table keys of the scan results: rows on
// the arrows and j/k, pages on pgup/pgdown, first and last page on
// home/end and g/G, columns scrolled sideways on the left and right
// arrows and h/l (a scan can return up to 50 columns), "/" to type a
// filter, and enter or esc to stop typing it.
//
// Row selection is disabled: enter opens the highlighted symbol. Clearing
// a filter is disabled here because esc also means "back": the results
// model clears an applied filter on Back itself, before anything leaves
// the results.
func ResultsTableKeys() table.KeyMap {
	km := table.DefaultKeyMap()
	km.RowDown = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
	km.RowUp = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up"))
	km.RowSelectToggle = key.NewBinding(key.WithKeys("space"), key.WithDisabled())
	km.PageDown = key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "next page"))
	km.PageUp = key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "prev page"))
	km.PageFirst = key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first page"))
	km.PageLast = key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last page"))
	km.Filter = key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter"))
	km.FilterBlur = key.NewBinding(key.WithKeys("enter", "esc"), key.WithHelp("enter", "apply filter"))
	km.FilterClear = key.NewBinding(key.WithKeys("esc"), key.WithDisabled())
	km.ScrollLeft = key.NewBinding(key.WithKeys("left", "h", "shift+left"), key.WithHelp("←/h", "scroll left"))
	km.ScrollRight = key.NewBinding(key.WithKeys("right", "l", "shift+right"), key.WithHelp("→/l", "scroll right"))
	return km
}
