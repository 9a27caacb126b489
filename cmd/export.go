package cmd

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"chainwatch/text"
)

// The one writer of rows for every headless command: an aligned table
// for a person, --json or --csv for a script. A command builds an Export
// of its answer and hands it to its Format; terminal control characters
// are removed (table, CSV) or escaped (JSON) here and nowhere else. Each
// format writes the whole answer in one Write, after it is built, so a
// failure half-way leaves nothing on stdout for a script to misread.

// Format is how an Export is printed.
type Format int

const (
	FormatTable Format = iota
	FormatJSON
	FormatCSV
)

// exportFlags are --json and --csv, the same on every headless command.
type exportFlags struct{ json, csv bool }

func addExportFlags(cmd *cobra.Command, f *exportFlags) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&f.csv, "csv", false, "print the rows as CSV")
	cmd.MarkFlagsMutuallyExclusive("json", "csv")
}

func (f exportFlags) format() Format {
	switch {
	case f.json:
		return FormatJSON
	case f.csv:
		return FormatCSV
	}
	return FormatTable
}

// Export is one answer of a headless command.
type Export struct {
	// Meta are the JSON document's fields before "rows", in order.
	Meta []Field
	// Keys are a record's keys (JSON) and the CSV header; Records the rows'
	// values in Keys' order, nil for null.
	Keys    []string
	Records [][]any
	// Table is the answer as a person reads it.
	Table Table
}

// Field is one key and value of the JSON document.
type Field struct {
	Key   string
	Value any
}

// Table is text cells under titles; a numeric column is right-aligned, a
// column with a Max is cut to it with "…", and an empty cell shows "-".
// No row, no table: the command's summary on stderr says so.
type Table struct {
	Head    []string
	Numeric []bool
	Max     []int // 0: no cap; may be shorter than Head
	Rows    [][]string
}

// Write prints e to w in format f.
func (f Format) Write(w io.Writer, e Export) error {
	var b []byte
	var err error
	switch f {
	case FormatJSON:
		b, err = e.json()
	case FormatCSV:
		b, err = e.csv()
	default:
		b = e.Table.text()
	}
	if err != nil || len(b) == 0 {
		return err
	}
	_, err = w.Write(b)
	return err
}

// json writes {meta..., "rows": [...]} with keys in their given order
// (encoding/json would sort a map's): a script read by eye should see the
// command's own order.
func (e Export) json() ([]byte, error) {
	var b bytes.Buffer
	field := func(first bool, key string, v any) error {
		if !first {
			b.WriteByte(',')
		}
		k, _ := marshalJSON(key)
		val, err := marshalJSON(v)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
		return nil
	}
	b.WriteByte('{')
	for i, m := range e.Meta {
		if err := field(i == 0, m.Key, m.Value); err != nil {
			return nil, err
		}
	}
	if len(e.Meta) > 0 {
		b.WriteByte(',')
	}
	b.WriteString(`"rows":[`)
	for i, rec := range e.Records {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for j, k := range e.Keys {
			if err := field(j == 0, k, rec[j]); err != nil {
				return nil, err
			}
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	pretty.WriteByte('\n')
	return pretty.Bytes(), nil
}

// marshalJSON is json.Marshal without HTML escaping: a formula such as
// "iv30 > 40" is a key, and a script (or a person) should read it as typed.
// encoding/json escapes C0 controls (ESC among them) but writes DEL and the
// C1 controls as they are; those are escaped too (escapeC1), so a value
// cannot drive a terminal that shows the document, and still decodes to
// what the service sent.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeC1(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// escapeC1 writes DEL (U+007F) and U+0080 to U+009F as \u00XX. They can
// only stand inside strings of the encoder's output, which is valid UTF-8
// and otherwise ASCII outside strings, so the escape keeps the JSON valid
// and the value unchanged.
func escapeC1(js []byte) []byte {
	if !bytes.ContainsFunc(js, func(r rune) bool { return r == 0x7f || r >= 0x80 && r <= 0x9f }) {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if r == 0x7f || r >= 0x80 && r <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, js[i:i+n]...)
		}
		i += n
	}
	return out
}

// csv writes the header (Keys) and a record per row; a null is an empty
// cell, numbers are written in full. Text is cleaned of control
// characters: a CSV is as often read with cat as parsed.
func (e Export) csv() ([]byte, error) {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	head := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		head[i] = text.Clean(k)
	}
	_ = cw.Write(head)
	for _, rec := range e.Records {
		cells := make([]string, len(rec))
		for i, v := range rec {
			cells[i] = csvValue(v)
		}
		_ = cw.Write(cells)
	}
	cw.Flush()
	return b.Bytes(), cw.Error()
}

func csvValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return text.Clean(v)
	}
	return text.Clean(fmt.Sprint(v))
}

// text is the table aligned in columns two blanks apart, nil when there
// is no row.
func (t Table) text() []byte {
	if len(t.Rows) == 0 {
		return nil
	}
	head := make([]string, len(t.Head))
	width := make([]int, len(t.Head))
	for i, h := range t.Head {
		head[i] = text.Clean(h)
		width[i] = ansi.StringWidth(head[i])
	}
	rows := make([][]string, len(t.Rows))
	for r, row := range t.Rows {
		rows[r] = make([]string, len(row))
		for i, cell := range row {
			cell = text.Clean(cell)
			if i < len(t.Max) && t.Max[i] > 0 {
				cell = ansi.Truncate(cell, t.Max[i], "…")
			}
			if cell == "" {
				cell = "-"
			}
			rows[r][i] = cell
			width[i] = max(width[i], ansi.StringWidth(cell))
		}
	}
	var b strings.Builder
	writeLine := func(line []string) {
		for i, cell := range line {
			pad := strings.Repeat(" ", width[i]-ansi.StringWidth(cell))
			switch {
			case i < len(t.Numeric) && t.Numeric[i]:
				b.WriteString(pad + cell)
			case i == len(line)-1:
				b.WriteString(cell)
			default:
				b.WriteString(cell + pad)
			}
			if i < len(line)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteByte('\n')
	}
	writeLine(head)
	for _, line := range rows {
		writeLine(line)
	}
	return []byte(b.String())
}
