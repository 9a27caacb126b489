package ui

import (
	"strconv"
	"strings"

	"chainwatch/text"
	"chainwatch/theme"
)

// The scanner modal's pieces. The modal itself (its states, the huh form,
// the results table) is package model/scanner's; these draw the frame,
// the two lists the form cannot (the rows of a scan and the formula
// completions) and, in scanner_body.go, each screen's body.
// Like every renderer here they return exactly the lines asked for, each
// exactly w cells, so the modal can be laid over the watch screen by plain
// concatenation.

// ModalBox frames body in a rounded border w x h: the title on the left
// of the top border and info (the cost of a run, a count) on its right,
// the body inside with one blank of padding each side, and help in the
// last inner line, where the eye looks for keys.
//
// Body lines may be styled (a huh form's view); they are cut or padded to
// the inner width, and lines past the room are dropped, so a form taller
// than the box cannot push the border off screen. A body element holding
// newlines counts as several lines. title, info and help are plain text:
// they are cleaned of control characters (a saved scan's name comes from
// the config file) and cut with "…" when the box is narrow, info first,
// because the title says what the box is.
func ModalBox(title, info string, body []string, help string, w, h int, st *theme.Styles) []string {
	out := make([]string, max(h, 0))
	if h <= 0 {
		return out
	}
	if w < 4 || h < 2 {
		for i := range out {
			out[i] = paneBlank(w)
		}
		return out
	}
	frame := st.Span(theme.ToneAccent, theme.ShadeNone)
	out[0] = modalTop(text.Clean(title), text.Clean(info), w, frame, st)
	out[h-1] = frame.Wrap("╰" + strings.Repeat("─", w-2) + "╯")

	inner := h - 2
	if inner <= 0 {
		return out
	}
	iw, _ := ModalInner(w, h)
	side := func(content string) string { return frame.Wrap("│") + " " + content + " " + frame.Wrap("│") }
	lines := body
	for _, b := range body {
		if strings.Contains(b, "\n") {
			lines = strings.Split(strings.Join(body, "\n"), "\n")
			break
		}
	}
	// The help keeps whole keys, the first ones (the most used): "pgdn
	// next…" was neither a key nor what it does.
	helpLines := []string{CutAtItems(strings.Split(text.Clean(help), " · "), " · ", iw)}
	bodyRows := inner - 1 // the last inner line is the help's
	if help == "" || inner < 2 {
		bodyRows, helpLines = inner, nil
	}
	for i := 0; i < bodyRows; i++ {
		content := paneBlank(iw)
		if i < len(lines) {
			content = Fit(lines[i], iw)
		}
		out[1+i] = side(content)
	}
	for i, t := range helpLines {
		hl := newPaneLine(iw, theme.Span{})
		hl.put(st.Span(theme.ToneMuted, theme.ShadeNone), t)
		out[1+bodyRows+i] = side(hl.line())
	}
	return out
}

// ModalInner is the room ModalBox gives the body of a w x h box: the
// width inside the border and its padding, and the lines above the help.
// Renderers of the body should be given this width, or their last cells
// are cut.
func ModalInner(w, h int) (bodyW, bodyH int) { return max(w-4, 0), max(h-3, 0) }

// modalTop is the top border with the title and the info in it:
// "╭─ Scanner ────── 30 pts ─╮".
func modalTop(title, info string, w int, frame theme.Span, st *theme.Styles) string {
	room := w - 4 // "╭─" and "─╮"
	// Each text takes a blank either side of it.
	tw, iw := paneWidth(title), paneWidth(info)
	if info != "" && tw+2+iw+2 > room {
		iw = max(room-tw-2-2-1, 0) // keep one rule cell between them
		if iw < 4 {
			info, iw = "", 0
		} else {
			info = Cut(info, iw)
		}
	}
	if title != "" && tw+2 > room {
		tw = max(room-2, 0)
		title = Cut(title, tw)
	}
	l := newPaneLine(w, frame)
	l.put(frame, "╭─")
	if title != "" && tw > 0 {
		l.put(frame, " ")
		l.put(st.Span(theme.ToneBold, theme.ShadeNone), title)
		l.put(frame, " ")
	}
	fill := w - 2 - l.n
	if info != "" && iw > 0 {
		fill -= iw + 2
	}
	l.put(frame, strings.Repeat("─", max(fill, 0)))
	if info != "" && iw > 0 {
		l.put(frame, " ")
		l.put(st.Span(theme.ToneText, theme.ShadeNone), info)
		l.put(frame, " ")
	}
	l.put(frame, "─╮")
	return l.line()
}

