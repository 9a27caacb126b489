package cmd

import (
	"fmt"
	"strings"

	"chainwatch/api"
	"chainwatch/scan"
)

// scanExport is a scan's outcome as the exporter prints it. JSON:
// {"last_updated","mode","points","inputs","columns","rows"}, each row
// symbol, company_name and the columns in the scan's order; CSV the same
// rows; the table the modal's formatting (scan.Outcome.Table): numbers in
// one format per column, thousands grouped.
func scanExport(out scan.Outcome) Export {
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
	e := Export{
		Meta: []Field{{"last_updated", last}, {"mode", out.Mode}, {"points", points}, {"inputs", inputs}, {"columns", columns}},
		Keys: append([]string{"symbol", "company_name"}, rowKeys(out)...),
	}
	for _, r := range scanRows(out) {
		rec := make([]any, 0, len(e.Keys))
		rec = append(rec, r.Symbol, r.CompanyName)
		for _, k := range e.Keys[2:] {
			rec = append(rec, r.Values[k])
		}
		e.Records = append(e.Records, rec)
	}
	t := out.Table()
	// The column names are the scan's keys, case sensitive, so only the
	// two fixed columns are capitalised.
	e.Table = Table{
		Head:    append([]string{"SYMBOL", "COMPANY"}, t.Titles[2:]...),
		Numeric: t.Numeric, Max: []int{0, maxCompanyWidth}, Rows: t.Rows,
	}
	return e
}

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
