package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/text"
)

// The one writer of rows for every headless command: an aligned table
// for a person; --json (all fields or some), --csv, --jq and --template
// for a script. A command builds an Export of its answer and hands it to
// its Format; terminal control characters are removed (table, CSV, jq's
// and the template's text) or escaped (JSON) here and nowhere else. Each
// format writes the whole answer in one Write, after it is built, so a
// failure half-way leaves nothing on stdout for a script to misread.

// kind is the shape of the output: a table, JSON (whole, a selection of
// fields, or through jq or a template) or CSV.
type kind int

const (
	kindTable kind = iota
	kindJSON
	kindCSV
)

// allFields is --json given without a list: every field. It is what
// --help shows (--json string[="all"]), so it is a plain word: no field
// of any command is called "all".
const allFields = "all"

// exportFlags are the output flags, the same on every headless command:
// --json[=fields], --csv, --jq EXPR and --template TEXT (gh's set).
type exportFlags struct {
	json, jq, template string
	csv                bool
}

func addExportFlags(cmd *cobra.Command, f *exportFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.json, "json", "", "print the rows as JSON; --json=field,field keeps only those fields, in that order")
	fl.Lookup("json").NoOptDefVal = allFields
	fl.BoolVar(&f.csv, "csv", false, "print the rows as CSV")
	fl.StringVar(&f.jq, "jq", "", "filter the JSON rows with a jq expression (built in: no jq needed), e.g. '.[0].symbol'")
	fl.StringVar(&f.template, "template", "", "format the JSON rows with a Go template, e.g. '{{range .}}{{.symbol}}{{\"\\n\"}}{{end}}'")
	cmd.MarkFlagsMutuallyExclusive("csv", "json")
	cmd.MarkFlagsMutuallyExclusive("csv", "jq")
	cmd.MarkFlagsMutuallyExclusive("csv", "template")
	cmd.MarkFlagsMutuallyExclusive("jq", "template")
}

// format checks the flags and returns the Format they ask for; a
// malformed field list, jq expression or template is a usage error, found
// before anything is spent.
func (f exportFlags) format() Format {
	var out Format
	switch {
	case f.csv:
		out.kind = kindCSV
	case f.json != "" || f.jq != "" || f.template != "":
		out.kind = kindJSON
	}
	if f.json != "" && f.json != allFields {
		for _, name := range strings.Split(f.json, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out.fields = append(out.fields, name)
			}
		}
		if len(out.fields) == 0 {
			out.err = errors.New("--json=: name at least one field, or give --json alone for all of them")
		}
	}
	if f.jq != "" && out.err == nil {
		_, out.err = compileJQ(f.jq)
		out.jq = f.jq
	}
	if f.template != "" && out.err == nil {
		out.tmpl, out.err = parseTemplate(f.template)
	}
	return out
}

// Format is how an Export is printed, from the output flags.
type Format struct {
	kind   kind
	fields []string // --json=a,b: only these, in this order
	jq     string   // --jq, checked
	tmpl   *template.Template
	// lines writes each JSON document on one line (--watch to a log: one
	// run, one line).
	lines bool
	err   error // a malformed flag, reported by Check and Write
}

// The plain formats, for code that prints without flags.
var (
	FormatTable = Format{kind: kindTable}
	FormatJSON  = Format{kind: kindJSON}
	FormatCSV   = Format{kind: kindCSV}
)

// Check reports malformed output flags (exit status 2), and fields that no
// row has when the command's keys are known before it runs.
func (f Format) Check(keys []string) error {
	if f.err != nil {
		return badInput(f.err)
	}
	if keys != nil {
		return f.checkFields(keys)
	}
	return nil
}

// checkFields lists the fields --json may select, gh's way, when one of
// those asked for is not among them.
func (f Format) checkFields(keys []string) error {
	for _, name := range f.fields {
		if !slices.Contains(keys, name) {
			return badInput(fmt.Errorf("--json: unknown field %s; the fields are: %s", text.Quote(name), strings.Join(keys, ", ")))
		}
	}
	return nil
}

