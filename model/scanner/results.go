package scanner

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/evertras/bubble-table/table"

	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/scan"
	"chainwatch/theme"
	"chainwatch/ui"
)

// scanResults is the results state of the scanner modal: the rows of the
// last run in a bubble-table, sortable by any column, filterable, and
// enter opens the highlighted symbol on the watch screen.
//
// bubble-table draws the header and rows; this type picks the columns'
// widths, formats the values once (the table sorts on the values, not on
// their text, through a sort function of its own), and draws the line
// under the table itself (the filter being typed, the page), so that View
// is exactly w x h whatever the table does.
type scanResults struct {
	st      *theme.Styles
	keys    keymap.ScannerKeys
	tbl     table.Model
	cols    []scan.Column
	natural []int // each column's widest text (ui.ColumnWidths)
	widths  []int // each column's drawn width at w (ui.FitColumnWidths)
	n       int   // rows in all

	// sortCol is the index into cols of the column sorted on, or -1 for
	// the scan's own order (the service's, as returned); desc flips it.
	sortCol int
	desc    bool

	w, h int
}

// srOrder is the hidden row key holding the row's place in the scan's
// order, to sort back to it and to find a row again after a re-sort.
const srOrder = "__order"

func newScanResults(sh *common.Common, out scan.Outcome) *scanResults {
	r := &scanResults{st: sh.Styles, keys: keymap.Scanner(), sortCol: -1, w: 80, h: 10}
	var rows []scan.RowCells
	if out.Result != nil {
		rows = scan.BuildRows(out.Result.Output, out.Columns)
	}
	r.n = len(rows)
	r.cols = scan.BuildColumns(rows, out.Columns)
	titles := make([]string, len(r.cols))
	for j, c := range r.cols {
		titles[j] = c.Title
	}
	r.natural = ui.ColumnWidths(titles, len(rows), func(i, j int) string { return rows[i][j].Text })
	r.widths = ui.FitColumnWidths(r.natural, r.w)

	st := r.st
	trows := make([]table.Row, len(rows))
	for i, cells := range rows {
		data := table.RowData{srOrder: i}
		for j, c := range cells {
			if c.Kind != scan.KindNull {
				data[r.cols[j].Key] = c
			}
		}
		trows[i] = table.NewRow(data)
	}
	border := table.Border{Top: " ", Left: " ", Right: " ", Bottom: "─", TopRight: " ", TopLeft: " ",
		BottomRight: " ", BottomLeft: " ", TopJunction: " ", LeftJunction: " ", RightJunction: " ",
		BottomJunction: " ", InnerJunction: "─", InnerDivider: " "}
	r.tbl = table.New(r.tableColumns()).WithRows(trows).
		Border(border).WithOuterBorder(false).
		WithBaseStyle(st.ScanCell).HeaderStyle(st.ScanHeader).HighlightStyle(st.ScanSelected).
		WithMissingDataIndicatorStyled(table.NewStyledCell("—", st.Muted)).
		WithKeyMap(keymap.ResultsTableKeys()).
		WithFooterVisibility(false).
		Filtered(true).Focused(true).
		WithHorizontalFreezeColumnCount(1)
	if !st.NoColor {
		r.tbl = r.tbl.WithBorderForeground(st.Palette.Border)
	}
	r.SetSize(r.w, r.h)
	return r
}

// SetSize fits the table in w x h: one line for the header, one for its
// rule, one under the table for the filter and the page, the rest rows.
// Columns wider than w scroll sideways with Symbol frozen on the left.
func (r *scanResults) SetSize(w, h int) {
	r.w, r.h = max(w, 0), max(h, 0)
	if widths := ui.FitColumnWidths(r.natural, r.w); !slices.Equal(widths, r.widths) {
		r.widths = widths
		r.tbl = r.tbl.WithColumns(r.tableColumns())
	}
	r.tbl = r.tbl.WithPageSize(max(r.h-3, 1)).WithMaxTotalWidth(max(r.w, 1))
}

// tableColumns are the table's columns at their drawn widths: text to
// the left and filtered, numbers to the right, each sorted by less.
func (r *scanResults) tableColumns() []table.Column {
	tcols := make([]table.Column, len(r.cols))
	for i, c := range r.cols {
		align := lipgloss.Left
		if c.Kind == scan.KindNumber {
			align = lipgloss.Right
		}
		tcols[i] = table.NewColumn(c.Key, c.Title, r.widths[i]).
			WithStyle(lipgloss.NewStyle().Align(align)).
			WithFiltered(c.Kind == scan.KindText).
			WithSortFunc(r.less)
	}
	return tcols
}

