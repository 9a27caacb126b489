package model

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/scan"
	"chainwatch/ui"
)

// scanState is what the scanner modal shows, and so where its keys go.
type scanState int

const (
	inEdit          scanState = iota // the rows and the form of the selected row
	inConfirm                        // "run for all results?" before the expensive run
	inResults                        // the last run's rows in a table
	inSaved                          // the saved scans and presets to load
	inSaveAs                         // the name to save the rows under
	inDeleteConfirm                  // "delete this saved scan?"
)

// Scanner is the scanner modal: rows of formulas edited with a huh form, a
// run that shows its cost first, results in a table, and saved scans. It
// lives as long as the App, so closing it (esc) keeps what was typed and
// the last results, and a run still in flight when it closes lands anyway.
type Scanner struct {
	sh   *common.Common
	keys keymap.ScannerKeys
	// huhKeys is the dialogs' key map; editHuhKeys the rows form's, where
	// the Sort select has no filter (esc there closes the modal, and three
	// options need none).
	huhKeys, editHuhKeys *huh.KeyMap
	ctx                  context.Context

	// mode is the watch screen's mode, which a scan uses: the scanner has
	// no date, it is live or delayed only.
	mode func() api.Mode
	// pointsLeft is the month's balance as last seen, for the cost line.
	pointsLeft func() (int64, bool)

	open  bool
	state scanState
	w, h  int

	rows []*scanRow // pointers: the form binds to a row's fields
	sel  int
	form *huh.Form // the selected row's form (or the dialog of the state)
	// formGen rises with every form built; see formMsg.
	formGen uint64
	// typed is a key or paste since the last run started: then results
	// arriving do not take the screen from what is being typed.
	typed bool
	name  string // the saved scan loaded or saved last, for the title
	all   bool   // all_results
	// formulaIn is the selected row's formula input, whose completions
	// refreshSuggestions keeps up to date.
	formulaIn *huh.Input

	grammar  *api.Grammar // nil until the metadata arrives
	metaErr  error
	metaWait bool

	running  bool
	runGen   uint64
	sent     []*scanRow // the rows of the run in flight, by field index
	sentScan scan.Scan
	results  *scanResults
	last     *scan.Outcome

	msg    string // a one-line message under the form
	msgBad bool

	saved  []scan.Scan
	save   func(scan.Scan) error
	delete func(string) error
	dialog dialog // the state's own huh form and its values
	checks checkCache
}

// NewScanner builds the modal, closed.
func NewScanner(sh *common.Common, ctx context.Context, cfg Config, mode func() api.Mode, pointsLeft func() (int64, bool)) *Scanner {
	s := &Scanner{
		sh: sh, keys: keymap.Scanner(), huhKeys: keymap.HuhKeys(), ctx: ctx, mode: mode, pointsLeft: pointsLeft,
		saved: append([]scan.Scan(nil), cfg.Scans...), save: cfg.SaveScan, delete: cfg.DeleteScan,
	}
	s.editHuhKeys = keymap.HuhKeys()
	for _, b := range []*key.Binding{&s.editHuhKeys.Select.Filter, &s.editHuhKeys.Select.SetFilter, &s.editHuhKeys.Select.ClearFilter} {
		b.SetEnabled(false)
	}
	s.rows = []*scanRow{newScanRow()}
	return s
}

// Open shows the modal and asks for the field list the first time (it is
// free); a failed fetch is asked again at the next open.
func (s *Scanner) Open() tea.Cmd {
	s.open = true
	cmds := []tea.Cmd{s.enter(s.state)}
	if s.grammar == nil && !s.metaWait {
		s.metaWait = true
		cmds = append(cmds, fetchScanMetaCmd(s.ctx, s.sh, s.mode()))
	}
	return tea.Batch(cmds...)
}

// IsOpen reports whether the modal is on screen.
func (s *Scanner) IsOpen() bool { return s.open }

