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

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/text"
)

// The three outputs of `chainwatch scan`. Each writes the whole answer in
// one Write, after it is built, so a failure half-way leaves nothing on
// stdout for a script to misread.

// rowKeys are the columns a row carries after symbol and company_name: a
// column keyed "symbol" or "company_name" (the formula symbol, say) holds
// the row's own value and is not repeated, since JSON keys must be unique.
func rowKeys(out scan.Outcome) []string {
	keys := make([]string, 0, len(out.Columns))
	for _, k := range out.Columns {
		if k != "symbol" && k != "company_name" {
			keys = append(keys, k)
		}
	}
	return keys
}

// writeScanJSON writes {"last_updated","mode","points","inputs","columns","rows"}
// with keys in that order and each row's keys in column order: encoding/json
// would sort a map's keys, and a script reading the rows by eye should see
// the scan's own order.
func writeScanJSON(w io.Writer, out scan.Outcome) error {
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
	var last any
	inputs := out.Scan.Fields
	if out.Result != nil {
		if out.Result.LastUpdated != "" {
			last = out.Result.LastUpdated
		}
		if len(out.Result.Inputs) > 0 {
			inputs = out.Result.Inputs
		}
	}
	points := 0
	if out.Resp != nil {
		points = out.Resp.Cost
	}
	columns := out.Columns
	if columns == nil {
		columns = []string{}
	}
	b.WriteByte('{')
	for i, kv := range []struct {
		k string
		v any
	}{{"last_updated", last}, {"mode", out.Mode}, {"points", points}, {"inputs", inputs}, {"columns", columns}} {
		if err := field(i == 0, kv.k, kv.v); err != nil {
			return err
		}
	}
	b.WriteString(`,"rows":[`)
	keys := rowKeys(out)
	for i, r := range scanRows(out) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		_ = field(true, "symbol", r.Symbol)
		_ = field(false, "company_name", r.CompanyName)
		for _, k := range keys {
			if err := field(false, k, r.Values[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b.Bytes(), "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	_, err := w.Write(pretty.Bytes())
	return err
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

// writeScanCSV writes a header (symbol, company_name, the columns) and a
// record per row; a null is an empty cell, numbers are written in full.
// Text is passed through plainText: a CSV is as often read with cat as
// parsed.
func writeScanCSV(w io.Writer, out scan.Outcome) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	keys := rowKeys(out)
	head := []string{"symbol", "company_name"}
	for _, k := range keys {
		head = append(head, text.Clean(k))
	}
	_ = cw.Write(head)
	for _, r := range scanRows(out) {
		rec := []string{text.Clean(r.Symbol), text.Clean(r.CompanyName)}
		for _, k := range keys {
			rec = append(rec, csvValue(r.Values[k]))
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
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

// writeScanTable writes an aligned plain-text table for a person, with
// the modal's formatting (scan.Outcome.Table): numbers right-aligned
// in one format per column, thousands grouped, a dash for null. No row, no
// table: the summary on stderr says so.
func writeScanTable(w io.Writer, out scan.Outcome) error {
	t := out.Table()
	if len(t.Rows) == 0 {
		return nil
	}
	// The column names are the scan's keys, case sensitive, so only the
	// two fixed columns are capitalised.
	head := append([]string{"SYMBOL", "COMPANY"}, t.Titles[2:]...)
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = ansi.StringWidth(h)
	}
	for _, row := range t.Rows {
		row[1] = ansi.Truncate(row[1], maxCompanyWidth, "…")
		for i := range row {
			if row[i] == "" {
				row[i] = "-"
			}
			width[i] = max(width[i], ansi.StringWidth(row[i]))
		}
	}
	var b strings.Builder
	writeLine := func(line []string) {
		for i, cell := range line {
			pad := strings.Repeat(" ", width[i]-ansi.StringWidth(cell))
			switch {
			case t.Numeric[i]:
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
	for _, line := range t.Rows {
		writeLine(line)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxCompanyWidth keeps a long company name from pushing the values off a
// terminal's width.
const maxCompanyWidth = 28

func scanRows(out scan.Outcome) []api.ScanRow {
	if out.Result == nil {
		return nil
	}
	return out.Result.Output
}

// scanSummary is the stderr line after a scan: rows, points spent, points
// left this month when the service said.
func scanSummary(out scan.Outcome) string {
	var b strings.Builder
	switch n := out.Rows(); {
	case n == 0:
		b.WriteString("chainwatch: no symbol matched the scan")
	case n == 1:
		b.WriteString("chainwatch: 1 row")
	case n == 20 && !out.Scan.AllResults:
		fmt.Fprintf(&b, "chainwatch: 20 rows (the top 20; --all returns every row for %d points)",
			scan.Scan{AllResults: true}.Cost(out.Mode))
	default:
		fmt.Fprintf(&b, "chainwatch: %d rows", n)
	}
	if out.Resp != nil {
		fmt.Fprintf(&b, ", %s points spent", scan.GroupDigits(int64(out.Resp.Cost)))
		if left, ok := out.Resp.PointsLeft.Get(); ok {
			fmt.Fprintf(&b, ", %s points left this month", scan.GroupDigits(left))
		}
	}
	return b.String()
}
