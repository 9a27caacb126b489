package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/theme"
)

func scRows() []ScanRowView {
	return []ScanRowView{
		{Formula: "iv30 > 40", Name: "IV30", Include: true, Sort: "desc", Check: "a boolean"},
		{Formula: "iv_rank", Name: "", Include: true, Sort: "none", Check: "a number"},
		{Formula: "iv31 > 4 and hv30 < iv30 * 0.8 and days_to_earnings > 10", Name: "bad one", Include: true, Sort: "asc", Check: "unknown field iv31", Bad: true},
		{Formula: "put_call_ratio", Name: "P/C ratio", Include: false, Sort: "", Check: ""},
		{Formula: "", Include: true, Sort: "none"},
	}
}

func scCompletions() []Completion {
	return []Completion{
		{Name: "iv30", Display: "IV 30", Description: "Implied volatility of 30-day options, interpolated, in percent"},
		{Name: "iv_rank", Display: "IV Rank", Description: "Where iv30 sits in its 52-week range"},
		{Name: "iv_hv_ratio", Display: "iv_hv_ratio", Description: "iv30 over hv30"},
		{Name: "iv60", Display: "IV 60", Description: ""},
		{Name: "iv90", Display: "IV 90", Description: "Implied volatility, 90 days"},
	}
}

// scModal is the modal as the scanner shows its edit state: rows, a
// form-like body, the completions, the cost in the border, the keys.
func scModal(w, h int, color bool) []string {
	st := pxNoColor
	if color {
		st = pxColor
	}
	iw := w - 4
	body := ScanRows(scRows(), 2, iw, 5, st)
	body = append(body, "", st.Title.Render("Formula")+"\n"+"> iv30 > 40 and iv")
	body = append(body, Completions(scCompletions(), iw, 4, st)...)
	return ModalBox("Scanner · High IV", "30 pts · 2,399,970 left", body,
		"ctrl+r run · ctrl+o add row · ctrl+x remove row · pgup/pgdn rows · ctrl+t all results · ctrl+l saved · ctrl+s save · esc close",
		w, h, st)
}

