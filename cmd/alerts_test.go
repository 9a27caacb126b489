package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"chainwatch/config"
	"chainwatch/config/configtest"
)

// demoAlerts is the example: SPY above 700 and a block rule.
const demoAlerts = `[[alert]]
name = "SPY above 700"
kind = "price"
symbol = "SPY"
above = 700

[[alert]]
kind = "block"
symbol = "SPY"
min_size = 1000
`

// alertsEnv is a home with demoAlerts (and more) as its config file.
func alertsEnv(t *testing.T, extra string) map[string]string {
	t.Helper()
	env := homeEnv(t)
	configtest.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch"), demoAlerts+extra, 0o600)
	return env
}

// TestAlertsListAndCost: the rules with their cost an hour, and --cost,
// which sends nothing.
func TestAlertsListAndCost(t *testing.T) {
	env := alertsEnv(t, "")
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "alerts", "--json=name,kind,level,points_per_hour")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v\n%s", err, out)
	}
	if rows[0]["name"] != "SPY above 700" || rows[0]["level"] != 700.0 || rows[0]["points_per_hour"] != 480.0 ||
		rows[1]["kind"] != "block" || rows[1]["points_per_hour"] != 1800.0 {
		t.Errorf("rows %v", rows)
	}
	out, _, err = cli{env: env, now: clockAt}.run(t, "alerts", "--cost")
	if err != nil || !strings.Contains(out, "SPY above 700: 480 pts/h (underlying-quotes 4 pts every 30s") ||
		!strings.Contains(out, "2,280 points an hour in all") {
		t.Errorf("--cost: %v\n%s", err, out)
	}
}

// TestAlertsBadRules: a rule the file cannot hold, or whose symbol the
// embedded sandbox does not list, is refused with file and line: status 2.
func TestAlertsBadRules(t *testing.T) {
	env := alertsEnv(t, "\n[[alert]]\nkind = \"price\"\nsymbol = \"SPYY\"\nabove = 1\n")
	_, _, err := cli{env: env, now: clockAt}.run(t, "alerts", "--watch", "--sandbox-clock", "2026-11-24T10:00:00-05:00")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "config.toml:14: [[alert]] number 3: the service has no symbol SPYY; did you mean SPY?") {
		t.Errorf("exit %d: %v", exitCode(err), err)
	}
	env = alertsEnv(t, "\n[[alert]]\nkind = \"price\"\nsymbol = \"SPY\"\nabve = 1\n")
	_, _, err = cli{env: env, now: clockAt}.run(t, "alerts")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "config.toml:15: [[alert]]: unknown key abve; did you mean above?") {
		t.Errorf("exit %d: %v", exitCode(err), err)
	}
}

// TestAlertsWatchNDJSON is the "done when": the rules run headless
// on the embedded sandbox's fast clock print one JSON event a line, each
// once, that a jq-like reader takes line by line; --exec gets each event
// once on its stdin; Ctrl-C (the context ending) exits 0; the log holds
// the same events.
func TestAlertsWatchNDJSON(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is a shell script")
	}
	env := alertsEnv(t, "")
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat >> \"$1\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	hooked := filepath.Join(dir, "hooked.ndjson")
	ctx, cancel := context.WithCancel(t.Context())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, errOut: errOut}.run(t, "alerts", "--watch",
			"--sandbox-clock", "2026-11-24T10:30:00-05:00", "--sandbox-speed", "600", "--exec", hook+" "+hooked)
		done <- err
	}()
	// SPY crosses 700 about ten minutes in: a second of this clock, more
	// on a loaded machine under the race detector (at most a minute). The
	// blocks are those printed from the start (10:30) on.
	for i := 0; i < 2400 && !(strings.Contains(out.String(), `"kind":"price"`) && strings.Contains(out.String(), `"kind":"block"`)); i++ {
		time.Sleep(25 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Ctrl-C: %v\n%s", err, errOut)
	}
	keys := map[string]bool{}
	kinds := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not one JSON object a line: %q", sc.Text())
		}
		key := ev["rule"].(string) + ev["time"].(string) + fmt.Sprint(ev["contract"], ev["seq"])
		if keys[key] || ev["event"] != "fired" {
			t.Errorf("event printed twice, or not fired: %v", ev)
		}
		keys[key] = true
		kinds[ev["kind"].(string)]++
	}
	if kinds["price"] != 1 || kinds["block"] == 0 {
		t.Fatalf("events by kind %v, want one price crossing and blocks\n%s\n%s", kinds, out, errOut)
	}
	if !strings.Contains(errOut.String(), "chainwatch: armed SPY above 700: 480 pts/h") {
		t.Errorf("stderr: %s", errOut)
	}
	// The hook ran once an event (those in flight at Ctrl-C may be cut).
	b, _ := os.ReadFile(hooked)
	if n := strings.Count(string(b), "\n"); n > len(keys) || n == 0 {
		t.Errorf("the hook ran %d times for %d events", n, len(keys))
	}
	log, _ := os.ReadFile(filepath.Join(env["XDG_STATE_HOME"], "chainwatch", config.AlertLogFile))
	if n := strings.Count(string(log), `"event":"fired"`); n != len(keys) {
		t.Errorf("the log has %d fired events, stdout %d", n, len(keys))
	}
}
