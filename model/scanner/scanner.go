package scanner

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/scan"
	"chainwatch/ui"
)

// Screen is what the scanner modal shows, and so where its keys go.
type Screen int

const (
	Edit          Screen = iota // the rows and the form of the selected row
	Confirm                     // "run for all results?" before the expensive run
	Results                     // the last run's rows in a table
	Saved                       // the saved scans and presets to load
	SaveAs                      // the name to save the rows under
	DeleteConfirm               // "delete this saved scan?"
)

// Model is the scanner modal: rows of formulas edited with a huh form, a
// run that shows its cost first, results in a table, and saved scans. It
// lives as long as the App, so closing it (esc) keeps what was typed and
// the last results, and a run still in flight when it closes lands anyway.
type Model struct {
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
	state Screen
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

// The modal is an overlay: the root sizes it, routes to it and carries
// out the Action its Update returns.
var _ common.Overlay = (*Model)(nil)

// Options are what the modal needs from the root besides Common.
type Options struct {
	// Saved are the config file's scans; Save and Delete write the file
	// (nil: saving is not available).
	Saved  []scan.Scan
	Save   func(scan.Scan) error
	Delete func(name string) error
	// Mode is the watch screen's mode, which a scan uses: the scanner has
	// no date, it is live or delayed only.
	Mode func() api.Mode
	// PointsLeft is the month's balance as last seen, for the cost line.
	PointsLeft func() (int64, bool)
}

// New builds the modal, closed.
func New(ctx context.Context, sh *common.Common, o Options) *Model {
	s := &Model{
		sh: sh, keys: keymap.Scanner(), huhKeys: keymap.HuhKeys(), ctx: ctx, mode: o.Mode, pointsLeft: o.PointsLeft,
		saved: append([]scan.Scan(nil), o.Saved...), save: o.Save, delete: o.Delete,
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
func (s *Model) Open() tea.Cmd {
	s.open = true
	cmds := []tea.Cmd{s.enter(s.state)}
	if s.grammar == nil && !s.metaWait {
		s.metaWait = true
		cmds = append(cmds, fetchScanMetaCmd(s.ctx, s.sh, s.mode()))
	}
	return tea.Batch(cmds...)
}

// IsOpen reports whether the modal is on screen.
func (s *Model) IsOpen() bool { return s.open }

// SetSize is the modal's box, border included.
func (s *Model) SetSize(w, h int) {
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
func (s *Model) Restyle() {
	if s.form != nil {
		s.form = s.form.WithTheme(s.sh.Styles.Huh())
	}
	if s.last != nil {
		s.results = newScanResults(s.sh, *s.last)
		s.results.SetSize(s.innerW(), s.resultsH())
	}
}

// innerW is the width inside the box, which is the form's and the table's.
func (s *Model) innerW() int {
	w, _ := ui.ModalInner(s.w, s.h)
	return max(w, 10)
}

// Update takes every message while a form lives: keys when open, and huh's
// own messages (field moves, dynamic suggestions, cursor blinks) always.
// Its Action is PickSymbol when a row of the results is picked, Close
// when the modal closed itself (esc), and Notice when a run ends while the
// modal is closed, for the status bar.
func (s *Model) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	wasOpen := s.open
	cmd, picked := s.update(msg)
	switch {
	case picked != "":
		return cmd, common.PickSymbol{Symbol: picked, Known: true}
	case wasOpen && !s.open:
		return cmd, common.Close{}
	}
	if done, ok := msg.(DoneMsg); ok && !s.open && done.Gen == s.runGen {
		return cmd, common.Notice{Text: doneNotice(done, s.sh.Keys.Scanner.Help().Key), Info: done.Err == nil}
	}
	return cmd, nil
}

// doneNotice says in the status bar how a run ended that finished while
// the modal was closed, and which key shows it.
func doneNotice(m DoneMsg, key string) string {
	if m.Err != nil {
		return "scan failed: " + key + " shows why"
	}
	n := 0
	if m.Out.Result != nil {
		n = len(m.Out.Result.Output)
	}
	return fmt.Sprintf("scan finished: %d rows, %s shows them", n, key)
}

// update is Update before the Action: the symbol picked from the results,
// if any.
func (s *Model) update(msg tea.Msg) (tea.Cmd, string) {
	switch msg := msg.(type) {
	case MetaMsg:
		return s.onMeta(msg), ""
	case DoneMsg:
		return s.onDone(msg), ""
	case tea.KeyPressMsg:
		if !s.open {
			return nil, ""
		}
		s.typed = true
		return s.onKey(msg)
	case tea.PasteMsg:
		// A paste on the watch screen is not the hidden form's.
		if !s.open || s.state == Results {
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
func (s *Model) forward(msg tea.Msg) tea.Cmd {
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

func (s *Model) onKey(k tea.KeyPressMsg) (tea.Cmd, string) {
	switch s.state {
	case Edit:
		return s.editKey(k), ""
	case Results:
		return s.resultsKey(k)
	}
	// The dialogs: esc leaves them, the rest is the form's.
	if key.Matches(k, s.keys.Close) && !s.dialogFiltering() {
		return s.enter(Edit), ""
	}
	if s.state == Saved && key.Matches(k, s.keys.Delete) {
		return s.askDelete(), ""
	}
	return s.forward(k), ""
}

// completed is a form that reached its end: the meaning depends on the
// state.
func (s *Model) completed() tea.Cmd {
	switch s.state {
	case Edit:
		return s.rowDone()
	case Confirm:
		if s.dialog.yes {
			return tea.Batch(s.enter(Edit), s.start())
		}
		s.note("not run: nothing spent", false)
		return s.enter(Edit)
	case Saved:
		return s.load(s.dialog.pick)
	case SaveAs:
		return s.saveAs(s.dialog.text)
	case DeleteConfirm:
		return s.deleteSaved()
	}
	return nil
}

func (s *Model) resultsKey(k tea.KeyPressMsg) (tea.Cmd, string) {
	if s.results == nil {
		return s.enter(Edit), ""
	}
	if !s.results.Filtering() {
		if key.Matches(k, s.keys.Back) {
			return s.enter(Edit), ""
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
func (s *Model) note(text string, bad bool) { s.msg, s.msgBad = text, bad }

// Close hides the modal; everything in it stays for the next open.
func (s *Model) Close() { s.open = false }
