package cmd

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"chainwatch/sandbox"
	"chainwatch/scan"
)

// tradesCLI runs commands against one sandbox on the tests' clock
// (Friday 14:00 Eastern), with the commands on the same clock.
func tradesCLI(t *testing.T, cfg sandbox.Config) cli {
	t.Helper()
	cfg.Now, cfg.PerSecond = func() time.Time { return testNow }, -1
	sb, err := sandbox.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = sb.AuthURL, sb.BaseURL, sandbox.DemoClientID, sb.DemoSecret
	return cli{env: env, now: func() time.Time { return testNow }}
}

// TestTradesCommandCSV is the issue's "done when": `chainwatch trades
// SPY --csv` prints trades with their side.
func TestTradesCommandCSV(t *testing.T) {
	c := tradesCLI(t, sandbox.Config{})
	out, errOut, err := c.run(t, "trades", "SPY", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out)
	}
	if len(rows) < 10 {
		t.Fatalf("%d rows:\n%s", len(rows), out)
	}
	head := rows[0]
	col := map[string]int{}
	for i, k := range head {
		col[k] = i
	}
	for _, k := range []string{"timestamp", "security", "option_trade_size", "option_trade_price", "option_trade_at", "premium"} {
		if _, ok := col[k]; !ok {
			t.Fatalf("no %s column in %v", k, head)
		}
	}
	sides := map[string]bool{"Below Bid": true, "On Bid": true, "Mid Market": true, "On Ask": true, "Above Ask": true, "Crossed Market": true, "No Market": true}
	prev := ""
	for _, r := range rows[1:] {
		if !sides[r[col["option_trade_at"]]] {
			t.Fatalf("side %q in %v", r[col["option_trade_at"]], r)
		}
		// From the last quarter hour (13:45) on, in time order.
		if ts := r[col["timestamp"]]; ts < "13:45:00.000" || ts > "14:00:00.000" || ts < prev {
			t.Fatalf("time %s after %s", ts, prev)
		}
		prev = r[col["timestamp"]]
	}
	if !strings.Contains(errOut, "trades of SPY on 2026-11-20 from 13:45") || !strings.Contains(errOut, "15 points spent") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestTradesCommandContract: an OSI symbol prints that contract's trades
// with IV and delta, --since and --min-size narrow them, and the summary
// on stderr adds up to the rows.
func TestTradesCommandContract(t *testing.T) {
	c := tradesCLI(t, sandbox.Config{})
	// A busy contract: the ladder's call nearest the money on the day.
	out, errOut, err := c.run(t, "trades", "SPY", "--json", "--since", "09:30")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var all []map[string]any
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	best := ""
	for _, r := range all {
		s, _ := r["security"].(string)
		count[s]++
		if count[s] > count[best] {
			best = s
		}
	}
	out, errOut, err = c.run(t, "trades", best, "--json", "--since", "10:00", "--min-size", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) == 0 || !strings.Contains(errOut, " trades of "+best+" on ") || !strings.Contains(errOut, ", 15 points spent") {
		t.Fatalf("%d rows; stderr %q", len(rows), errOut)
	}
	var vol float64
	for _, r := range rows {
		if r["time"].(string) < "10:00:00.000" || r["size"].(float64) < 2 {
			t.Fatalf("row outside --since 10:00 --min-size 2: %v", r)
		}
		if r["iv"] == nil || r["delta"] == nil || r["option_trade_at"] == "" {
			t.Fatalf("row without IV, delta or side: %v", r)
		}
		if r["flag"].(float64) == 0 {
			vol += r["size"].(float64)
		}
	}
	want := fmt.Sprintf(": volume %s (bid ", scan.GroupDigits(int64(vol)))
	if !strings.Contains(errOut, want) || !regexpMatch(`premium \$[\d,]+, largest \d+ @ \d+\.\d\d .+, \d+ blocks?, \d+ sweeps?`, errOut) {
		t.Errorf("stderr %q, want %q and the rest of the summary", errOut, want)
	}
}

// TestTradesCommandErrors: a caller's mistake exits 2 before any request,
// an empty window 3, a missing subscription 1 saying what still works;
// stdout stays empty.
func TestTradesCommandErrors(t *testing.T) {
	c := tradesCLI(t, sandbox.Config{})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trades", "SP Y"}, ExitInput, "a blank is not part of a symbol"},
		{[]string{"trades", "SPY", "--since", "9.45"}, ExitInput, "--since"},
		{[]string{"trades", "SPY", "--min-size", "-1"}, ExitInput, "--min-size"},
		{[]string{"trades", "SPY", "--date", "2026-11-14"}, ExitInput, "not a trading day"},
		{[]string{"trades", "SPY261120C09990000"}, ExitNoData, "no trades of SPY261120C09990000"},
		{[]string{"taq", "SPY261120C00700000"}, ExitInput, "since"},
		{[]string{"taq", "SPY261120C00700000", "--since", "10:00", "--until", "09:00"}, ExitInput, "before --since"},
	} {
		out, errOut, err := c.run(t, tc.args...)
		if code := exitCode(err); code != tc.code || out != "" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: exit %d (want %d), stdout %q, err %v, stderr %q", tc.args, code, tc.code, out, err, errOut)
		}
	}
	none := tradesCLI(t, sandbox.Config{Entitlements: []sandbox.Entitlement{}})
	out, _, err := none.run(t, "trades", "SPY")
	if exitCode(err) != ExitService || out != "" || !strings.Contains(err.Error(), "OPRA") || !strings.Contains(err.Error(), "--date 2026-11-19") {
		t.Errorf("without OPRA: exit %d, stdout %q, err %v", exitCode(err), out, err)
	}
}

// TestTAQCommand prints a contract's NBBO changes and trades in a window.
func TestTAQCommand(t *testing.T) {
	c := tradesCLI(t, sandbox.Config{})
	out, errOut, err := c.run(t, "trades", "SPY", "--csv", "--since", "13:59")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	rows, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
	osi := rows[1][2]
	out, errOut, err = c.run(t, "taq", osi, "--since", "13:00", "--until", "13:10")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "TIME") || !strings.Contains(out, "quote") {
		t.Fatalf("table:\n%s", out)
	}
	for _, l := range lines[1:] {
		if ts := strings.Fields(l)[0]; ts < "13:00:00.000" || ts > "13:10:00.000" {
			t.Fatalf("record at %s outside 13:00-13:10", ts)
		}
	}
	if !strings.Contains(errOut, "points spent") || !strings.Contains(errOut, "quotes") {
		t.Errorf("stderr %q", errOut)
	}
}
