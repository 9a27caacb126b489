package cmd

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/vol"
)

// historyPath is the store's file in a test's environment.
func historyPath(env map[string]string) string {
	return filepath.Join(env["XDG_DATA_HOME"], "chainwatch", "history.db")
}

// The "done when", on a year shortened to 30 sessions: a backfill
// spends 3 points a session, a second one 0, and quotes --json carry
// iv_rank, iv_percentile and hv30 by the definitions vol's fixtures test,
// worked out here from the same days fetched without the store.
func TestBackfillThenQuotesFigures(t *testing.T) {
	env, reqs := quotesEnv(t)
	_, errOut, err := cli{env: env, now: clockAt}.run(t, "history", "backfill", "SPY", "QQQ", "AAPL", "--days", "30")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "30 sessions to buy, one underlying-quotes request each (historical, 3 points): 90 points") ||
		!strings.Contains(errOut, "30 sessions bought, 90 points spent") || !strings.Contains(errOut, "2026-11-19 1/30 3 points, 3 spent") {
		t.Fatalf("stderr:\n%s", errOut)
	}
	if n := reqs.Count("/underlying-quotes"); n != 30 {
		t.Fatalf("%d requests for 30 sessions", n)
	}
	_, errOut, err = cli{env: env, now: clockAt}.run(t, "history", "backfill", "SPY", "QQQ", "AAPL", "--days", "30")
	if err != nil || !strings.Contains(errOut, "all stored already, 0 points") || reqs.Count("/underlying-quotes") != 30 {
		t.Fatalf("second run: %v\n%s", err, errOut)
	}
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "QQQ", "AAPL", "--json", "--events=false")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("%v\n%s", err, out)
	}
	// The same days again, from the service, without the store.
	c := clientOf(t, env)
	days := history.SessionsBefore(api.Today(testNow), 30)
	for _, row := range rows {
		sym := row["symbol"].(string)
		var past, closes []float64
		for _, d := range days {
			q, _, err := c.UnderlyingQuotes(context.Background(), api.UnderlyingQuotesParams{Symbols: []string{sym}, Date: d.String()})
			if err != nil {
				t.Fatal(err)
			}
			past, closes = append(past, q[0].IV30.V), append(closes, q[0].Close.V)
		}
		cur := row["iv30"].(float64) * 100
		want := map[string]float64{
			"iv_rank": vol.IVRank(cur, past), "iv_percentile": vol.IVPercentile(cur, past),
			"hv10": vol.HV(closes, 10), "hv20": vol.HV(closes, 20), "hv30": math.NaN(), // 30 closes make 29 returns
		}
		for k, w := range want {
			got, ok := row[k].(float64)
			switch {
			case math.IsNaN(w) && row[k] != nil:
				t.Errorf("%s %s = %v, want null", sym, k, row[k])
			case !math.IsNaN(w) && (!ok || math.Abs(got-w) > 0.01):
				t.Errorf("%s %s = %v, want %.4f", sym, k, row[k], w)
			}
		}
	}
	// --cost of a past day the store holds: 0 points, from history.
	out, _, err = cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "QQQ", "--date", days[3].String(), "--events=false", "--cost")
	if err != nil || !strings.HasPrefix(out, "0 points: 1 underlying-quotes answer from history (0 points)") {
		t.Fatalf("--cost: %v %q", err, out)
	}
	_, errOut, err = cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "QQQ", "--date", days[3].String(), "--events=false")
	if err != nil || !strings.Contains(errOut, "0 points spent") || !strings.Contains(errOut, "1 of 1 answer from history") {
		t.Fatalf("a stored day: %v\n%s", err, errOut)
	}
	out, _, err = cli{env: env, now: clockAt}.run(t, "history")
	if err != nil || !strings.Contains(out, "quotes: 90 symbol-days of 3 symbols") {
		t.Fatalf("history: %v\n%s", err, out)
	}
	out, _, err = cli{env: env, now: clockAt}.run(t, "history", "prune", "--before", days[10].String(), "--yes")
	if err != nil || !strings.Contains(out, "deleted 30 stored answers before") {
		t.Fatalf("prune: %v\n%s", err, out)
	}
}

