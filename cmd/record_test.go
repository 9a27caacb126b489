package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"chainwatch/config"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// recordDays decodes `record list --json`.
func recordDays(t *testing.T, run func(t *testing.T, args ...string) (string, string, error)) []map[string]any {
	t.Helper()
	out, errOut, err := run(t, "record", "list", "--json")
	if err != nil {
		t.Fatalf("record list: %v\n%s", err, errOut)
	}
	var days []map[string]any
	if err := json.Unmarshal([]byte(out), &days); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return days
}

// TestChainIsRecordedAndReplayed: a headless chain is recorded by default,
// record list says so, and --replay answers the same rows at 0 points
// with nothing sent; a moment with nothing recorded is exit status 3 with
// nothing on stdout and the nearest recorded moment named.
func TestChainIsRecordedAndReplayed(t *testing.T) {
	run := chainCLI(t)
	live, _, err := run(t, "chain", "SPY", "--json")
	if err != nil {
		t.Fatal(err)
	}
	days := recordDays(t, run)
	if len(days) != 1 || days[0]["date"] != "2026-11-20" || days[0]["answers"].(float64) < 1 {
		t.Fatalf("record list: %v", days)
	}
	if syms, _ := days[0]["symbols"].([]any); len(syms) != 1 || syms[0] != "SPY" {
		t.Fatalf("symbols %v", days[0]["symbols"])
	}
	out, errOut, err := run(t, "chain", "SPY", "--json", "--replay", "2026-11-20T14:00:05-05:00")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if out != live {
		t.Fatalf("the replay's rows differ from the live ones:\n%.300s\nlive:\n%.300s", out, live)
	}
	if !strings.Contains(errOut, "0 points spent") || !strings.Contains(errOut, "from the recording") {
		t.Fatalf("stderr %q", errOut)
	}
	if d := recordDays(t, run); d[0]["answers"] != days[0]["answers"] {
		t.Fatalf("a replay recorded: %v then %v answers", days[0]["answers"], d[0]["answers"])
	}
	for _, moment := range []string{"2026-11-20T13:59:00-05:00", "2026-11-18T12:00:00-05:00"} {
		out, errOut, err = run(t, "chain", "SPY", "--json", "--replay", moment)
		if exitCode(err) != 3 || out != "" || !strings.Contains(err.Error(), "nearest recorded: 2026-11-20T14:00:00-05:00") {
			t.Fatalf("--replay %s: status %d, %v, stdout %q, stderr %q", moment, exitCode(err), err, out, errOut)
		}
	}
	if _, _, err := run(t, "chain", "SPY", "--replay", "yesterday"); exitCode(err) != 2 {
		t.Fatalf("a malformed moment: %v", err)
	}
}

