package model

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/scan"
	"chainwatch/ui"
)

// maxCompletions is how many fields the completion list shows.
const maxCompletions = 4

// View is the modal's box, exactly w x h.
func (s *Scanner) View(now time.Time) []string {
	st := s.sh.Styles
	iw, bh := s.innerW(), s.h-3
	title := "Scanner"
	if s.name != "" {
		title += " · " + s.name
	}
	var body []string
	var help []key.Binding
	switch s.state {
	case inEdit:
		body, help = s.editBody(iw, bh), s.keys.EditHelp()
	case inResults:
		body, help = s.resultsBody(iw, now), s.keys.ResultsHelp()
	case inSaved:
		body, help = s.dialogBody(iw), s.keys.SavedHelp()
	case inSaveAs:
		body, help = s.dialogBody(iw), s.keys.NameHelp()
	default:
		body, help = s.dialogBody(iw), s.keys.DialogHelp()
	}
	return ui.ModalBox(title, s.costInfo(), body, helpText(help), s.w, s.h, st)
}

// costInfo is the top border's right side: mode, rows asked for, price.
func (s *Scanner) costInfo() string {
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

func (s *Scanner) editBody(iw, ih int) []string {
	st := s.sh.Styles
	views := make([]ui.ScanRowView, len(s.rows))
	for i, r := range s.rows {
		c := s.check(r)
		views[i] = ui.ScanRowView{Formula: r.Formula, Name: r.Name, Include: r.Include, Sort: string(r.Sort), Check: c.text, Bad: c.bad}
	}
	rowLines := max(min(len(s.rows)+1, ih/3), 2)
	body := ui.ScanRows(views, s.sel, iw, rowLines, st)
	body = append(body, "")
	body = append(body, s.formLines(iw)...)
	body = append(body, s.checkLine(iw))
	if s.formulaFocused() {
		body = append(body, ui.Completions(s.completions(), iw, maxCompletions, st)...)
	}
	foot := []string{s.allLine(iw), s.msgLine(iw)}
	for len(body)+len(foot) < ih {
		body = append(body, "")
	}
	if len(body)+len(foot) > ih {
		body = body[:max(ih-len(foot), 0)]
	}
	return append(body, foot...)
}

func (s *Scanner) dialogBody(iw int) []string {
	msg := s.msgLine(iw)
	// The forms show no errors of their own (WithShowErrors(false)): a
	// value the dialog refuses, such as a preset's name to save under,
	// is said on the message line, else enter would seem to do nothing.
	if s.form != nil {
		if errs := s.form.Errors(); len(errs) > 0 {
			msg = ansi.Truncate(s.sh.Styles.Error.Render(feed.OneLine(errs[0].Error())), iw, "…")
		}
	}
	return append(s.formLines(iw), "", msg)
}

func (s *Scanner) formLines(iw int) []string {
	if s.form == nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(s.form.View(), "\n"), "\n")
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], iw, "…")
	}
	return lines
}

// checkLine is the verdict on the selected row, in words.
func (s *Scanner) checkLine(iw int) string {
	st := s.sh.Styles
	r := s.rows[s.sel]
	c := s.check(r)
	var text string
	switch {
	case r.blank():
		text = st.Muted.Render("type a field name for completion, or " + keyOf(s.keys.Saved) + " for the saved scans and presets")
	case c.bad && s.typingField(r):
		text = st.Muted.Render("… " + keyOf(s.huhKeys.Input.AcceptSuggestion) + " completes the field name")
	case c.bad:
		text = st.Error.Render("✗ " + c.text)
	case s.grammar == nil && s.metaErr != nil:
		text = st.Warn.Render("not checked: the field list is unavailable (" + feed.OneLine(s.metaErr.Error()) + "); the service checks it when run")
	case s.grammar == nil:
		text = st.Muted.Render("not checked yet: the field list is on its way")
	case c.text == "filter":
		text = st.Muted.Render("✓ a filter: only symbols where it holds are listed")
	default:
		text = st.Muted.Render("✓ a " + c.text + " column")
	}
	return ansi.Truncate(text, iw, "…")
}

// typingField reports whether the formula's last word is a field name
// being typed: then "unknown field iv" is a word not yet finished, and the
// line under the form says how to complete it instead.
func (s *Scanner) typingField(r *scanRow) bool {
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
func (s *Scanner) completions() []ui.Completion {
	if s.grammar == nil {
		return nil
	}
	word, _ := api.WordAt(s.rows[s.sel].Formula)
	if word == "" {
		return nil
	}
	fields := s.grammar.Complete(word)
	out := make([]ui.Completion, 0, min(len(fields), maxCompletions))
	for _, f := range fields[:min(len(fields), maxCompletions)] {
		out = append(out, ui.Completion{Name: f.Name, Display: f.DisplayName, Description: f.Description})
	}
	return out
}

func (s *Scanner) allLine(iw int) string {
	st := s.sh.Styles
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
	return ansi.Truncate(st.Muted.Render(text), iw, "…")
}

func (s *Scanner) msgLine(iw int) string {
	if s.msg == "" {
		return ""
	}
	st := s.sh.Styles
	if s.msgBad {
		return ansi.Truncate(st.Error.Render(feed.OneLine(s.msg)), iw, "…")
	}
	return ansi.Truncate(st.Value.Render(feed.OneLine(s.msg)), iw, "…")
}

// resultsH is the table's height inside the box: the box less its border,
// the help line and the line above the table.
func (s *Scanner) resultsH() int { return max(s.h-4, 3) }

func (s *Scanner) resultsBody(iw int, now time.Time) []string {
	st := s.sh.Styles
	info := ""
	if s.results != nil && s.last != nil {
		age := now.Sub(s.last.At).Round(time.Second)
		info = fmt.Sprintf("%d of %d rows · %s · %d points · %s ago", s.results.Visible(), s.results.Len(),
			s.results.SortInfo(), spentOf(s.last.Resp), age)
	}
	body := []string{ansi.Truncate(st.Muted.Render(info), iw, "…")}
	if s.results != nil {
		body = append(body, s.results.View()...)
	}
	return body
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