// ScanRowView is one row of a scan as the modal shows it: the formula,
// its display name, whether it is in the results, its sort ("none",
// "asc", "desc"), and the grammar's verdict on it (Check: the kind it
// yields, or why it is wrong, or the service's 400 message; Bad: wrong).
type ScanRowView struct {
	Formula, Name string
	Include       bool
	Sort          string
	Check         string
	Bad           bool
}

// ScanRows is the rows table, w cells wide: a header
// "#  Formula  Name  Show  Sort  Check", then a window of at most n-1 rows
// (n lines in all) scrolled to keep sel visible; when some rows are out
// of the window the header says which are shown ("3-10/24").
//
// Every state reads without colour: the selected row is marked "▸" (and
// on the cursor shade), a bad row's check starts with "✗" in the error
// tone, a good one with "✓". Formula, name and check are cut with "…",
// the formula last, since it is what the row is.
func ScanRows(rows []ScanRowView, sel, w, n int, st *theme.Styles) []string {
	if n <= 0 {
		return nil
	}
	shown := min(len(rows), n-1)
	out := make([]string, 0, shown+1)
	if w <= 0 {
		for range shown + 1 {
			out = append(out, "")
		}
		return out
	}
	first := 0
	if sel >= shown && shown > 0 {
		first = min(sel-shown+1, len(rows)-shown)
	}
	counter := ""
	if shown < len(rows) {
		counter = strconv.Itoa(first+1) + "-" + strconv.Itoa(first+shown) + "/" + strconv.Itoa(len(rows))
	}
	c := scanRowCols(rows, w, len(counter))

	hdr := newPaneLine(w, st.Span(theme.ToneMuted, theme.ShadeHeader))
	hs := st.Span(theme.ToneMuted, theme.ShadeHeader)
	hdr.put(hs, padRight("", 2)+padLeft("#", c.num)+"  ")
	hdr.put(hs, padRight("Formula", c.formula)+"  "+padRight("Name", c.name)+"  Show  Sort  ")
	gap := 0
	if counter != "" {
		gap = 1
	}
	hdr.put(hs, padRight("Check", max(c.check-len(counter)-gap, 0)))
	if counter != "" {
		hdr.blank(hdr.room() - len(counter))
		hdr.put(hs, counter)
	}
	out = append(out, hdr.line())

	for i := first; i < first+shown; i++ {
		out = append(out, scanRowLine(&rows[i], i, i == sel, c, w, st))
	}
	return out
}

// scanRowWidths are the column widths of ScanRows. Show and Sort are
// fixed at 4 ("yes", "desc"); the rest share what is left.
type scanRowWidths struct{ num, formula, name, check int }

// minCheck is the room the header's row counter needs in the Check column.
func scanRowCols(rows []ScanRowView, w, minCheck int) scanRowWidths {
	c := scanRowWidths{num: max(len(strconv.Itoa(len(rows))), 1)}
	fixed := 2 + c.num + 2 + 2 + 2 + 4 + 2 + 4 + 2 // marker, #, gaps, Show, Sort
	room := max(w-fixed, 0)
	nameW, checkW := 4, 5
	for i := range rows {
		nameW = max(nameW, paneWidth(rows[i].Name))
		checkW = max(checkW, paneWidth(rows[i].Check)+2)
	}
	// The formula is what a row is: it keeps at least half the room; the
	// name is short by nature; the check gets the rest, and a long error
	// is cut (the form shows it in full under the field).
	c.name = min(nameW, max(room/5, 4))
	c.check = max(min(checkW, max(room*3/10, 5)), minCheck)
	c.formula = max(room-c.name-c.check, 0)
	return c
}

