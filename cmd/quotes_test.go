package cmd

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// quotesEnv starts a sandbox on the tests' clock that counts the requests
// it serves, and returns an environment with its client credentials.
func quotesEnv(t *testing.T) (map[string]string, *modeltest.Requests) {
	t.Helper()
	var reqs modeltest.Requests
	sb, err := sandbox.Start(sandbox.Config{Now: func() time.Time { return testNow }, PerSecond: -1, Logger: reqs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = sb.AuthURL, sb.BaseURL, sandbox.DemoClientID, sb.DemoSecret
	return env, &reqs
}

// clockAt is the sandbox's clock, for the commands' "today".
func clockAt() time.Time { return testNow }

// quotesJSON is the --json document: the rows.
type quotesJSON []map[string]any

// TestQuotesCSV is the example: three symbols, three rows, from one
// underlying-quotes request (and one calendar request for the events).
func TestQuotesCSV(t *testing.T) {
	env, reqs := quotesEnv(t)
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "QQQ", "IWM", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(recs) != 4 || !slices.Equal(recs[0], quotesKeys) {
		t.Fatalf("csv:\n%s", out)
	}
	for i, sym := range []string{"SPY", "QQQ", "IWM"} {
		r := recs[i+1]
		if r[0] != sym || r[2] == "" || r[3] == "" || r[20] != "green" || r[22] == "" {
			t.Errorf("row %d: %v", i, r)
		}
		// Differences are written without binary noise.
		if len(strings.SplitN(r[3], ".", 2)) == 2 && len(strings.SplitN(r[3], ".", 2)[1]) > 6 {
			t.Errorf("change %q", r[3])
		}
	}
	if n := reqs.Count("/underlying-quotes"); n != 1 {
		t.Fatalf("%d underlying-quotes requests for three symbols", n)
	}
	if n := reqs.Count("/calendar"); n != 1 {
		t.Fatalf("%d calendar requests", n)
	}
	if !regexpMatch(`^chainwatch: 3 symbols, 19 points spent, [\d,]+ points left this month\n$`, errOut) {
		t.Fatalf("stderr %q", errOut)
	}
}

func TestQuotesJSONAndTable(t *testing.T) {
	env, reqs := quotesEnv(t)
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "aapl", "SPY", "NOPE", "AAPL", "--json", "--mode", "delayed")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var doc quotesJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc) != 2 || !strings.Contains(errOut, "chainwatch: no such symbol: NOPE\n") || !strings.Contains(errOut, ", 23 points spent") {
		t.Fatalf("%+v\n%s", doc, errOut)
	}
	aapl := doc[0]
	if aapl["symbol"] != "AAPL" || aapl["report_date"] == nil || aapl["ex_dividend_date"] == nil || aapl["iv30"] == nil {
		t.Fatalf("AAPL %v", aapl)
	}
	if keys := jsonKeys(t, out[strings.Index(out, "{"):strings.Index(out, "}")+1]); !slices.Equal(keys, quotesKeys) {
		t.Fatalf("key order %v", keys)
	}
	if !strings.Contains(errOut, "chainwatch: no such symbol: NOPE\n") {
		t.Fatalf("stderr %q", errOut)
	}
	// The table, without the events: one request, the page's columns.
	before := reqs.Count("/calendar")
	out, errOut, err = cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "AAPL", "--events=false")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !regexpMatch(`^SYMBOL +LAST +CHG +CHG% +BID +ASK +VOLUME +IV30 +IVCHG +IVR +IV%ILE +HV30 +IMPLIED +NEXT EVENT$`, lines[0]) ||
		!regexpMatch(`^SPY +[\d,]+\.\d\d +[+-]?\d+\.\d\d +[+-]?\d+\.\d\d% .* GREEN +-$`, lines[1]) {
		t.Fatalf("table:\n%s", out)
	}
	if reqs.Count("/calendar") != before || !strings.Contains(errOut, "2 symbols, 4 points spent,") {
		t.Fatalf("--events=false asked for events, or stderr %q", errOut)
	}
}

// TestQuotesWatchlist: without symbols, the config file's watchlist, its
// bad entry named with its line on stderr; without a config file, the
// default list.
func TestQuotesWatchlist(t *testing.T) {
	env, _ := quotesEnv(t)
	path := configtest.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch"), `mode = "live"
watchlist = [
  "SPY",
  "S P Y",   # a typo
  "QQQ",
  "IWM",
  "AAPL",
]
`, 0o600)
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "--csv", "--events=false")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Fatalf("%d lines:\n%s", n, out)
	}
	if !strings.Contains(errOut, "chainwatch: warning: "+path+`:4: watchlist: symbol "S P Y": a blank is not part of a symbol`) {
		t.Fatalf("stderr %q", errOut)
	}
	env2, _ := quotesEnv(t)
	out, errOut, err = cli{env: env2, now: clockAt}.run(t, "quotes", "--csv", "--events=false")
	if err != nil || strings.Count(out, "\n") != len(config.DefaultWatchlist)+1 {
		t.Fatalf("default list: %v\n%s\n%s", err, out, errOut)
	}
}

// TestQuotesRefusals: a caller's mistake exits 2, no known symbol 3, each
// one line on stderr and nothing on stdout; nothing is fetched for a
// mistake.
func TestQuotesRefusals(t *testing.T) {
	env, reqs := quotesEnv(t)
	empty := configtest.Write(t, t.TempDir(), "watchlist = []\n", 0o600)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"quotes", "SPY X"}, ExitInput, `symbol "SPY X": a blank is not part of a symbol`},
		{[]string{"quotes", "SPY", "--mode", "fast"}, ExitInput, `--mode "fast": want live or delayed`},
		{[]string{"quotes", "SPY", "--date", "2026-11-23"}, ExitInput, "--date: 2026-11-23 is in the future"},
		{[]string{"quotes", "--config", empty}, ExitInput, "the watchlist is empty"},
		{[]string{"quotes", "--config", "/nonexistent.toml"}, ExitInput, "--config /nonexistent.toml: no such file"},
		{[]string{"quotes", "NOPE", "ZZZZ"}, ExitNoData, "no such symbol: NOPE, ZZZZ"},
	} {
		deps := cli{env: env, now: clockAt}.deps(&syncBuffer{}, &syncBuffer{})
		out, errOut := &syncBuffer{}, &syncBuffer{}
		deps.out, deps.errOut = out, errOut
		code := Execute(deps, tc.args)
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) || out.String() != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.want)
		}
	}
	if n := reqs.Count("/underlying-quotes"); n != 1 {
		t.Fatalf("%d requests: only the unknown symbols' should have been sent", n)
	}
}

// TestQuotesHistorical: a past day is its end-of-day quotes at 3 points.
func TestQuotesHistorical(t *testing.T) {
	env, _ := quotesEnv(t)
	out, errOut, err := cli{env: env, now: clockAt}.run(t, "quotes", "SPY", "--date", "2026-11-18", "--json", "--events=false")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var doc quotesJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil || !strings.Contains(errOut, ", 3 points spent") || len(doc) != 1 {
		t.Fatalf("%v %+v %s", err, doc, errOut)
	}
	if doc[0]["implied_underlying_indicator"] != nil {
		t.Fatalf("a historical day has no implied underlying: %v", doc[0])
	}
}
