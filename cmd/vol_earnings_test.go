package cmd

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// earningsRow is a `vol --earnings --json` row.
type earningsRow struct {
	Kind        string   `json:"kind"`
	Report      string   `json:"report_date"`
	Expiry      *string  `json:"expiry"`
	Before      *string  `json:"before_expiry"`
	Straddle    *float64 `json:"straddle_move"`
	StraddlePct *float64 `json:"straddle_move_percent"`
	Event       *float64 `json:"event_move"`
	EventPct    *float64 `json:"event_move_percent"`
	MovePct     *float64 `json:"move_percent"`
	Move        *float64 `json:"move"`
	TimeOfDay   string   `json:"time_of_day"`
}

// volRow is what the check reads of a `vol --json` row.
type volRow struct {
	Expiry string  `json:"expiry"`
	DTE    int     `json:"dte"`
	ATMIV  float64 `json:"atm_iv"`
}

// TestVolEarningsEventMove is the issue's "done when": `vol AAPL
// --earnings --json` gives the next report's event_move under its
// straddle_move, and the event move is the one the ATM IVs of the
// expiries either side of the report (from `vol AAPL --json`) give.
func TestVolEarningsEventMove(t *testing.T) {
	c, _ := volCLI(t)
	var rows []earningsRow
	runJSON(t, c, &rows, "vol", "AAPL", "--earnings", "--json")
	if len(rows) == 0 || rows[0].Kind != "next" {
		t.Fatalf("rows %+v", rows)
	}
	n := rows[0]
	if n.Straddle == nil || n.Event == nil || n.Before == nil || n.Expiry == nil || !(*n.Event > 0) || !(*n.Event < *n.Straddle) ||
		!(*n.EventPct < *n.StraddlePct) || *n.Before >= n.Report || *n.Expiry <= n.Report {
		t.Fatalf("next report %+v", n)
	}
	var exps []volRow
	runJSON(t, c, &exps, "vol", "AAPL", "--json")
	ivOf := func(date string) (volRow, bool) {
		for _, e := range exps {
			if e.Expiry == date {
				return e, true
			}
		}
		return volRow{}, false
	}
	b, ok1 := ivOf(*n.Before)
	a, ok2 := ivOf(*n.Expiry)
	if !ok1 || !ok2 {
		t.Fatalf("the expiries %s and %s are not in vol's rows", *n.Before, *n.Expiry)
	}
	want := 100 * math.Sqrt(2/math.Pi) * math.Sqrt((a.ATMIV*a.ATMIV-b.ATMIV*b.ATMIV)*float64(a.DTE)/365)
	if math.Abs(*n.EventPct-want) > 1e-3 {
		t.Errorf("event move %v %%, from the ATM IVs %v and %v: %v %%", *n.EventPct, b.ATMIV, a.ATMIV, want)
	}
}

// TestVolEarningsNamesMissingReports: with nothing stored, every one of
// the last reports is a "missing" row and stderr gives the backfill that
// stores them; after that backfill each is a realized move and none is
// missing.
func TestVolEarningsNamesMissingReports(t *testing.T) {
	c, _ := volCLI(t)
	var rows []earningsRow
	runJSON(t, c, &rows, "vol", "AAPL", "--earnings", "--json")
	var missing []string
	for _, r := range rows {
		if r.Kind == "missing" {
			missing = append(missing, r.Report)
			if r.Move != nil || r.Event != nil {
				t.Errorf("a missing report with a move: %+v", r)
			}
		}
	}
	if len(missing) != 8 {
		t.Fatalf("%d missing reports, want the last 8: %+v", len(missing), rows)
	}
	_, errOut, err := c.run(t, "vol", "AAPL", "--earnings")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`8 reports lack stored closes \(([^)]*)\), so have no realized move: (chainwatch history backfill AAPL --days (\d+))`).FindStringSubmatch(errOut)
	if m == nil || m[1] != strings.Join(missing, ", ") {
		t.Fatalf("stderr does not name the 8 and the backfill:\n%s", errOut)
	}
	args := strings.Fields(strings.TrimPrefix(m[2], "chainwatch "))
	if _, errOut, err := c.run(t, append(args, "--yes")...); err != nil {
		t.Fatalf("%s: %v\n%s", m[2], err, errOut)
	}
	rows = nil
	runJSON(t, c, &rows, "vol", "AAPL", "--earnings", "--json")
	past := 0
	for _, r := range rows {
		switch r.Kind {
		case "missing":
			t.Errorf("still missing after the backfill: %+v", r)
		case "past":
			past++
			if r.MovePct == nil {
				t.Errorf("a realized move without a move: %+v", r)
			}
		}
	}
	if past != 8 {
		t.Errorf("%d realized moves after the backfill, want 8", past)
	}
}
