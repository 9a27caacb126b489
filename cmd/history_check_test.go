package cmd

import (
	"os"
	"strings"
	"testing"
)

// TestBackfillOfAnUnknownSymbolSpendsNothing: `history backfill SPYY
// --days 20 --yes` bought 20 days of nothing and exited 0. On the
// embedded sandbox the symbol is looked up in its list first: status 3,
// no request, no store made.
func TestBackfillOfAnUnknownSymbolSpendsNothing(t *testing.T) {
	env := homeEnv(t)
	_, errOut, err := cli{env: env}.run(t, "history", "backfill", "SPYY", "--days", "20", "--yes")
	if exitCode(err) != ExitNoData || !strings.Contains(err.Error(), "no such symbol: SPYY; did you mean SPY?") ||
		!strings.Contains(err.Error(), "0 points spent") {
		t.Fatalf("%v (exit %d)\n%s", err, exitCode(err), errOut)
	}
	if _, err := os.Stat(historyPath(env)); !os.IsNotExist(err) {
		t.Errorf("a store was made: %v", err)
	}
}

// TestBackfillStopsAtTheFirstDayWithoutTheSymbol: on a service, the
// newest session is bought first; a symbol its answer does not list
// stops the backfill there with status 3 (one request of 20), and says
// what it spent.
func TestBackfillStopsAtTheFirstDayWithoutTheSymbol(t *testing.T) {
	env, reqs := quotesEnv(t)
	_, errOut, err := cli{env: env, now: clockAt}.run(t, "history", "backfill", "SPY", "SPYY", "--days", "20", "--yes")
	if exitCode(err) != ExitNoData || !strings.Contains(err.Error(), "no such symbol: SPYY") ||
		!strings.Contains(err.Error(), "was bought to find out (3 points spent)") {
		t.Fatalf("%v (exit %d)\n%s", err, exitCode(err), errOut)
	}
	if n := reqs.Count("/underlying-quotes"); n != 1 {
		t.Errorf("%d requests, want the newest day's alone", n)
	}
}

// TestPruneRefusesTheFutureAndAsksForTheLastYear: `history prune
// --before 9999-12-31` deleted all 1,200 answers without asking. A day
// after today is refused; a prune reaching into the last year asks first
// (refused with no one to ask), and --yes lets a script do it.
func TestPruneRefusesTheFutureAndAsksForTheLastYear(t *testing.T) {
	env, _ := quotesEnv(t)
	run := func(args ...string) (string, string, error) {
		return cli{env: env, now: clockAt}.run(t, append([]string{"history"}, args...)...)
	}
	if _, errOut, err := run("backfill", "SPY", "QQQ", "--days", "20", "--yes"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	stored := func() string {
		out, _, err := run()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	const all = "quotes: 40 symbol-days of 2 symbols"
	_, _, err := run("prune", "--before", "9999-12-31")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "a day after today") || !strings.Contains(stored(), all) {
		t.Fatalf("the future: %v (exit %d)\n%s", err, exitCode(err), stored())
	}
	_, _, err = run("prune", "--before", "2026-11-20")
	if exitCode(err) != ExitInput || !strings.Contains(err.Error(), "of the last year") || !strings.Contains(err.Error(), "pass --yes") || !strings.Contains(stored(), all) {
		t.Fatalf("no --yes: %v (exit %d)\n%s", err, exitCode(err), stored())
	}
	_, errOut, err := cli{env: env, now: clockAt, in: strings.NewReader("n\n")}.runTerminal(t, "history", "prune", "--before", "2026-11-20")
	if exitCode(err) != ExitInput || !strings.Contains(errOut, "? [y/N]") || !strings.Contains(stored(), all) {
		t.Fatalf("declined: %v\n%s", err, errOut)
	}
	out, _, err := run("prune", "--before", "2026-11-20", "--yes")
	if err != nil || !strings.Contains(out, "deleted") || strings.Contains(stored(), all) {
		t.Fatalf("--yes: %v\n%s\n%s", err, out, stored())
	}
}
