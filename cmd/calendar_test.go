package cmd

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"chainwatch/config"
	"chainwatch/config/configtest"
)

func TestCalendarCommand(t *testing.T) {
	run := chainCLI(t)

	t.Run("csv in date order, both kinds", func(t *testing.T) {
		out, errOut, err := run(t, "calendar", "AAPL", "msft", "AAPL", "--csv")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 5 || !slices.Equal(recs[0], calendarKeys) {
			t.Fatalf("%v %v", err, recs)
		}
		kinds, syms := map[string]bool{}, map[string]bool{}
		prev := ""
		for _, r := range recs[1:] {
			day := r[3] + r[9] // report_date or ex_dividend_date: one is empty
			if day < prev || (r[2] == "earnings") != (r[3] != "") || (r[2] == "dividends") != (r[9] != "") {
				t.Fatalf("row %v after %s", r, prev)
			}
			prev = day
			kinds[r[2]], syms[r[0]] = true, true
		}
		if len(kinds) != 2 || len(syms) != 2 || !syms["MSFT"] {
			t.Fatalf("kinds %v symbols %v", kinds, syms)
		}
		if !regexpMatch(`chainwatch: \d+ events from 2026-07-23 to 2027-06-08, 15 points spent`, errOut) {
			t.Fatalf("stderr %q", errOut)
		}
	})

	t.Run("dividends in a window, as a table", func(t *testing.T) {
		out, _, err := run(t, "calendar", "AAPL", "--type", "dividends", "--from", "2026-11-01", "--to", "2027-03-31")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "SYMBOL  EVENT") {
			t.Fatalf("%s", out)
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if f[1] != "ex-dividend" || f[2] < "2026-11-01" || f[2] > "2027-03-31" {
				t.Fatalf("row %q", l)
			}
		}
	})

	t.Run("from after to", func(t *testing.T) {
		_, _, err := run(t, "calendar", "AAPL", "--from", "2027-01-01", "--to", "2026-01-01")
		if exitCode(err) != ExitInput {
			t.Fatal(err)
		}
	})
}

// TestCompletionFromRecentSymbols: a symbol argument completes from the
// config file's watchlist and the recent list, without asking the service.
func TestCompletionFromRecentSymbols(t *testing.T) {
	env := homeEnv(t)
	configtest.Write(t, env["XDG_CONFIG_HOME"]+"/chainwatch", "watchlist = [\"QUAL\", \"SPY\"]\n", 0o600)
	env[envBaseURL] = "http://127.0.0.1:1" // nothing may be asked of it
	if err := config.OpenState(func(k string) string { return env[k] }).SaveRecent([]string{"QQQ", "SPY", "QCOM"}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"__complete", "chain", "q"}, {"__complete", "calendar", "SPY", "Q"}, {"__complete", "Q"}} {
		out, errOut, err := cli{env: env, now: func() time.Time { return testNow }}.run(t, args...)
		if err != nil {
			t.Fatal(err, errOut)
		}
		if lines := strings.Split(strings.TrimSpace(out), "\n"); !slices.Equal(lines, []string{"QUAL", "QQQ", "QCOM", ":4"}) {
			t.Fatalf("%v: %q", args, out)
		}
	}
}