func TestGoldenScannerModal(t *testing.T) {
	for _, w := range []int{80, 120} {
		for _, color := range []bool{true, false} {
			name := strconv.Itoa(w)
			if !color {
				name += "-nocolor"
			}
			t.Run(name, func(t *testing.T) {
				lines := scModal(w, 18, color)
				pxCheck(t, "modal", lines, w, 18)
				out := strings.Join(lines, "\n")
				if !color && (strings.Contains(out, "38;") || strings.Contains(out, "48;")) {
					t.Fatalf("NO_COLOR modal carries colour")
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// Without colour the selection, a bad row and a good one still read.
func TestScanRowsMarksWithoutColour(t *testing.T) {
	lines := ScanRows(scRows(), 2, 100, 10, pxNoColor)
	pxCheck(t, "rows", lines, 100, 6)
	plain := pxPlain(lines)
	for _, want := range []string{"#  Formula", "Name", "Show", "Sort", "Check", "▸ 3", "✗ unknown field iv31", "✓ a boolean", "no ", "desc"} {
		if !strings.Contains(plain, want) {
			t.Errorf("rows lack %q:\n%s", want, plain)
		}
	}
	if l := pxLineWith(lines, "iv31"); !strings.HasPrefix(l, "▸ ") || !strings.Contains(l, "…") {
		t.Errorf("selected long row not marked or not cut with …: %q", l)
	}
	if l := pxLineWith(lines, "put_call_ratio"); strings.Contains(l, "✓") || strings.Contains(l, "✗") {
		t.Errorf("an unchecked row claims a verdict: %q", l)
	}
	// Only the selected row is marked.
	if strings.Count(plain, "▸") != 1 {
		t.Errorf("want one ▸:\n%s", plain)
	}
	// The selected row is on the cursor (reverse without colour); the bad
	// row's check in the error style.
	if !strings.Contains(lines[3], pxNoColor.Span(theme.ToneText, theme.ShadeCursor).Open) {
		t.Errorf("selected row not reversed without colour: %q", lines[3])
	}
	if !strings.Contains(lines[3], pxNoColor.Span(theme.ToneError, theme.ShadeCursor).Open+"✗ unknown") {
		t.Errorf("bad check not in the error style: %q", lines[3])
	}
}

func TestScanRowsWindowFollowsSelection(t *testing.T) {
	var rows []ScanRowView
	for i := range 24 {
		rows = append(rows, ScanRowView{Formula: "iv30 > " + strconv.Itoa(i), Include: true, Sort: "none"})
	}
	for _, sel := range []int{0, 5, 9, 10, 23} {
		lines := ScanRows(rows, sel, 80, 6, pxColor)
		pxCheck(t, "rows", lines, 80, 6)
		if l := pxLineWith(lines, "▸"); !strings.Contains(l, "iv30 > "+strconv.Itoa(sel)+" ") {
			t.Errorf("sel %d not in view:\n%s", sel, pxPlain(lines))
		}
		if !strings.Contains(ansi.Strip(lines[0]), "/24") {
			t.Errorf("header does not say rows are hidden: %q", ansi.Strip(lines[0]))
		}
	}
	// All rows fit: no counter.
	lines := ScanRows(rows[:3], 1, 80, 10, pxColor)
	pxCheck(t, "rows", lines, 80, 4)
	if strings.Contains(ansi.Strip(lines[0]), "/3") {
		t.Errorf("counter shown when every row fits: %q", ansi.Strip(lines[0]))
	}
}

func TestScannerRenderersExactSizes(t *testing.T) {
	for _, w := range []int{0, 1, 3, 4, 10, 20, 40, 60, 80, 100, 119, 120, 160, 200} {
		for _, h := range []int{0, 1, 2, 3, 4, 8, 18, 40} {
			lines := ModalBox("Scanner · a very long saved scan name indeed", "250 pts · confirm", []string{"x\x1b[1mbold\x1b[m", strings.Repeat("wide 漢字 ", 30)}, "esc close", w, h, pxColor)
			pxCheck(t, "modal "+strconv.Itoa(w)+"x"+strconv.Itoa(h), lines, w, h)
			lines = ScanRows(scRows(), 2, w, h, pxNoColor)
			pxCheck(t, "rows "+strconv.Itoa(w)+"x"+strconv.Itoa(h), lines, w, min(h, len(scRows())+1))
			lines = Completions(scCompletions(), w, h, pxColor)
			pxCheck(t, "completions "+strconv.Itoa(w)+"x"+strconv.Itoa(h), lines, w, min(h, len(scCompletions())))
		}
	}
}

func TestModalBoxFrame(t *testing.T) {
	lines := ModalBox("Scanner", "30 pts", []string{"body"}, "esc close", 40, 6, pxNoColor)
	plain := strings.Split(pxPlain(lines), "\n")
	if !strings.HasPrefix(plain[0], "╭─ Scanner ─") || !strings.HasSuffix(plain[0], "─ 30 pts ─╮") {
		t.Errorf("top border: %q", plain[0])
	}
	if plain[1] != "│ body"+strings.Repeat(" ", 32)+" │" {
		t.Errorf("body line: %q", plain[1])
	}
	if iw, ih := ModalInner(40, 6); iw != 36 || ih != 3 {
		t.Errorf("ModalInner(40, 6) = %d, %d; want 36, 3 (the body's room)", iw, ih)
	}
	if !strings.HasPrefix(plain[4], "│ esc close") {
		t.Errorf("help not on the last inner line: %q", plain[4])
	}
	if plain[5] != "╰"+strings.Repeat("─", 38)+"╯" {
		t.Errorf("bottom: %q", plain[5])
	}
	// A narrow box cuts the info first, with an ellipsis.
	lines = ModalBox("Scanner · High IV", "250 pts · all results", nil, "", 30, 3, pxNoColor)
	top := ansi.Strip(lines[0])
	if !strings.Contains(top, "Scanner · High IV") || !strings.Contains(top, "…") {
		t.Errorf("narrow top should keep the title and cut the info: %q", top)
	}
	// Control characters in a name are not drawn.
	lines = ModalBox("evil\x1b]0;pwned\x07", "", nil, "", 40, 3, pxNoColor)
	if strings.Contains(lines[0], "\x1b]0") || strings.Contains(lines[0], "\x07") {
		t.Errorf("title escape reached the frame: %q", lines[0])
	}
}

func TestCompletions(t *testing.T) {
	lines := Completions(scCompletions(), 70, 3, pxNoColor)
	pxCheck(t, "completions", lines, 70, 3)
	plain := pxPlain(lines)
	for _, want := range []string{"iv30", "IV 30 · Implied volatility", "iv_rank", "… 3 more"} {
		if !strings.Contains(plain, want) {
			t.Errorf("completions lack %q:\n%s", want, plain)
		}
	}
	if !strings.Contains(ansi.Strip(lines[0]), "…") {
		t.Errorf("long description not cut with …: %q", ansi.Strip(lines[0]))
	}
	// Names line up: every description starts in the same column.
	all := Completions(scCompletions(), 120, 10, pxNoColor)
	col := -1
	for _, l := range all {
		p := ansi.Strip(l)
		i := strings.Index(p, "  ") // after the name
		for i < len(p) && p[i] == ' ' {
			i++
		}
		if col >= 0 && ansi.StringWidth(p[:i]) != col {
			t.Errorf("descriptions do not line up:\n%s", pxPlain(all))
		}
		col = ansi.StringWidth(p[:i])
	}
	// A display name equal to the name is not repeated.
	if l := pxLineWith(all, "iv_hv_ratio"); strings.Count(l, "iv_hv_ratio") != 1 {
		t.Errorf("display name repeated: %q", l)
	}
	if len(Completions(nil, 80, 5, pxColor)) != 0 || len(Completions(scCompletions(), 80, 0, pxColor)) != 0 {
		t.Errorf("no items or no room: no lines")
	}
}

// TestScanNoteCutAtAWord: a note too long for the modal (the message line
// at 80 columns) ends at a word, not "or load a saved scan with c…".
func TestScanNoteCutAtAWord(t *testing.T) {
	st := theme.New(theme.Dark(), false)
	msg := "nothing to run: type a formula, e.g. iv30 > 40, or load a saved scan with ctrl+l"
	for _, tone := range []Tone{ToneValue, ToneError} {
		got := ansi.Strip(Note{Text: msg, Tone: tone}.line(76, st))
		head, cut := strings.CutSuffix(got, "…")
		if !cut || ansi.StringWidth(got) > 76 || !strings.HasPrefix(msg, head) || msg[len(head)] != ' ' {
			t.Errorf("tone %d: %q", tone, got)
		}
	}
}

// TestFitColumnWidths: a long company name is cut to its cap only when
// the table does not fit; the room a wide screen leaves goes back to it
// (and then to a capped formula column), never past its natural width.
func TestFitColumnWidths(t *testing.T) {
	natural := []int{4, 52, 5, 30} // symbol, company, a number, a long header
	for _, c := range []struct {
		w    int
		want []int
	}{
		{40, []int{4, maxCompanyWidth, 5, maxColumnWidth}}, // narrow: the caps, scrolling
		{60, []int{4, maxCompanyWidth + 2, 5, maxColumnWidth}},
		{90, []int{4, 52, 5, maxColumnWidth + 8}}, // the company whole, the rest to the header
		{160, natural},
	} {
		got := FitColumnWidths(natural, c.w)
		if !slices.Equal(got, c.want) {
			t.Errorf("%d cells: %v, want %v", c.w, got, c.want)
		}
	}
}