// clientOf is a client of the test's sandbox without a store.
func clientOf(t *testing.T, env map[string]string) *api.Client {
	t.Helper()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: env[envAuthURL], ClientID: env[envClientID], ClientSecret: env[envClientSecret]})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(api.WithBaseURL(env[envBaseURL]), api.WithTokenSource(ts), api.WithClock(clockAt))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBackfillPastTheBudgetAsksFirst(t *testing.T) {
	env, reqs := quotesEnv(t)
	_, errOut, err := cli{env: env, now: clockAt}.run(t, "history", "backfill", "SPY", "--days", "10", "--budget", "20")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "30 points is over the budget of 20 points; pass --yes") || reqs.Count("/underlying-quotes") != 0 {
		t.Fatalf("%v\n%s", err, errOut)
	}
	_, errOut, err = cli{env: env, now: clockAt, in: strings.NewReader("y\n")}.runTerminal(t, "history", "backfill", "SPY", "--days", "10", "--budget", "20")
	if err != nil || !strings.Contains(errOut, "Spend 30 points, over the budget of 20 points? [y/N]") || reqs.Count("/underlying-quotes") != 10 {
		t.Fatalf("confirmed: %v\n%s", err, errOut)
	}
}

// Ctrl-C in the middle keeps what was bought; the next run buys the rest.
func TestBackfillInterruptedResumes(t *testing.T) {
	env, reqs := quotesEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	errBuf := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, now: clockAt, ctx: ctx, errOut: errBuf}.run(t, "history", "backfill", "SPY", "--days", "60", "--yes")
		done <- err
	}()
	for i := 0; i < 2000 && reqs.Count("/underlying-quotes") < 5; i++ {
		<-timeAfterMs(5)
	}
	cancel()
	err := <-done
	if exitCode(err) != ExitInterrupted || !strings.Contains(errBuf.String(), "the store keeps") {
		t.Fatalf("%v\n%s", err, errBuf.String())
	}
	bought := reqs.Count("/underlying-quotes")
	_, errOut, err := cli{env: env, now: clockAt}.run(t, "history", "backfill", "SPY", "--days", "60", "--yes")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if total := reqs.Count("/underlying-quotes"); total != 60 || bought >= 60 {
		t.Errorf("%d requests in all, %d before the interruption: want 60, each session bought once", total, bought)
	}
}

// A file at the store's path that is not a store: every command says so
// with its path and runs without history; --move-aside moves it.
func TestForeignStoreIsReportedAndKept(t *testing.T) {
	env, _ := quotesEnv(t)
	path := historyPath(env)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	junk := []byte(strings.Repeat("not a database\n", 600))
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "--events=false", "--date", "2026-11-18")
	if err != nil || !strings.Contains(errOut, path+" is not a readable SQLite database") || !strings.Contains(errOut, "running without history") {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != string(junk) {
		t.Fatal("the file was changed")
	}
	out, _, err := cli{env: env, now: clockAt}.run(t, "history", "--move-aside")
	if err != nil || !strings.Contains(out, "moved "+path+" to "+path+".bad-") {
		t.Fatalf("%v\n%s", err, out)
	}
	_, errOut, err = cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "--events=false", "--date", "2026-11-18", "--no-history")
	if err != nil || strings.Contains(errOut, "history") {
		t.Fatalf("--no-history: %v\n%s", err, errOut)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("--no-history made a store: %v", err)
	}
}

// runTerminal is run with stdin taken for a terminal: a question can be
// asked and answered from c.in.
func (c cli) runTerminal(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	deps := c.deps(out, errOut)
	deps.stdinIsTerminal = true
	cmd := NewCmdRoot(deps, nil)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(t.Context())
	return out.String(), errOut.String(), err
}

func timeAfterMs(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }
