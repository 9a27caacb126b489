package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/config"
	"chainwatch/strategy"
)

// TestPositionsCommand saves a vertical from `strategy --save` on one
// sandbox clock, then marks it with `positions` an hour later: its P&L
// is its value at the legs' mids less its fills, and it moved.
func TestPositionsCommand(t *testing.T) {
	env := scanEnv(t)
	out, errOut, err := cli{env: env, now: func() time.Time { return testNow }}.run(t, "strategy", "SPY 2026-12-18 +C700 -C710", "--save", "--json")
	if err != nil || !strings.Contains(errOut, "saved as position 1") {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	path := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch", "positions.toml")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi, err)
	}
	saved, err := config.LoadPositions(path)
	if err != nil || len(saved) != 1 {
		t.Fatalf("%v %v", saved, err)
	}
	pos, err := strategy.FromSaved(saved[0])
	if err != nil {
		t.Fatal(err)
	}
	cost := 0.0
	for _, l := range pos.Strategy.Legs {
		cost += l.Units() * l.Price
	}

	later := testNow.Add(90 * time.Minute)
	env2 := scanEnvAt(t, later)
	env2["XDG_CONFIG_HOME"] = env["XDG_CONFIG_HOME"]
	out, errOut, err = cli{env: env2, now: func() time.Time { return later }}.run(t, "positions", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	r := rows[0]
	value, open := r["value"].(float64), r["pnl_since_open"].(float64)
	closeTo(t, "since open", open, value-cost, 0.011)
	if open == 0 || r["status"] != "open" || r["pnl_today"].(float64) != open {
		t.Fatalf("row %v: the market moved, and it was opened today", r)
	}
	if !strings.Contains(errOut, "1 positions, 1 open") {
		t.Fatalf("summary %q", errOut)
	}

	// A broken file is the caller's to fix: status 2.
	os.WriteFile(path, []byte("[[position]]\nid = 1\n"), 0o600)
	if _, _, err := (cli{env: env2, now: func() time.Time { return later }}).run(t, "positions"); exitCode(err) != ExitInput {
		t.Fatalf("%v", err)
	}
}

// TestPositionsNone: no positions is an empty list, as gh's list commands
// give one: [] (or nothing, for the table) on stdout, status 0, the advice
// on stderr.
func TestPositionsNone(t *testing.T) {
	c := cli{env: scanEnv(t), now: func() time.Time { return testNow }}
	out, errOut, err := c.run(t, "positions", "--json")
	if err != nil || out != "[]\n" || !strings.Contains(errOut, "no positions saved; save one from the strategy page") {
		t.Fatalf("status %d, stdout %q, stderr %q", exitCode(err), out, errOut)
	}
	out, errOut, err = c.run(t, "positions")
	if err != nil || out != "" || !strings.Contains(errOut, "no positions saved") {
		t.Fatalf("table: status %d, stdout %q, stderr %q", exitCode(err), out, errOut)
	}
}
