package scanner

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"chainwatch/api"
	"chainwatch/scan"
)

// scanRow is one ScanFieldParam as the form edits it.
type scanRow struct {
	Formula string
	Name    string
	Include bool
	Sort    api.SortOrder
	// refused is the service's 400 about this row, shown on it while the
	// row is still the one it refused (formula, name, inclusion and sort:
	// the complaint may be about any of them).
	refused, refusedAs string
}

// state is the row's whole content, to tell whether it changed since the
// service refused it.
func (r *scanRow) state() string {
	return r.Formula + "\x00" + r.Name + "\x00" + strconv.FormatBool(r.Include) + "\x00" + string(r.Sort)
}

// refusal is the service's complaint while it still applies.
func (r *scanRow) refusal() string {
	if r.refused != "" && r.refusedAs == r.state() {
		return r.refused
	}
	return ""
}

func newScanRow() *scanRow { return &scanRow{Include: true, Sort: api.SortNone} }

func rowOf(p api.ScanFieldParam) *scanRow {
	r := &scanRow{Formula: p.Formula, Name: p.DisplayName, Include: p.Included(), Sort: p.Sort}
	if r.Sort == "" {
		r.Sort = api.SortNone
	}
	return r
}

func (r *scanRow) blank() bool { return strings.TrimSpace(r.Formula) == "" }

func (r *scanRow) param() api.ScanFieldParam {
	p := api.ScanFieldParam{Formula: strings.TrimSpace(r.Formula), DisplayName: strings.TrimSpace(r.Name), Sort: r.Sort}
	if !r.Include {
		no := false
		p.IncludeInResultset = &no
	}
	return p
}

// editKey is a key in the edit state: the modal's own keys first, the
// rest to the selected row's form.
func (s *Model) editKey(k tea.KeyPressMsg) tea.Cmd {
	keys := s.keys
	switch {
	case key.Matches(k, keys.Close):
		s.open = false
		return nil
	case key.Matches(k, keys.Run):
		return s.run()
	case key.Matches(k, keys.AddRow):
		return s.addRow()
	case key.Matches(k, keys.RemoveRow):
		return s.removeRow()
	case key.Matches(k, keys.PrevRow):
		return s.selectRow(s.sel - 1)
	case key.Matches(k, keys.NextRow):
		return s.selectRow(s.sel + 1)
	case key.Matches(k, keys.AllResults):
		s.all = !s.all
		return nil
	case key.Matches(k, keys.Saved):
		s.note("", false)
		return s.enter(Saved)
	case key.Matches(k, keys.Save):
		s.note("", false)
		return s.enter(SaveAs)
	case key.Matches(k, keys.Results):
		if s.results != nil {
			return s.enter(Results)
		}
		s.note("no results yet: "+keyOf(s.keys.Run)+" runs the scan", false)
		return nil
	}
	return s.forward(k)
}

// addRow inserts an empty row under the selected one, up to the
// service's 50 fields.
func (s *Model) addRow() tea.Cmd {
	if len(s.rows) >= api.MaxScanFields {
		s.note("a scan has at most 50 fields", true)
		return nil
	}
	i := s.sel + 1
	s.rows = append(s.rows[:i], append([]*scanRow{newScanRow()}, s.rows[i:]...)...)
	return s.selectRow(i)
}

// removeRow deletes the selected row; the last one is emptied instead, so
// there is always a row to type in.
func (s *Model) removeRow() tea.Cmd {
	if len(s.rows) == 1 {
		s.rows[0] = newScanRow()
		return s.selectRow(0)
	}
	s.rows = append(s.rows[:s.sel], s.rows[s.sel+1:]...)
	return s.selectRow(min(s.sel, len(s.rows)-1))
}

// selectRow moves the form to row i (clamped).
func (s *Model) selectRow(i int) tea.Cmd {
	s.sel = max(0, min(i, len(s.rows)-1))
	return s.editForm()
}

// rowDone is enter on the form's last field: on to the next row, or back
// to the formula of the last one.
func (s *Model) rowDone() tea.Cmd {
	if s.sel+1 < len(s.rows) {
		return s.selectRow(s.sel + 1)
	}
	return s.selectRow(s.sel)
}