// Export is one answer of a headless command.
type Export struct {
	// Keys are a record's keys (JSON) and the CSV header, the service's
	// field names; Records the rows' values in Keys' order, nil for null.
	Keys    []string
	Records [][]any
	// Table is the answer as a person reads it.
	Table Table
	// Object is an answer that is one object, not rows (`gex
	// --summary`): its one record is written as a JSON object, which
	// --jq and --template see as it is. A table has no place for it:
	// such a command prints JSON.
	Object bool
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

// Write prints e to w in format f, in one Write after the whole output is
// built, so that an error (a jq expression that fails on this data) leaves
// stdout empty.
func (f Format) Write(w io.Writer, e Export) error {
	return f.WriteContext(context.Background(), w, e)
}

// WriteContext is Write for a command that can be interrupted: --jq and
// --template stream (their first 64 KiB are held back, so a short output
// is still all or nothing), stop on Ctrl-C and within their bounds.
func (f Format) WriteContext(ctx context.Context, w io.Writer, e Export) error {
	if f.jq != "" || f.tmpl != nil {
		if err := f.Check(e.Keys); err != nil {
			return err
		}
		doc, err := e.json(f.fields)
		if err != nil {
			return err
		}
		if f.jq != "" {
			return runJQ(ctx, f.jq, doc, w, int64(scriptHold))
		}
		return runTemplate(ctx, f.tmpl, doc, w, int64(scriptHold))
	}
	b, err := f.bytes(ctx, e)
	if err != nil || len(b) == 0 {
		return err
	}
	_, err = w.Write(b)
	return err
}

// bytes is the output of e in format f, whole (--watch prints each run so).
func (f Format) bytes(ctx context.Context, e Export) ([]byte, error) {
	if err := f.Check(e.Keys); err != nil {
		return nil, err
	}
	switch f.kind {
	case kindCSV:
		return e.csv()
	case kindTable:
		return e.Table.text(), nil
	}
	doc, err := e.json(f.fields)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	switch {
	case f.jq != "":
		err := runJQ(ctx, f.jq, doc, &out, scriptOutput)
		return out.Bytes(), err
	case f.tmpl != nil:
		err := runTemplate(ctx, f.tmpl, doc, &out, scriptOutput)
		return out.Bytes(), err
	case f.lines:
		return append(doc, '\n'), nil
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, doc, "", "  "); err != nil {
		return nil, err
	}
	pretty.WriteByte('\n')
	return pretty.Bytes(), nil
}

// json writes the rows as an array of objects, gh's shape, so that
// `--jq '.[0]'` is the first row (an Object answer: its one object); keys in the command's order (or
// fields') rather than encoding/json's sorted map keys: a document read
// by eye should read like the table.
func (e Export) json(fields []string) ([]byte, error) {
	cols := make([]int, 0, len(e.Keys))
	if fields == nil {
		for i := range e.Keys {
			cols = append(cols, i)
		}
	} else {
		for _, name := range fields {
			cols = append(cols, slices.Index(e.Keys, name))
		}
	}
	var b bytes.Buffer
	if !e.Object {
		b.WriteByte('[')
	}
	for i, rec := range e.Records {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			k, _ := marshalJSON(e.Keys[c])
			val, err := marshalJSON(rec[c])
			if err != nil {
				return nil, fmt.Errorf("encoding %s: %w", e.Keys[c], err)
			}
			b.Write(k)
			b.WriteByte(':')
			b.Write(val)
		}
		b.WriteByte('}')
	}
	if !e.Object {
		b.WriteByte(']')
	}
	return b.Bytes(), nil
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

// nullable is a service value for the exporter: nil when null.
func nullable[T any](v api.Null[T]) any {
	if !v.Valid {
		return nil
	}
	return v.V
}

// nilIfEmpty is s, or nil (JSON null) for an empty string.
func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
