package cmd

import (
	"fmt"

	"chainwatch/api"
	"chainwatch/scan"
)

// scanExport is a scan's outcome as the exporter prints it. JSON and CSV:
// a row per symbol, symbol, company_name and the columns in the scan's
// order, keyed by formula (or display name); the table the modal's
// formatting (scan.Outcome.Table): numbers in one format per column,
// thousands grouped. What it cost goes to stderr (scanSummary).
func scanExport(out scan.Outcome) Export {
	e := Export{
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

// scanRowsText is the start of the stderr line after a scan: how many
// rows, and whether --all would return more.
func scanRowsText(out scan.Outcome) string {
	switch n := out.Rows(); {
	case n == 0:
		return "no symbol matched the scan"
	case n == 1:
		return "1 row"
	case n == 20 && !out.Scan.AllResults:
		return fmt.Sprintf("20 rows (the top 20; --all returns every row for %d points)", scan.Scan{AllResults: true}.Cost(out.Mode))
	default:
		return fmt.Sprintf("%d rows", n)
	}
}
