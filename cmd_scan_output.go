package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/model"
)

// The three outputs of `chainwatch scan`. Each writes the whole answer in
// one Write, after it is built, so a failure half-way leaves nothing on
// stdout for a script to misread.

// rowKeys are the columns a row carries after symbol and company_name: a
// column keyed "symbol" or "company_name" (the formula symbol, say) holds
// the row's own value and is not repeated, since JSON keys must be unique.
func rowKeys(out model.ScanOutcome) []string {
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
func writeScanJSON(w io.Writer, out model.ScanOutcome) error {
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
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeScanCSV writes a header (symbol, company_name, the columns) and a
// record per row; a null is an empty cell, numbers are written in full.
func writeScanCSV(w io.Writer, out model.ScanOutcome) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	keys := rowKeys(out)
	_ = cw.Write(append([]string{"symbol", "company_name"}, keys...))
	for _, r := range scanRows(out) {
		rec := []string{r.Symbol, r.CompanyName}
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
		return v
	}
	return fmt.Sprint(v)
}

// writeScanTable writes an aligned plain-text table for a person: numbers
// right-aligned and rounded, big integers with thousands separators, a
// dash for null. No row, no table: the summary on stderr says so.
func writeScanTable(w io.Writer, out model.ScanOutcome) error {
	rows := scanRows(out)
	if len(rows) == 0 {
		return nil
	}
	keys := rowKeys(out)
	head := append([]string{"SYMBOL", "COMPANY"}, keys...)
	cells := make([][]string, len(rows))
	right := make([]bool, len(head))
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = utf8.RuneCountInString(h)
	}
	for r, row := range rows {
		line := []string{row.Symbol, clipRunes(row.CompanyName, 28)}
		for c, k := range keys {
			v := row.Values[k]
			if _, ok := v.(float64); ok {
				right[c+2] = true
			}
			line = append(line, tableValue(v))
		}
		for i, cell := range line {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
		cells[r] = line
	}
	var b strings.Builder
	writeLine := func(line []string) {
		for i, cell := range line {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case right[i]:
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
	for _, line := range cells {
		writeLine(line)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func tableValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "-"
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return thousands(int64(v))
		}
		return strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// thousands formats n with comma separators: 1234567 is 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func scanRows(out model.ScanOutcome) []api.ScanRow {
	if out.Result == nil {
		return nil
	}
	return out.Result.Output
}

// scanSummary is the stderr line after a scan: rows, points spent, points
// left this month when the service said.
func scanSummary(out model.ScanOutcome) string {
	var b strings.Builder
	switch n := out.Rows(); {
	case n == 0:
		b.WriteString("chainwatch: no symbol matched the scan")
	case n == 1:
		b.WriteString("chainwatch: 1 row")
	case n == 20 && !out.Scan.AllResults:
		fmt.Fprintf(&b, "chainwatch: 20 rows (the top 20; --all returns every row for %d points)",
			model.Scan{AllResults: true}.Cost(out.Mode))
	default:
		fmt.Fprintf(&b, "chainwatch: %d rows", n)
	}
	if out.Resp != nil {
		fmt.Fprintf(&b, ", %s points spent", thousands(int64(out.Resp.Cost)))
		if left, ok := out.Resp.PointsLeft.Get(); ok {
			fmt.Fprintf(&b, ", %s points left this month", thousands(left))
		}
	}
	return b.String()
}
