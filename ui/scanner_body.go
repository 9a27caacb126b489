package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/text"
	"chainwatch/theme"
)

// Tone is how a line of the scanner reads: a hint, a plain value, a
// warning or an error.
type Tone int

const (
	ToneMuted Tone = iota
	ToneValue
	ToneWarn
	ToneError
)

// Note is one line of text in a tone; an empty one draws as nothing.
type Note struct {
	Text string
	Tone Tone
}

// line is n styled and cut to w cells with "…" at the end of a word (a
// note is a sentence).
func (n Note) line(w int, st *theme.Styles) string {
	if n.Text == "" {
		return ""
	}
	style := st.Muted
	switch n.Tone {
	case ToneValue:
		style = st.Value
	case ToneWarn:
		style = st.Warn
	case ToneError:
		style = st.Error
	}
	return style.Render(CutWords(n.Text, w))
}

// ScanEdit is the edit screen of the scanner: the rows, the form of the
// selected row as huh drew it, the verdict on that row, the completions
// of the word being typed, the all-results line and the message line.
type ScanEdit struct {
	Rows        []ScanRowView
	Sel         int
	Form        Form
	Check       Note
	Completions []Completion
	Completing  bool // the formula has the focus: the completions show
	All         Note
	Msg         Note
}

// MaxCompletions is how many fields the completion list shows.
const MaxCompletions = 4

// Form is a huh form's view; a missing form (Absent) draws no lines, a
// form that draws nothing one blank line.
type Form struct {
	View   string
	Absent bool
}

// ScanEditBody is the edit screen in iw x ih: rows on top (a third of
// the room at most), the form, the verdict and completions, then the
// all-results and message lines at the bottom.
func ScanEditBody(e ScanEdit, iw, ih int, st *theme.Styles) []string {
	rowLines := max(min(len(e.Rows)+1, ih/3), 2)
	body := ScanRows(e.Rows, e.Sel, iw, rowLines, st)
	body = append(body, "")
	body = append(body, FormLines(e.Form, iw)...)
	body = append(body, e.Check.line(iw, st))
	if e.Completing {
		body = append(body, Completions(e.Completions, iw, MaxCompletions, st)...)
	}
	foot := []string{e.All.line(iw, st), e.Msg.line(iw, st)}
	for len(body)+len(foot) < ih {
		body = append(body, "")
	}
	if len(body)+len(foot) > ih {
		body = body[:max(ih-len(foot), 0)]
	}
	return append(body, foot...)
}

// ScanDialogBody is a dialog's form (pick a saved scan, name, confirm)
// with the message line under it.
func ScanDialogBody(form Form, msg Note, iw int, st *theme.Styles) []string {
	return append(FormLines(form, iw), "", msg.line(iw, st))
}

// FormLines are a huh form's view as lines cut to iw.
func FormLines(form Form, iw int) []string {
	if form.Absent {
		return nil
	}
	lines := strings.Split(strings.TrimRight(form.View, "\n"), "\n")
	for i := range lines {
		lines[i] = Cut(lines[i], iw)
	}
	return lines
}

// ScanResultsBody is the results screen: a line saying what the rows
// are (count, order, cost, age) over the table.
func ScanResultsBody(info string, table []string, iw int, st *theme.Styles) []string {
	return append([]string{Cut(st.Muted.Render(info), iw)}, table...)
}

// ResultsFoot is the line under the results table: the filter (as typed,
// with a cursor while it is typed), whether columns scroll sideways, and
// the page.
type ResultsFoot struct {
	Filter       string
	Typing       bool
	ScrollsRight bool
	Page, Pages  int
}

// ResultsTable is the table bubble-table drew, fitted to w x h with the
// foot in the last line; with no rows, empty says why under the header.
func ResultsTable(table string, rows int, empty string, foot ResultsFoot, w, h int, st *theme.Styles) []string {
	out := make([]string, 0, max(h, 0))
	if h <= 0 {
		return out
	}
	body := strings.Split(table, "\n")
	if rows == 0 {
		body = append(body[:min(len(body), 1)], "", st.Muted.Render(empty))
	}
	for i := 0; i < h-1; i++ {
		line := ""
		if i < len(body) {
			line = body[i]
		}
		out = append(out, Fit(line, w))
	}
	return append(out, resultsFoot(foot, w, st))
}

func resultsFoot(f ResultsFoot, w int, st *theme.Styles) string {
	left := ""
	// As typed (a trailing blank is part of the filter), but no control
	// character reaches the terminal.
	filter := text.Clean(f.Filter)
	switch {
	case f.Typing:
		left = st.Value.Render("/"+filter) + st.Span(theme.ToneText, theme.ShadeCursor).Wrap(" ")
	case filter != "":
		left = st.Muted.Render("filter ") + st.Value.Render(filter)
	}
	var right []string
	if f.ScrollsRight {
		right = append(right, "←→ columns")
	}
	if f.Pages > 1 {
		right = append(right, "page "+strconv.Itoa(f.Page)+"/"+strconv.Itoa(f.Pages))
	}
	rt := ""
	if len(right) > 0 {
		rt = st.Muted.Render(strings.Join(right, " · "))
	}
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(rt)
	if gap < 1 {
		return Fit(left, w)
	}
	return left + strings.Repeat(" ", gap) + rt
}

// Caps on the results' column widths, so one long company name or formula
// header cannot take the table from the other columns; a cut value ends
// in "…".
const (
	maxCompanyWidth = 28
	maxColumnWidth  = 18
)

// ColumnWidths is each column's natural width, the widest of its title
// and of cell(row, column) over the rows; column 0 is the symbol and
// column 1 the company.
func ColumnWidths(titles []string, rows int, cell func(row, col int) string) []int {
	widths := make([]int, len(titles))
	for j, title := range titles {
		width := ansi.StringWidth(title)
		for i := range rows {
			width = max(width, ansi.StringWidth(cell(i, j)))
		}
		widths[j] = max(width, 1)
	}
	return widths
}

// FitColumnWidths is the drawn widths of columns of natural widths in w
// cells: each capped (the symbol never), then the room w leaves, one
// blank between columns, given back to the capped ones in column order up
// to their natural width. The caps keep one long name from taking the
// table from the other columns, not a wide screen from showing it whole.
func FitColumnWidths(natural []int, w int) []int {
	widths := make([]int, len(natural))
	room := w - (len(natural) - 1)
	for j, n := range natural {
		limit := maxColumnWidth
		switch j {
		case 0:
			limit = 1 << 10
		case 1:
			limit = maxCompanyWidth
		}
		widths[j] = min(n, limit)
		room -= widths[j]
	}
	for j := range widths {
		if room <= 0 {
			break
		}
		grow := min(natural[j]-widths[j], room)
		widths[j] += grow
		room -= grow
	}
	return widths
}

// ScrollsRight reports whether columns of widths, one blank between
// each, are wider than w.
func ScrollsRight(widths []int, w int) bool {
	total := len(widths) - 1
	for _, cw := range widths {
		total += cw
	}
	return total > w
}