// SetSize is the modal's box, border included.
func (s *Scanner) SetSize(w, h int) {
	if w == s.w && h == s.h {
		return
	}
	s.w, s.h = w, h
	if s.form != nil {
		s.form = s.form.WithWidth(s.innerW())
	}
	if s.results != nil {
		s.results.SetSize(s.innerW(), s.resultsH())
	}
}

// Restyle follows a theme change (the terminal's background arrived).
func (s *Scanner) Restyle() {
	if s.form != nil {
		s.form = s.form.WithTheme(s.sh.Styles.Huh())
	}
	if s.last != nil {
		s.results = newScanResults(s.sh, *s.last)
		s.results.SetSize(s.innerW(), s.resultsH())
	}
}

// innerW is the width inside the box, which is the form's and the table's.
func (s *Scanner) innerW() int {
	w, _ := ui.ModalInner(s.w, s.h)
	return max(w, 10)
}

// Update takes every message while a form lives: keys when open, and huh's
// own messages (field moves, dynamic suggestions, cursor blinks) always.
// It returns the symbol picked from the results, if any.
func (s *Scanner) Update(msg tea.Msg) (tea.Cmd, string) {
	switch msg := msg.(type) {
	case scanMetaMsg:
		return s.onMeta(msg), ""
	case scanDoneMsg:
		return s.onDone(msg), ""
	case tea.KeyPressMsg:
		if !s.open {
			return nil, ""
		}
		s.typed = true
		return s.onKey(msg)
	case tea.PasteMsg:
		// A paste on the watch screen is not the hidden form's.
		if !s.open || s.state == inResults {
			return nil, ""
		}
		s.typed = true
		return s.forward(msg), ""
	case formMsg:
		if msg.gen != s.formGen {
			return nil, "" // from a form the modal has since replaced
		}
		return s.forward(msg.msg), ""
	}
	return nil, ""
}

// forward hands a message to the live huh form and acts on its end.
func (s *Scanner) forward(msg tea.Msg) tea.Cmd {
	if s.form == nil {
		return nil
	}
	m, cmd := s.form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		s.form = f
	}
	cmd = tagCmd(s.formGen, cmd)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		s.refreshSuggestions()
	}
	if s.form.State == huh.StateCompleted {
		return tea.Batch(cmd, s.completed())
	}
	return cmd
}

func (s *Scanner) onKey(k tea.KeyPressMsg) (tea.Cmd, string) {
	switch s.state {
	case inEdit:
		return s.editKey(k), ""
	case inResults:
		return s.resultsKey(k)
	}
	// The dialogs: esc leaves them, the rest is the form's.
	if key.Matches(k, s.keys.Close) && !s.dialogFiltering() {
		return s.enter(inEdit), ""
	}
	if s.state == inSaved && key.Matches(k, s.keys.Delete) {
		return s.askDelete(), ""
	}
	return s.forward(k), ""
}

// completed is a form that reached its end: the meaning depends on the
// state.
func (s *Scanner) completed() tea.Cmd {
	switch s.state {
	case inEdit:
		return s.rowDone()
	case inConfirm:
		if s.dialog.yes {
			return tea.Batch(s.enter(inEdit), s.start())
		}
		s.note("not run: nothing spent", false)
		return s.enter(inEdit)
	case inSaved:
		return s.load(s.dialog.pick)
	case inSaveAs:
		return s.saveAs(s.dialog.text)
	case inDeleteConfirm:
		return s.deleteSaved()
	}
	return nil
}

func (s *Scanner) resultsKey(k tea.KeyPressMsg) (tea.Cmd, string) {
	if s.results == nil {
		return s.enter(inEdit), ""
	}
	if !s.results.Filtering() {
		if key.Matches(k, s.keys.Back) {
			return s.enter(inEdit), ""
		}
	}
	if key.Matches(k, s.keys.Run) { // a chord no filter types
		return s.run(), ""
	}
	picked, cmd := s.results.Update(k)
	if picked != "" {
		s.open = false
	}
	return cmd, picked
}

// note sets the message line.
func (s *Scanner) note(text string, bad bool) { s.msg, s.msgBad = text, bad }

// Close hides the modal; everything in it stays for the next open.
func (s *Scanner) Close() { s.open = false }