// scanRowLine draws row i of ScanRows.
func scanRowLine(r *ScanRowView, i int, selected bool, c scanRowWidths, w int, st *theme.Styles) string {
	shade, mark := theme.ShadeNone, "  "
	if selected {
		shade, mark = theme.ShadeCursor, "▸ "
	}
	sp := func(t theme.Tone) theme.Span { return st.Span(t, shade) }
	l := newPaneLine(w, sp(theme.ToneText))
	l.put(sp(theme.ToneAccent), mark)
	l.put(sp(theme.ToneMuted), padLeft(strconv.Itoa(i+1), c.num)+"  ")
	l.put(sp(theme.ToneText), padCells(Cut(text.Clean(r.Formula), c.formula), c.formula))
	l.blank(2)
	if r.Name == "" {
		l.put(sp(theme.ToneMuted), padRight(dash, c.name))
	} else {
		l.put(sp(theme.ToneText), padCells(Cut(text.Clean(r.Name), c.name), c.name))
	}
	l.blank(2)
	show, showTone := "yes ", theme.ToneText
	if !r.Include {
		show, showTone = "no  ", theme.ToneMuted
	}
	l.put(sp(showTone), show)
	l.blank(2)
	switch r.Sort {
	case "asc", "desc":
		l.put(sp(theme.ToneText), padRight(r.Sort, 4))
	default:
		l.put(sp(theme.ToneMuted), padRight(dash, 4))
	}
	l.blank(2)
	check := text.Clean(r.Check)
	switch {
	case r.Bad:
		l.put(sp(theme.ToneError), Cut("✗ "+check, c.check))
	case check == "":
		// Not checked (an empty row, or no grammar to check with): no
		// verdict rather than a false one.
	default:
		l.put(sp(theme.ToneGood), "✓ ")
		l.put(sp(theme.ToneMuted), Cut(check, c.check-2))
	}
	return l.line()
}

// padCells pads already fitted text (which may hold wide runes) to w.
func padCells(s string, w int) string { return s + paneBlank(w-paneWidth(s)) }

// Completion is a field a formula may name, offered while it is typed.
type Completion struct {
	Name        string // what is typed: "iv30"
	Display     string // the metadata's display name: "IV 30"
	Description string
}

// Completions is the list of completions under the formula being typed:
// at most n lines of w cells, one field a line, "iv30  IV 30 · Implied
// volatility, 30 days". Names line up in a column so the descriptions
// read down; long descriptions are cut with "…". When there are more
// items than lines the last line says how many are left out. The first
// item, the best match (the one a completion key takes), is drawn in the
// accent.
func Completions(items []Completion, w, n int, st *theme.Styles) []string {
	lines := min(len(items), max(n, 0))
	out := make([]string, 0, lines)
	if lines == 0 {
		return out
	}
	more := 0
	if len(items) > lines {
		more = len(items) - (lines - 1)
		items = items[:lines-1]
	}
	nameW := 0
	for i := range items {
		nameW = max(nameW, paneWidth(text.Clean(items[i].Name)))
	}
	nameW = min(nameW, max(w/3, 4))
	for i := range items {
		it := &items[i]
		l := newPaneLine(w, theme.Span{})
		l.blank(1)
		tone := theme.ToneText
		if i == 0 {
			tone = theme.ToneAccent
		}
		l.put(st.Span(tone, theme.ShadeNone), padCells(Cut(text.Clean(it.Name), nameW), nameW))
		l.blank(2)
		rest := l.room() - 1
		disp := text.Clean(it.Display)
		if strings.EqualFold(disp, it.Name) {
			disp = ""
		}
		desc := text.Clean(it.Description)
		if disp != "" {
			d := Cut(disp, rest)
			l.put(st.Span(theme.ToneText, theme.ShadeNone), d)
			rest -= paneWidth(d)
			if desc != "" && rest > 4 {
				l.put(st.Span(theme.ToneMuted, theme.ShadeNone), " · ")
				rest -= 3
			}
		}
		if desc != "" && rest > 1 {
			l.put(st.Span(theme.ToneMuted, theme.ShadeNone), Cut(desc, rest))
		}
		out = append(out, l.line())
	}
	if more > 0 {
		l := newPaneLine(w, theme.Span{})
		l.blank(1)
		l.put(st.Span(theme.ToneMuted, theme.ShadeNone), "… "+strconv.Itoa(more)+" more")
		out = append(out, l.line())
	}
	return out
}
