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
