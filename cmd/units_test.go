package cmd

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestOneUnitForIV: quotes' iv30 was in percent (14.46) while vol's
// atm_iv and chain's iv were fractions (0.1446); every IV in JSON is now
// a fraction, and the two agree in size.
func TestOneUnitForIV(t *testing.T) {
	env := scanEnv(t)
	var quotes []map[string]any
	out, errOut, err := (cli{env: env, now: func() time.Time { return testNow }}).run(t, "quotes", "SPY", "--events=false", "--json=iv30,iv30_change")
	if err != nil || json.Unmarshal([]byte(out), &quotes) != nil || len(quotes) != 1 {
		t.Fatalf("quotes: %v\n%s%s", err, out, errOut)
	}
	var vols []map[string]any
	out, errOut, err = (cli{env: env, now: func() time.Time { return testNow }}).run(t, "vol", "SPY", "--json=atm_iv")
	if err != nil || json.Unmarshal([]byte(out), &vols) != nil || len(vols) == 0 {
		t.Fatalf("vol: %v\n%s%s", err, out, errOut)
	}
	iv30, _ := quotes[0]["iv30"].(float64)
	atm, _ := vols[0]["atm_iv"].(float64)
	if iv30 <= 0.01 || iv30 >= 2 || atm <= 0.01 || atm >= 2 {
		t.Fatalf("iv30 %v, atm_iv %v: want both fractions", iv30, atm)
	}
	if ch, ok := quotes[0]["iv30_change"].(float64); ok && (ch <= -1 || ch >= 1) {
		t.Errorf("iv30_change %v: want a fraction", ch)
	}
	table, _, err := (cli{env: env, now: func() time.Time { return testNow }}).run(t, "quotes", "SPY", "--events=false")
	if err != nil || !strings.Contains(table, "%") {
		t.Errorf("the table shows IV in percent: %v\n%s", err, table)
	}
}

// TestExchangesByName: trades and taq name each exchange by its code (as
// the tape does) beside its id, in JSON and in the table.
func TestExchangesByName(t *testing.T) {
	env := scanEnv(t)
	for _, args := range [][]string{
		{"trades", "SPY", "--limit", "20", "--date", "2026-11-19"},
		{"taq", "SPY261120C00700000", "--date", "2026-11-19", "--since", "10:00", "--until", "10:01"},
	} {
		out, errOut, err := (cli{env: env, now: func() time.Time { return testNow }}).run(t, append(args, "--json=exchange_id,exchange")...)
		var rows []map[string]any
		if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
			t.Fatalf("%q: %v\n%s%s", args, err, out, errOut)
		}
		for _, r := range rows {
			name, ok := r["exchange"].(string)
			if _, id := r["exchange_id"].(float64); !ok || name == "" || !id {
				t.Fatalf("%q: row %v, want the exchange's code beside its id", args, r)
			}
		}
		table, _, err := (cli{env: env, now: func() time.Time { return testNow }}).run(t, args...)
		if err != nil || !strings.Contains(table, rows[0]["exchange"].(string)) {
			t.Errorf("%q: the table does not name %v:\n%s", args, rows[0]["exchange"], table)
		}
	}
}
