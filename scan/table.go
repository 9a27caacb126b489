package scan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"chainwatch/api"
)

// The values of a scan's results as a table: what each cell holds and how
// a column's numbers are written. The modal and `chainwatch scan` both
// read it, so a number looks the same on the screen and in a script;
// how wide a column is drawn is the screen's business.

// Column is a column: its key in the table, its header, and what its
// values are (numbers right-aligned and sorted as numbers).
type Column struct {
	Key, Title string
	Kind       Kind
}

// Kind is what a column's or a cell's values are. The order is the
// order of kinds in a column that mixes them.
type Kind uint8

const (
	KindNull Kind = iota
	KindNumber
	KindBool
	KindText
)

// Cell is a value as the table holds it: the text shown (also what the
// filter matches, through String) and the number it sorts by.
type Cell struct {
	Text string
	Num  float64
	Kind Kind
}

func (c Cell) String() string { return c.Text }

// RowCells are a row's cells: symbol, company, then the columns.
type RowCells []Cell

// BuildRows turns the service's rows into cells. A number's text waits
// for its column's format (BuildColumns); strings from the service are
// cleaned of control characters, so no value can drive the terminal.
func BuildRows(out []api.ScanRow, columns []string) []RowCells {
	rows := make([]RowCells, len(out))
	for i, o := range out {
		cells := make(RowCells, 0, 2+len(columns))
		cells = append(cells, textCell(o.Symbol), textCell(o.CompanyName))
		for _, k := range columns {
			switch v := o.Values[k].(type) {
			case float64:
				if math.IsNaN(v) || math.IsInf(v, 0) {
					cells = append(cells, Cell{})
				} else {
					cells = append(cells, Cell{Num: v, Kind: KindNumber})
				}
			case bool:
				c := Cell{Text: "no", Kind: KindBool}
				if v {
					c.Text, c.Num = "yes", 1
				}
				cells = append(cells, c)
			case string:
				cells = append(cells, textCell(v))
			case nil:
				cells = append(cells, Cell{})
			default:
				cells = append(cells, textCell(fmt.Sprint(v)))
			}
		}
		rows[i] = cells
	}
	return rows
}

func textCell(s string) Cell {
	s = api.OneLine(s)
	if s == "" {
		return Cell{}
	}
	return Cell{Text: s, Kind: KindText}
}

// BuildColumns names the columns, settles each one's kind and number
// format, and writes the numbers' text.
//
// A column is numeric when every value in it is a number. Its numbers
// share one format, so the decimal points line up: no decimals when every
// value is whole (counts, days), 4 when every value is below 1 (ratios
// such as a yield of 0.0123), else 2. Thousands are grouped ("1,234,567")
// so a volume reads at a glance.
func BuildColumns(rows []RowCells, columns []string) []Column {
	cols := make([]Column, 0, 2+len(columns))
	cols = append(cols, Column{Key: "symbol", Title: "Symbol"}, Column{Key: "company", Title: "Company"})
	for i, k := range columns {
		cols = append(cols, Column{Key: "c" + strconv.Itoa(i), Title: api.OneLine(k)})
	}
	for j := range cols {
		kind, whole, small := KindNull, true, true
		for _, row := range rows {
			c := row[j]
			switch {
			case c.Kind == KindNull:
				continue
			case kind == KindNull:
				kind = c.Kind
			case kind != c.Kind:
				kind = KindText
			}
			if c.Kind == KindNumber {
				whole = whole && c.Num == math.Trunc(c.Num) && math.Abs(c.Num) < 1e15
				small = small && math.Abs(c.Num) < 1
			}
		}
		if j < 2 || kind == KindNull {
			kind = KindText
		}
		decimals := 2
		switch {
		case whole:
			decimals = 0
		case small:
			decimals = 4
		}
		for _, row := range rows {
			if c := &row[j]; c.Kind == KindNumber {
				c.Text = NumberText(c.Num, decimals)
			}
		}
		cols[j].Kind = kind
	}
	return cols
}

// NumberText formats v with decimals and thousands grouped.
func NumberText(v float64, decimals int) string {
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

// Table is a finished scan as text, formatted as the results table
// shows it (one number format per column, thousands grouped, yes/no), so
// `chainwatch scan` prints what the modal shows.
type Table struct {
	Titles  []string   // Symbol, Company, then the scan's columns
	Numeric []bool     // columns of numbers, which read right-aligned
	Rows    [][]string // "" for a null
}

// Table is the outcome's rows as text cells.
func (o Outcome) Table() Table {
	var out []api.ScanRow
	if o.Result != nil {
		out = o.Result.Output
	}
	rows := BuildRows(out, o.Columns)
	cols := BuildColumns(rows, o.Columns)
	t := Table{Titles: make([]string, len(cols)), Numeric: make([]bool, len(cols)), Rows: make([][]string, len(rows))}
	for j, c := range cols {
		t.Titles[j], t.Numeric[j] = c.Title, c.Kind == KindNumber
	}
	for i, r := range rows {
		t.Rows[i] = make([]string, len(r))
		for j, c := range r {
			t.Rows[i][j] = c.Text
		}
	}
	return t
}

// GroupDigits writes n with thousands separators: 1,234,567.
func GroupDigits(n int64) string { return NumberText(float64(n), 0) }
