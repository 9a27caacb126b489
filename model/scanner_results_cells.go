package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
)

// The values of the scan results table: what each cell holds, how a
// column's numbers are written, and how wide each column is. Kept apart
// from the table model (scanner_results.go) because it is plain data
// work that the tests check value by value.

// srColumn is a column: its key in the table, its header, and what its
// values are (numbers right-aligned and sorted as numbers).
type srColumn struct {
	key, title string
	kind       srKind
	width      int // natural width: the widest of the header and values
}

// Cap widths so one long company name or formula header cannot take the
// table from the other columns; a cut value ends in "…".
const (
	srMaxCompany = 28
	srMaxColumn  = 18
)

// srKind is what a column's or a cell's values are. The order is the
// order of kinds in a column that mixes them.
type srKind uint8

const (
	srNull srKind = iota
	srNumber
	srBool
	srText
)

// srCell is a value as the table holds it: the text shown (also what the
// filter matches, through String) and the number it sorts by.
type srCell struct {
	text string
	num  float64
	kind srKind
}

func (c srCell) String() string { return c.text }

// scanRowCells are a row's cells: symbol, company, then the columns.
type scanRowCells []srCell

// srBuildRows turns the service's rows into cells. A number's text waits
// for its column's format (srBuildColumns); strings from the service are
// cleaned of control characters, so no value can drive the terminal.
func srBuildRows(out []api.ScanRow, columns []string) []scanRowCells {
	rows := make([]scanRowCells, len(out))
	for i, o := range out {
		cells := make(scanRowCells, 0, 2+len(columns))
		cells = append(cells, srTextCell(o.Symbol), srTextCell(o.CompanyName))
		for _, k := range columns {
			switch v := o.Values[k].(type) {
			case float64:
				if math.IsNaN(v) || math.IsInf(v, 0) {
					cells = append(cells, srCell{})
				} else {
					cells = append(cells, srCell{num: v, kind: srNumber})
				}
			case bool:
				c := srCell{text: "no", kind: srBool}
				if v {
					c.text, c.num = "yes", 1
				}
				cells = append(cells, c)
			case string:
				cells = append(cells, srTextCell(v))
			case nil:
				cells = append(cells, srCell{})
			default:
				cells = append(cells, srTextCell(fmt.Sprint(v)))
			}
		}
		rows[i] = cells
	}
	return rows
}

func srTextCell(s string) srCell {
	s = oneLine(s)
	if s == "" {
		return srCell{}
	}
	return srCell{text: s, kind: srText}
}

// srBuildColumns names the columns, settles each one's kind and number
// format, writes the numbers' text, and measures the widths.
//
// A column is numeric when every value in it is a number. Its numbers
// share one format, so the decimal points line up: no decimals when every
// value is whole (counts, days), 4 when every value is below 1 (ratios
// such as a yield of 0.0123), else 2. Thousands are grouped ("1,234,567")
// so a volume reads at a glance.
func srBuildColumns(rows []scanRowCells, columns []string) []srColumn {
	cols := make([]srColumn, 0, 2+len(columns))
	cols = append(cols, srColumn{key: "symbol", title: "Symbol"}, srColumn{key: "company", title: "Company"})
	for i, k := range columns {
		cols = append(cols, srColumn{key: "c" + strconv.Itoa(i), title: oneLine(k)})
	}
	for j := range cols {
		kind, whole, small := srNull, true, true
		for _, row := range rows {
			c := row[j]
			switch {
			case c.kind == srNull:
				continue
			case kind == srNull:
				kind = c.kind
			case kind != c.kind:
				kind = srText
			}
			if c.kind == srNumber {
				whole = whole && c.num == math.Trunc(c.num) && math.Abs(c.num) < 1e15
				small = small && math.Abs(c.num) < 1
			}
		}
		if j < 2 || kind == srNull {
			kind = srText
		}
		decimals := 2
		switch {
		case whole:
			decimals = 0
		case small:
			decimals = 4
		}
		width := ansi.StringWidth(cols[j].title)
		for _, row := range rows {
			c := &row[j]
			if c.kind == srNumber {
				c.text = srNumberText(c.num, decimals)
			}
			width = max(width, ansi.StringWidth(c.text))
		}
		limit := srMaxColumn
		switch {
		case j == 0:
			limit = 1 << 10 // a symbol is never cut
		case j == 1:
			limit = srMaxCompany
		}
		cols[j].kind = kind
		cols[j].width = max(min(width, limit), 1)
	}
	return cols
}

// srNumberText formats v with decimals and thousands grouped.
func srNumberText(v float64, decimals int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	for i := range len(intPart) {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(intPart[i])
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// ScanTable is a finished scan as text, formatted as the results table
// shows it (one number format per column, thousands grouped, yes/no), so
// `chainwatch scan` prints what the modal shows.
type ScanTable struct {
	Titles  []string   // Symbol, Company, then the scan's columns
	Numeric []bool     // columns of numbers, which read right-aligned
	Rows    [][]string // "" for a null
}

// Table is the outcome's rows as text cells.
func (o ScanOutcome) Table() ScanTable {
	var out []api.ScanRow
	if o.Result != nil {
		out = o.Result.Output
	}
	rows := srBuildRows(out, o.Columns)
	cols := srBuildColumns(rows, o.Columns)
	t := ScanTable{Titles: make([]string, len(cols)), Numeric: make([]bool, len(cols)), Rows: make([][]string, len(rows))}
	for j, c := range cols {
		t.Titles[j], t.Numeric[j] = c.title, c.kind == srNumber
	}
	for i, r := range rows {
		t.Rows[i] = make([]string, len(r))
		for j, c := range r {
			t.Rows[i][j] = c.text
		}
	}
	return t
}

// GroupDigits writes n with thousands separators: 1,234,567.
func GroupDigits(n int64) string { return srNumberText(float64(n), 0) }