// editForm builds the selected row's form. huh binds each field to the
// row's own storage, so what is typed is in the row at once.
func (s *Model) editForm() tea.Cmd {
	r := s.rows[s.sel]
	formula := huh.NewInput().Key("formula").Title("Formula").
		Placeholder("a field or a condition, e.g. iv30 > 40").
		CharLimit(api.MaxFormulaLength).Value(&r.Formula)
	name := huh.NewInput().Key("name").Title("Display name ").Inline(true).
		Placeholder("(the formula)").CharLimit(60).Value(&r.Name)
	include := huh.NewConfirm().Key("include").Title("In results ").Inline(true).
		Affirmative("yes").Negative("no").Value(&r.Include)
	sort := huh.NewSelect[api.SortOrder]().Key("sort").Title("Sort ").Inline(true).
		Options(huh.NewOption("none", api.SortNone), huh.NewOption("desc", api.SortDesc), huh.NewOption("asc", api.SortAsc)).
		Value(&r.Sort)
	s.formulaIn = formula
	s.refreshSuggestions()
	return s.setForm(huh.NewGroup(formula, name, include, sort))
}

// refreshSuggestions gives the formula input the completions of what is
// typed in it now. It runs in Update, after every key: huh's
// SuggestionsFunc would instead call back from a command's goroutine and
// read the formula and the field list while Update writes them (a race).
func (s *Model) refreshSuggestions() {
	if s.state != Edit || s.formulaIn == nil {
		return
	}
	s.formulaIn.Suggestions(s.Suggestions(s.rows[s.sel].Formula))
}

// setForm makes g the live form, sized to its content.
func (s *Model) setForm(g *huh.Group) tea.Cmd {
	keys := s.huhKeys
	if s.state == Edit {
		keys = s.editHuhKeys
	}
	f := huh.NewForm(g).WithTheme(s.sh.Styles.Huh()).WithKeyMap(keys).
		WithShowHelp(false).WithShowErrors(false).WithWidth(s.innerW())
	f = f.WithHeight(max(countLines(g.Content()), 1))
	s.form = f
	s.formGen++
	return tagCmd(s.formGen, f.Init())
}

func countLines(s string) int { return strings.Count(s, "\n") + 1 }

// Suggestions are what huh offers as the completion of the formula: the
// text so far with the word being typed completed to each field it may be.
func (s *Model) Suggestions(formula string) []string {
	if s.grammar == nil {
		return nil
	}
	word, start := api.WordAt(formula)
	if word == "" {
		return nil
	}
	fields := s.grammar.Complete(word)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if f.Name != word {
			out = append(out, formula[:start]+f.Name)
		}
	}
	return out
}

// formulaFocused reports whether the cursor is in the formula.
func (s *Model) formulaFocused() bool {
	if s.state != Edit || s.form == nil {
		return false
	}
	f := s.form.GetFocusedField()
	return f != nil && f.GetKey() == "formula"
}

// toScan is the rows as a scan, blank rows left out, and the row behind
// each field, so the service's word about field N lands on its row.
func (s *Model) toScan() (scan.Scan, []*scanRow) {
	sc := scan.Scan{Name: s.name, AllResults: s.all}
	var rows []*scanRow
	for _, r := range s.rows {
		if r.blank() {
			continue
		}
		sc.Fields = append(sc.Fields, r.param())
		rows = append(rows, r)
	}
	return sc, rows
}

// load replaces the rows with saved scan i of the list.
func (s *Model) load(i int) tea.Cmd {
	list := s.scanList()
	if i < 0 || i >= len(list) {
		return s.enter(Edit)
	}
	sc := list[i]
	s.rows = s.rows[:0]
	for _, p := range sc.Fields {
		s.rows = append(s.rows, rowOf(p))
	}
	if len(s.rows) == 0 {
		s.rows = append(s.rows, newScanRow())
	}
	s.name, s.all, s.sel = sc.Name, sc.AllResults, 0
	s.note("loaded "+sc.Name+": "+keyOf(s.keys.Run)+" runs it", false)
	return s.enter(Edit)
}