// TestRecordingTurnsOff: --no-record and [record] enabled = false keep
// nothing; record prune deletes the days before its date.
func TestRecordingTurnsOff(t *testing.T) {
	env := scanEnv(t)
	run := func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		return cli{env: env, now: func() time.Time { return testNow }}.run(t, args...)
	}
	if _, _, err := run(t, "chain", "SPY", "--no-record"); err != nil {
		t.Fatal(err)
	}
	if d := recordDays(t, run); len(d) != 0 {
		t.Fatalf("--no-record recorded %v", d)
	}
	cfg := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[record]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "chain", "SPY"); err != nil {
		t.Fatal(err)
	}
	if d := recordDays(t, run); len(d) != 0 {
		t.Fatalf("enabled = false recorded %v", d)
	}
	if err := os.WriteFile(cfg, []byte("[record]\nmax_size = \"lots\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "chain", "SPY"); exitCode(err) != 2 || !strings.Contains(err.Error(), "max_size") {
		t.Fatalf("a bad max_size: %v", err)
	}
	if err := os.WriteFile(cfg, []byte("[record]\nmax_size = \"1GB\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "chain", "SPY"); err != nil {
		t.Fatal(err)
	}
	if d := recordDays(t, run); len(d) != 1 {
		t.Fatalf("recorded %v", d)
	}
	out, _, err := run(t, "record", "prune", "--before", "2026-11-21")
	if err != nil || !strings.Contains(out, "deleted 2026-11-20") {
		t.Fatalf("prune: %v %q", err, out)
	}
	if d := recordDays(t, run); len(d) != 0 {
		t.Fatalf("after prune %v", d)
	}
}

// TestRecordExportParquet: the command writes the day's files under a
// date= folder and names them on stdout; a day not recorded is status 3.
func TestRecordExportParquet(t *testing.T) {
	run := chainCLI(t)
	if _, _, err := run(t, "chain", "SPY"); err != nil {
		t.Fatal(err)
	}
	lake := t.TempDir()
	out, errOut, err := run(t, "record", "export", "--date", "2026-11-20", "--parquet", lake)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	want := filepath.Join(lake, "chains", "date=2026-11-20", "symbol=SPY", "part-0.parquet")
	if strings.TrimSpace(out) != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
	if fi, err := os.Stat(want); err != nil || fi.Size() == 0 {
		t.Fatalf("%s: %v", want, err)
	}
	if _, _, err := run(t, "record", "export", "--date", "2026-11-19", "--parquet", lake); exitCode(err) != 3 {
		t.Fatalf("an unrecorded day: %v", err)
	}
}

// TestAlertsTestOnARecordedDay: a block rule of size 1 run over a
// recorded day reports the recorded prints as events, from the recording
// (nothing is sent: the service is gone by then); a day not recorded is
// status 3.
func TestAlertsTestOnARecordedDay(t *testing.T) {
	// The sandbox's clock moves: the second run records the prints made
	// after the first, which is where the recording starts.
	var mu sync.Mutex
	now := testNow
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	sb, err := sandbox.Start(sandbox.Config{Now: clock, PerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = sb.AuthURL, sb.BaseURL, sandbox.DemoClientID, sb.DemoSecret
	c := cli{env: env, now: clock}
	for _, at := range []time.Duration{0, 30 * time.Second} {
		mu.Lock()
		now = testNow.Add(at)
		mu.Unlock()
		if _, errOut, err := c.run(t, "trades", "SPY", "--json"); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
	}
	env[envBaseURL] = "http://127.0.0.1:1" // a replay must not need the service
	cfg := filepath.Join(t.TempDir(), "blocks.toml")
	if err := os.WriteFile(cfg, []byte("[[alert]]\nname = \"prints\"\nkind = \"block\"\nsymbol = \"SPY\"\nmin_size = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := c.run(t, "alerts", "test", "--config", cfg, "--replay", "2026-11-20", "--speed", "100", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) == 0 {
		t.Fatalf("no event fired; stderr %s", errOut)
	}
	for _, r := range rows {
		if r["rule"] != "prints" || r["kind"] != "block" || !strings.HasPrefix(r["time"].(string), "2026-11-20T") {
			t.Fatalf("event %v", r)
		}
	}
	if _, _, err := c.run(t, "alerts", "test", "--config", cfg, "--replay", "2026-11-19"); exitCode(err) != 3 {
		t.Fatalf("an unrecorded day: %v", err)
	}
}

// recordedAnswers counts the answers recorded where a command run with
// env records, read while a command may still be writing.
func recordedAnswers(t *testing.T, env map[string]string) int {
	t.Helper()
	dir, err := config.RecordDir(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	days, err := record.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range days {
		n += d.Answers
	}
	return n
}

// TestAlertsWatchAndBackfillAreRecorded: `alerts --watch` and `history
// backfill` build clients of their own; their answers are recorded as
// every other command's, and --no-record keeps nothing of a backfill.
func TestAlertsWatchAndBackfillAreRecorded(t *testing.T) {
	env := alertsEnv(t, "")
	watchAlertsFor(t, env, func(string) bool { return recordedAnswers(t, env) > 0 },
		"--sandbox-clock", "2026-11-24T10:30:00-05:00", "--sandbox-speed", "600")
	days := recordDays(t, func(t *testing.T, args ...string) (string, string, error) {
		return cli{env: env, now: clockAt}.run(t, args...)
	})
	if len(days) != 1 || days[0]["date"] != "2026-11-24" || days[0]["answers"].(float64) < 1 {
		t.Fatalf("alerts --watch recorded %v", days)
	}

	for _, noRecord := range []bool{false, true} {
		env, _ := quotesEnv(t)
		args := []string{"history", "backfill", "SPY", "--days", "3"}
		if noRecord {
			args = append(args, "--no-record")
		}
		if _, errOut, err := (cli{env: env, now: clockAt}).run(t, args...); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		if n := recordedAnswers(t, env); (n >= 3) == noRecord || (noRecord && n != 0) {
			t.Fatalf("backfill (--no-record %v) recorded %d answers", noRecord, n)
		}
	}
}

// TestSandboxDayIsMarked: a day recorded from the embedded sandbox says
// so in record list, in --replay's notice and on the replay screen's
// badge; a day from a service (here a sandbox reached by its URL, as any
// service is) names the URL and none of that.
func TestSandboxDayIsMarked(t *testing.T) {
	env := homeEnv(t)
	run := func(t *testing.T, args ...string) (string, string, error) { return cli{env: env}.run(t, args...) }
	if _, errOut, err := run(t, "chain", "SPY", "--json", "--sandbox-clock", "2026-11-20T14:00:00-05:00"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	days := recordDays(t, run)
	if src, _ := days[0]["sources"].([]any); len(src) != 1 || src[0] != "sandbox" {
		t.Fatalf("sources %v", days[0]["sources"])
	}
	if out, _, err := run(t, "record", "list"); err != nil || !strings.Contains(out, "SOURCE") || !strings.Contains(out, " sandbox") {
		t.Fatalf("record list: %v\n%s", err, out)
	}
	_, errOut, err := run(t, "chain", "SPY", "--json", "--replay", "2026-11-20T14:00:05-05:00")
	if err != nil || !strings.Contains(errOut, "replaying the recording of the sandbox's simulated market as at") {
		t.Fatalf("--replay: %v, stderr %q", err, errOut)
	}
	res := watchCLI{env: env}.run(t, "replay", "SPY", "--date", "2026-11-20")
	if res.err != nil || res.cfg == nil || res.cfg.Replay == nil || !strings.HasPrefix(res.cfg.Replay.State(), "REPLAY SANDBOX ") {
		t.Fatalf("replay screen: %v, stderr %q", res.err, res.errOut)
	}

	service := chainCLI(t)
	if _, _, err := service(t, "chain", "SPY", "--json"); err != nil {
		t.Fatal(err)
	}
	days = recordDays(t, service)
	if src, _ := days[0]["sources"].([]any); len(src) != 1 || !strings.HasPrefix(src[0].(string), "http://127.0.0.1:") {
		t.Fatalf("a service's day: sources %v", days[0]["sources"])
	}
	if _, errOut, err := service(t, "chain", "SPY", "--json", "--replay", "2026-11-20T14:00:05-05:00"); err != nil || strings.Contains(errOut, "sandbox") {
		t.Fatalf("a service's day replayed: %v, stderr %q", err, errOut)
	}
}