// Update answers a key of the results state, except Back when no filter
// is typed or applied (the modal's: it leaves the results). While a
// filter is typed every key goes to it: enter keeps it, esc drops it.
// Back on an applied filter clears it first. Enter on a row returns the
// row's symbol.
func (r *scanResults) Update(msg tea.KeyPressMsg) (picked string, cmd tea.Cmd) {
	if r.tbl.GetIsFilterInputFocused() {
		if key.Matches(msg, r.keys.Back) {
			r.tbl = r.tbl.WithFilterInputValue("")
			return "", nil
		}
		r.tbl, cmd = r.tbl.Update(msg)
		return "", cmd
	}
	switch {
	case key.Matches(msg, r.keys.Pick):
		return r.highlighted(), nil
	case key.Matches(msg, r.keys.SortNext):
		r.sortBy(r.sortCol+1, true)
		return "", nil
	case key.Matches(msg, r.keys.SortPrev):
		r.sortBy(r.sortCol-1, true)
		return "", nil
	case key.Matches(msg, r.keys.SortFlip):
		r.desc = !r.desc
		r.sortBy(r.sortCol, false)
		return "", nil
	case key.Matches(msg, r.keys.Back):
		if r.tbl.GetIsFilterActive() {
			r.tbl = r.tbl.WithFilterInputValue("")
		}
		return "", nil
	}
	r.tbl, cmd = r.tbl.Update(msg)
	return "", cmd
}

// highlighted is the symbol of the highlighted row, "" for none.
func (r *scanResults) highlighted() string {
	rows := r.tbl.GetVisibleRows()
	i := r.tbl.GetHighlightedRowIndex()
	if i < 0 || i >= len(rows) {
		return ""
	}
	c, _ := rows[i].Data[r.cols[0].Key].(scan.Cell)
	return c.Text
}

// sortBy sorts on column col (wrapping past either end through the
// scan's own order, -1). A newly chosen column starts in the direction a
// trader reads it: numbers biggest first, yes before no, text A to Z.
// The highlight stays on the same row, wherever the sort moves it.
func (r *scanResults) sortBy(col int, fresh bool) {
	n := len(r.cols)
	col = (col+1+n+1)%(n+1) - 1
	if fresh {
		r.desc = col >= 0 && r.cols[col].Kind != scan.KindText
	}
	r.sortCol = col
	keep := r.highlightedOrder()
	k := srOrder
	if col >= 0 {
		k = r.cols[col].Key
	}
	if r.desc {
		r.tbl = r.tbl.SortByDesc(k)
	} else {
		r.tbl = r.tbl.SortByAsc(k)
	}
	for i, row := range r.tbl.GetVisibleRows() {
		if o, _ := row.Data[srOrder].(int); o == keep {
			r.tbl = r.tbl.WithHighlightedRow(i)
			break
		}
	}
}

func (r *scanResults) highlightedOrder() int {
	rows := r.tbl.GetVisibleRows()
	i := r.tbl.GetHighlightedRowIndex()
	if i < 0 || i >= len(rows) {
		return -1
	}
	o, _ := rows[i].Data[srOrder].(int)
	return o
}

// less orders two cells for the table's stable sort; the table swaps the
// arguments for a descending sort. Nulls (nil: the key is missing) go
// last in both directions, since a blank is never the answer to "highest
// IV" nor to "lowest". Numbers compare as numbers, text without case.
func (r *scanResults) less(a, b any) bool {
	ca, okA := a.(scan.Cell)
	cb, okB := b.(scan.Cell)
	switch {
	case !okA && !okB:
		return false
	case !okA:
		return r.desc
	case !okB:
		return !r.desc
	}
	if ca.Kind != cb.Kind {
		return ca.Kind < cb.Kind
	}
	if ca.Kind == scan.KindText {
		la, lb := strings.ToLower(ca.Text), strings.ToLower(cb.Text)
		if la != lb {
			return la < lb
		}
		return ca.Text < cb.Text
	}
	return ca.Num < cb.Num
}

// Filtering reports whether a filter is typed or applied. Esc then
// belongs to the table: it drops the filter rather than leave the
// results.
func (r *scanResults) Filtering() bool {
	return r.tbl.GetIsFilterInputFocused() || r.tbl.GetIsFilterActive()
}

// Len is the rows the scan returned; Visible the rows the filter keeps.
func (r *scanResults) Len() int     { return r.n }
func (r *scanResults) Visible() int { return r.tbl.TotalRows() }

// SortInfo says how the rows are ordered: "scan order", "sorted by
// iv30 ↓".
func (r *scanResults) SortInfo() string {
	arrow := "↑"
	if r.desc {
		arrow = "↓"
	}
	if r.sortCol < 0 {
		if r.desc {
			return "scan order reversed"
		}
		return "scan order"
	}
	return "sorted by " + r.cols[r.sortCol].Title + " " + arrow
}

// View is the table and the line under it, exactly h lines of exactly w
// cells.
func (r *scanResults) View() []string {
	empty := "no symbol matched the scan"
	if r.n > 0 {
		empty = "no row matches the filter"
	}
	foot := ui.ResultsFoot{
		Filter: r.tbl.GetCurrentFilter(), Typing: r.tbl.GetIsFilterInputFocused(),
		ScrollsRight: ui.ScrollsRight(r.widths, r.w), Page: r.tbl.CurrentPage(), Pages: r.tbl.MaxPages(),
	}
	return ui.ResultsTable(r.tbl.View(), r.tbl.TotalRows(), empty, foot, r.w, r.h, r.st)
}
