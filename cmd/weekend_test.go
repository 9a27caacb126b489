package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox"
)

// saturdayAfterThanksgiving is the clock: Friday 2026-11-27
// closed early, at 13:00, and its expiry is past.
var saturdayAfterThanksgiving = time.Date(2026, 11, 28, 11, 0, 0, 0, api.Eastern)

// clockCLI runs commands against one sandbox with both on the clock now.
func clockCLI(t *testing.T, now time.Time) cli {
	t.Helper()
	clock := func() time.Time { return now }
	sb, err := sandbox.Start(sandbox.Config{Now: clock, PerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = sb.AuthURL, sb.BaseURL, sandbox.DemoClientID, sb.DemoSecret
	return cli{env: env, now: clock}
}

// TestTradesAfterEarlyClose: on the Saturday after an early close the
// last-session window is the quarter hour before 13:00, and it holds
// Friday's trades; a window starting after the close is refused unbought.
func TestTradesAfterEarlyClose(t *testing.T) {
	c := clockCLI(t, saturdayAfterThanksgiving)
	out, errOut, err := c.run(t, "trades", "SPY", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) < 10 {
		t.Fatalf("%d rows:\n%s", len(rows), out)
	}
	for _, r := range rows[1:] {
		if r < "12:45:00.000" || r >= "13:00:00.000" {
			t.Fatalf("row outside 12:45-13:00: %s", r)
		}
	}
	if !strings.Contains(errOut, "trades of SPY on 2026-11-27 from 12:45") || !strings.Contains(errOut, "15 points spent") {
		t.Errorf("stderr %q", errOut)
	}
	out, errOut, err = c.run(t, "trades", "SPY", "--since", "13:30")
	if exitCode(err) != ExitNoData || out != "" || !strings.Contains(err.Error(), "closed at 13:00 (0 points spent)") {
		t.Errorf("--since 13:30: exit %d, stdout %q, err %v, stderr %q", exitCode(err), out, err, errOut)
	}
	if strings.Contains(errOut, "points left") {
		t.Errorf("an empty window was bought: %q", errOut)
	}
}

// TestWeekendPicksTheFirstLiveExpiry: on Saturday `chain SPY` shows
// Monday's expiry (the screen's first tab, market.FirstLiveDay), not
// Friday's that stopped trading, and every command counts days as the
// screen does (market.DaysLeft): Monday is 3 DTE and the Dec 18
// ex-dividend 21 days away, in the chain and the calendar alike.
func TestWeekendPicksTheFirstLiveExpiry(t *testing.T) {
	c := clockCLI(t, saturdayAfterThanksgiving)
	out, errOut, err := c.run(t, "chain", "SPY", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []struct {
		Expiry string   `json:"expiry"`
		IV     *float64 `json:"iv"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("%v: %.300s", err, out)
	}
	ivs := 0
	for _, r := range rows {
		if r.Expiry != "2026-11-30" {
			t.Fatalf("expiry %s, want Monday's 2026-11-30", r.Expiry)
		}
		if r.IV != nil {
			ivs++
		}
	}
	if ivs == 0 {
		t.Errorf("no IV in Monday's chain")
	}
	live := market.FirstLiveDay(0, saturdayAfterThanksgiving)
	dte := market.DaysLeft(0, api.Live, saturdayAfterThanksgiving, api.NewDate(2026, 11, 30))
	if live != api.NewDate(2026, 11, 28) || !strings.Contains(errOut, fmt.Sprintf("SPY 2026-11-30 (%d DTE)", dte)) || dte != 3 {
		t.Errorf("first live day %s, DTE %d, stderr %q", live, dte, errOut)
	}
	out, errOut, err = c.run(t, "calendar", "SPY", "--type", "dividends", "--from", "2026-12-01", "--to", "2026-12-31")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	days := market.DaysLeft(0, api.Live, saturdayAfterThanksgiving, api.NewDate(2026, 12, 18))
	if !regexpMatch(fmt.Sprintf(`2026-12-18 +\%+d `, days), out) || days != 21 {
		t.Errorf("Dec 18 is %d days away; calendar:\n%s", days, out)
	}
}

// TestWeekendGexStartsAtTheFirstLiveExpiry: on Saturday the positioning
// figures leave out Friday's expiry, which has settled, and start where
// the ladder and `chain` do; Friday's expiry asked for by its date is
// still shown.
func TestWeekendGexStartsAtTheFirstLiveExpiry(t *testing.T) {
	c := clockCLI(t, saturdayAfterThanksgiving)
	var sum struct {
		Carry []struct {
			Expiry string `json:"expiry"`
		} `json:"carry"`
	}
	runJSON(t, c, &sum, "gex", "SPY", "--summary", "--json")
	if len(sum.Carry) == 0 {
		t.Fatal("the summary names no expiry")
	}
	for _, e := range sum.Carry {
		if e.Expiry < "2026-11-30" {
			t.Errorf("the summary counts the settled expiry %s", e.Expiry)
		}
	}
	if _, errOut, err := c.run(t, "gex", "SPY", "--expiry", "2026-11-27", "--summary"); err != nil {
		t.Errorf("Friday's expiry by its date: %v\n%s", err, errOut)
	}
}
