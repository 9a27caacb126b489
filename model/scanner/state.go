package scanner

import (
	"slices"

	"charm.land/bubbles/v2/key"

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/ui"
)

// Row is one row of formulas as typed.
type Row struct {
	Formula string
	Name    string
	Include bool
	Sort    api.SortOrder
}

// Verdict is the line under a row: a check of its formula ("a filter",
// "a value column"), the service's refusal, or nothing for a blank row.
type Verdict struct {
	Text string
	Bad  bool
}

// State is what the modal holds, as values: the root and the tests read
// it instead of the modal's fields, which stay its own.
type State struct {
	Open    bool
	Screen  Screen
	Rows    []Row
	Checks  []Verdict // one a row
	Sel     int
	Focused string // the edit form's focused field: "formula", "name", "include", "sort"
	All     bool   // all results
	Running bool
	Name    string // the saved scan loaded or saved last
	Msg     string // the message line
	MsgBad  bool
	Checked bool  // the field list arrived, so formulas are checked as typed
	MetaErr error // why the field list is missing
	// Scan is what ctrl+r would send, blank rows left out; FieldRows[i]
	// is the row of its field i.
	Scan      scan.Scan
	FieldRows []int
	Last      *scan.Outcome // the last run's outcome, nil before one
	Saved     []scan.Scan   // the saved scans the list offers, presets aside
	// Completions are the fields the selected row's last word may be, as
	// the edit screen lists them under the form while the formula has the
	// focus.
	Completions []ui.Completion
}

// State returns the modal's state as values.
func (s *Model) State() State {
	st := State{
		Open: s.open, Screen: s.state, Sel: s.sel, All: s.all, Running: s.running, Name: s.name,
		Msg: s.msg, MsgBad: s.msgBad, Checked: s.grammar != nil, MetaErr: s.metaErr,
	}
	for _, r := range s.rows {
		st.Rows = append(st.Rows, Row{Formula: r.Formula, Name: r.Name, Include: r.Include, Sort: r.Sort})
		c := s.check(r)
		st.Checks = append(st.Checks, Verdict{Text: c.text, Bad: c.bad})
	}
	if s.form != nil && s.state == Edit {
		if f := s.form.GetFocusedField(); f != nil {
			st.Focused = f.GetKey()
		}
	}
	var rows []*scanRow
	st.Scan, rows = s.toScan()
	for _, r := range rows {
		st.FieldRows = append(st.FieldRows, slices.Index(s.rows, r))
	}
	st.Completions = s.completions()
	for _, sc := range s.saved {
		st.Saved = append(st.Saved, sc.Clone())
	}
	if s.last != nil {
		last := *s.last
		st.Last = &last
	}
	return st
}

// ShortHelp is the keys of the screen showing, as its help line says them.
func (s *Model) ShortHelp() []key.Binding {
	switch s.state {
	case Edit:
		return s.keys.EditHelp()
	case Results:
		return s.keys.ResultsHelp()
	case Saved:
		return s.keys.SavedHelp()
	case SaveAs:
		return s.keys.NameHelp()
	}
	return s.keys.DialogHelp()
}

// FullHelp is ShortHelp in one column.
func (s *Model) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }
