package cmd

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// TestStandaloneSandboxClockIsTheClientsToday: a standalone sandbox
// replaying Tue 2026-11-24 (`chainwatch sandbox --clock`) answered every
// headless command from a machine whose clock is days later with 400 "date
// must not be after today". The sandbox's Date header follows its clock,
// and the commands take "today" from it.
func TestStandaloneSandboxClockIsTheClientsToday(t *testing.T) {
	start := time.Date(2026, 11, 24, 11, 30, 0, 0, api.Eastern)
	s, err := sandbox.Start(sandbox.Config{Now: sandbox.Clock(start, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	resp, err := http.Get(s.BaseURL + "/v1/live/reference/exchanges") // a 401, but dated
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if d, err := http.ParseTime(resp.Header.Get("Date")); err != nil || d.Sub(start) < 0 || d.Sub(start) > time.Hour {
		t.Fatalf("Date %q (%v), want the sandbox's clock near %s", resp.Header.Get("Date"), err, start)
	}

	env := map[string]string{
		envAuthURL: s.AuthURL, envBaseURL: s.BaseURL, envClientID: sandbox.DemoClientID, envClientSecret: s.DemoSecret,
		envTokenFile: filepath.Join(t.TempDir(), "none.json"),
	}
	later := func() time.Time { return start.AddDate(0, 0, 2) } // this machine: Thanksgiving, two days on
	for _, args := range [][]string{
		{"chain", "SPY", "--strikes", "2"},
		{"quotes", "SPY"},
		{"vol", "SPY"},
		{"trades", "SPY", "--limit", "5"},
		{"calendar", "SPY"},
		{"strategy", "SPY 2026-11-24 +C702 -C705", "--json"}, // expired by the machine's day, not the service's
	} {
		out, errOut, err := (cli{env: env, now: later}).run(t, args...)
		if err != nil || out == "" {
			t.Errorf("%q: %v\n%s", args, err, errOut)
		}
		if strings.Contains(errOut, "2026-11-26") || strings.Contains(errOut, "after today") {
			t.Errorf("%q took the machine's day:\n%s", args, errOut)
		}
	}
	out, errOut, err := (cli{env: env, now: later}).run(t, "chain", "SPY", "--strikes", "1")
	if err != nil || !strings.Contains(errOut, "SPY 2026-11-24 (0 DTE)") || !strings.Contains(out, "SPY261124") {
		t.Fatalf("chain on the replayed day: %v\n%s%s", err, out, errOut)
	}
}
