package scanner

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/ui"
)

// View is the modal's box, exactly w x h.
func (s *Model) View() []string {
	st := s.sh.Styles
	iw, bh := s.innerW(), s.h-3
	title := "Scanner"
	if s.name != "" {
		title += " · " + s.name
	}
	var body []string
	switch s.state {
	case Edit:
		body = ui.ScanEditBody(s.editView(iw), iw, bh, st)
	case Results:
		body = s.resultsBody(iw)
	default:
		body = ui.ScanDialogBody(s.formView(), s.dialogMsg(), iw, st)
	}
	return ui.ModalBox(title, s.costInfo(), body, helpText(s.ShortHelp()), s.w, s.h, st)
}

// costInfo is the top border's right side: mode, rows asked for, price.
func (s *Model) costInfo() string {
	sc, _ := s.toScan()
	mode := s.mode()
	what := "top 20"
	if s.all {
		what = "all results"
	}
	info := fmt.Sprintf("%s · %s · %d points", mode, what, sc.Cost(mode))
	if s.running {
		info += " · running…"
	}
	return info
}

// editView is what the edit screen shows, for ui.ScanEditBody.
func (s *Model) editView(iw int) ui.ScanEdit {
	views := make([]ui.ScanRowView, len(s.rows))
	for i, r := range s.rows {
		c := s.check(r)
		views[i] = ui.ScanRowView{Formula: r.Formula, Name: r.Name, Include: r.Include, Sort: string(r.Sort), Check: c.text, Bad: c.bad}
	}
	e := ui.ScanEdit{Rows: views, Sel: s.sel, Form: s.formView(), Check: s.checkNote(), All: s.allNote(), Msg: s.msgNote()}
	if s.formulaFocused() {
		e.Completing, e.Completions = true, s.completions()
	}
	return e
}

func (s *Model) formView() ui.Form {
	if s.form == nil {
		return ui.Form{Absent: true}
	}
	return ui.Form{View: s.form.View()}
}

// dialogMsg is a dialog's message line. The forms show no errors of their
// own (WithShowErrors(false)): a value the dialog refuses, such as a
// preset's name to save under, is said here, else enter would seem to do
// nothing.
func (s *Model) dialogMsg() ui.Note {
	if s.form != nil {
		if errs := s.form.Errors(); len(errs) > 0 {
			return ui.Note{Text: api.OneLine(errs[0].Error()), Tone: ui.ToneError}
		}
	}
	return s.msgNote()
}

// checkNote is the verdict on the selected row, in words.
func (s *Model) checkNote() ui.Note {
	r := s.rows[s.sel]
	c := s.check(r)
	switch {
	case r.blank():
		return ui.Note{Text: "type a field name for completion, or " + keyOf(s.keys.Saved) + " for the saved scans and presets"}
	case c.bad && s.typingField(r):
		return ui.Note{Text: "… " + keyOf(s.huhKeys.Input.AcceptSuggestion) + " completes the field name"}
	case c.bad:
		return ui.Note{Text: "✗ " + c.text, Tone: ui.ToneError}
	case s.grammar == nil && s.metaErr != nil:
		return ui.Note{Text: "not checked: the field list is unavailable (" + api.OneLine(s.metaErr.Error()) + "); the service checks it when run", Tone: ui.ToneWarn}
	case s.grammar == nil:
		return ui.Note{Text: "not checked yet: the field list is on its way"}
	case c.text == "filter":
		return ui.Note{Text: "✓ a filter: only symbols where it holds are listed"}
	}
	return ui.Note{Text: "✓ a " + c.text + " column"}
}

// typingField reports whether the formula's last word is a field name
// being typed: then "unknown field iv" is a word not yet finished, and the
// line under the form says how to complete it instead.
func (s *Model) typingField(r *scanRow) bool {
	if !s.formulaFocused() || s.grammar == nil || r.refusal() != "" {
		return false
	}
	word, _ := api.WordAt(r.Formula)
	if word == "" {
		return false
	}
	if _, known := s.grammar.Field(word); known {
		return false
	}
	return len(s.grammar.Complete(word)) > 0
}

// completions are the fields the word being typed may be, with their
// descriptions; a complete name shows its own description.
func (s *Model) completions() []ui.Completion {
	if s.grammar == nil {
		return nil
	}
	word, _ := api.WordAt(s.rows[s.sel].Formula)
	if word == "" {
		return nil
	}
	fields := s.grammar.Complete(word)
	out := make([]ui.Completion, 0, min(len(fields), ui.MaxCompletions))
	for _, f := range fields[:min(len(fields), ui.MaxCompletions)] {
		out = append(out, ui.Completion{Name: f.Name, Display: f.DisplayName, Description: f.Description})
	}
	return out
}

// allNote is the all-results line: on or off, what each costs, the
// balance.
func (s *Model) allNote() ui.Note {
	mode := s.mode()
	sc, _ := s.toScan()
	top, all := sc, sc
	top.AllResults, all.AllResults = false, true
	var text string
	if s.all {
		text = fmt.Sprintf("All results: on · %d points %s, asked before it runs (top 20: %d) · %s turns it off", all.Cost(mode), mode, top.Cost(mode), keyOf(s.keys.AllResults))
	} else {
		text = fmt.Sprintf("All results: off · the top 20 cost %d points %s · %s for every match (%d points)", top.Cost(mode), mode, keyOf(s.keys.AllResults), all.Cost(mode))
	}
	if left, ok := s.pointsLeft(); ok {
		text += " · " + scan.GroupDigits(left) + " left"
	}
	return ui.Note{Text: text}
}

// msgNote is the message line: the outcome of the last action.
func (s *Model) msgNote() ui.Note {
	if s.msgBad {
		return ui.Note{Text: api.OneLine(s.msg), Tone: ui.ToneError}
	}
	return ui.Note{Text: api.OneLine(s.msg), Tone: ui.ToneValue}
}

// resultsH is the table's height inside the box: the box less its border,
// the help line and the line above the table.
func (s *Model) resultsH() int { return max(s.h-4, 3) }

func (s *Model) resultsBody(iw int) []string {
	info := ""
	var table []string
	if s.results != nil && s.last != nil {
		age := s.sh.Now().Sub(s.last.At).Round(time.Second)
		info = fmt.Sprintf("%d of %d rows · %s · %d points · %s ago", s.results.Visible(), s.results.Len(),
			s.results.SortInfo(), spentOf(s.last.Resp), age)
	}
	if s.results != nil {
		table = s.results.View()
	}
	return ui.ScanResultsBody(info, table, iw, s.sh.Styles)
}

// helpText is the bindings as "key what · key what".
func helpText(bs []key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " · ")
}

// keyOf is a binding's key as its help shows it, for messages that name
// a key: the keymap owns the key, the message follows it.
func keyOf(b key.Binding) string { return b.Help().Key }
