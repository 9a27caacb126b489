package cmd

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config/configtest"
)

// chainCLI runs commands against one sandbox on the tests' clock (a
// Friday afternoon, the market open).
func chainCLI(t *testing.T) func(t *testing.T, args ...string) (string, string, error) {
	env := scanEnv(t)
	return func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		return cli{env: env, now: func() time.Time { return testNow }}.run(t, args...)
	}
}

// chainRows decodes --json.
func chainRows(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rows
}

// fullChain is the whole chain, asked of the sandbox directly, to check
// which expiry the command picked.
func fullChain(t *testing.T, env map[string]string) *api.SymbolWithOptions {
	t.Helper()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: env[envAuthURL], ClientID: env[envClientID], ClientSecret: env[envClientSecret]})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(api.WithBaseURL(env[envBaseURL]), api.WithTokenSource(ts))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := c.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: api.Today(testNow).String()})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestChainCommand(t *testing.T) {
	run := chainCLI(t)

	t.Run("table around the money", func(t *testing.T) {
		out, errOut, err := run(t, "chain", "SPY", "--strikes", "4")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 9 || !strings.HasPrefix(lines[0], "OPTION") || !strings.Contains(lines[0], "IV %") {
			t.Fatalf("table:\n%s", out)
		}
		var strikes []float64
		for i, l := range lines[1:] {
			f := strings.Fields(l)
			k, _ := strconv.ParseFloat(f[1], 64)
			if want := []string{"call", "put"}[i%2]; f[2] != want || i%2 == 1 && k != strikes[len(strikes)-1] {
				t.Fatalf("row %d %q: want a %s", i, l, want)
			}
			if i%2 == 0 {
				strikes = append(strikes, k)
			}
		}
		if !slices.IsSorted(strikes) || len(strikes) != 4 {
			t.Fatalf("strikes %v", strikes)
		}
		if !regexpMatch(`chainwatch: 8 contracts of SPY 2026-11-20 \(0 DTE\), underlying (\d+\.\d\d), 4 points spent, [\d,]+ points left this month\n$`, errOut) {
			t.Fatalf("stderr %q", errOut)
		}
		spot, _ := strconv.ParseFloat(regexpFind(`underlying (\d+\.\d\d)`, errOut), 64)
		if spot < strikes[0] || spot > strikes[3] {
			t.Fatalf("spot %v outside the strikes %v", spot, strikes)
		}
		// The four kept are the four nearest spot: none dropped is nearer.
		all, _, err := run(t, "chain", "SPY", "--json=strike")
		if err != nil {
			t.Fatal(err)
		}
		far := 0.0
		for _, k := range strikes {
			far = max(far, math.Abs(k-spot))
		}
		for _, r := range chainRows(t, all) {
			if k := r["strike"].(float64); !slices.Contains(strikes, k) && math.Abs(k-spot) < far {
				t.Fatalf("strike %v is nearer %v than one of %v", k, spot, strikes)
			}
		}
	})

	t.Run("json has the service's fields in order", func(t *testing.T) {
		out, _, err := run(t, "chain", "SPY", "--strikes", "2", "--json")
		if err != nil {
			t.Fatal(err)
		}
		rows := chainRows(t, out)
		if len(rows) != 4 {
			t.Fatalf("%d rows", len(rows))
		}
		first := out[strings.Index(out, "{"):strings.Index(out, "}")]
		if keys := jsonKeys(t, first+"}"); !slices.Equal(keys, chainKeys) {
			t.Fatalf("keys %v", keys)
		}
		for _, r := range rows {
			iv, _ := r["iv"].(float64)
			if r["expiry"] != "2026-11-20" || iv <= 0 || iv > 3 || !strings.HasPrefix(r["option"].(string), "SPY") {
				t.Fatalf("row %v", r)
			}
		}
	})

	t.Run("dte picks the first expiry at least N days out", func(t *testing.T) {
		env := scanEnv(t)
		var want api.Date
		for _, o := range fullChain(t, env).Options {
			if d := o.Expiry; d >= api.Today(testNow).AddDays(30) && (want == 0 || d < want) {
				want = d
			}
		}
		out, _, err := cli{env: env, now: func() time.Time { return testNow }}.run(t, "chain", "SPY", "--dte", "30", "--json=expiry,strike")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range chainRows(t, out) {
			if r["expiry"] != want.String() || len(r) != 2 {
				t.Fatalf("row %v, want expiry %s", r, want)
			}
		}
	})

	t.Run("expiry", func(t *testing.T) {
		out, _, err := run(t, "chain", "SPY", "--expiry", "2026-12-18", "--csv")
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 3 || !slices.Equal(recs[0], chainKeys) || recs[1][2] != "2026-12-18" {
			t.Fatalf("%v %v", err, recs[:min(len(recs), 3)])
		}
	})

	t.Run("a past day costs the historical price", func(t *testing.T) {
		out, errOut, err := run(t, "chain", "SPY", "--date", "2026-11-19", "--strikes", "1", "--json")
		if err != nil {
			t.Fatal(err, errOut)
		}
		if rows := chainRows(t, out); len(rows) != 2 || rows[0]["expiry"] != "2026-11-19" || !strings.Contains(errOut, ", 3 points spent") {
			t.Fatalf("%v\n%s", rows, errOut)
		}
	})

	t.Run("jq and template", func(t *testing.T) {
		out, _, err := run(t, "chain", "SPY", "--strikes", "3", "--jq", `[.[] | select(.option_type == "P")] | length`)
		if err != nil || out != "3\n" {
			t.Fatalf("%v %q", err, out)
		}
		out, _, err = run(t, "chain", "SPY", "--strikes", "1", "--jq", `.[0].option`)
		if err != nil || !regexpMatch(`^SPY261120C\d{8}\n$`, out) {
			t.Fatalf("raw string: %v %q", err, out)
		}
		out, _, err = run(t, "chain", "SPY", "--strikes", "1", "--json=option_type,strike", "--jq", `.[1]`)
		if err != nil || !regexpMatch(`^\{"option_type":"P","strike":\d+\}\n$`, out) {
			t.Fatalf("object: %v %q", err, out)
		}
		out, _, err = run(t, "chain", "SPY", "--strikes", "1", "--template", "{{range .}}{{.option_type}}\t{{.strike}}\n{{end}}")
		if err != nil || !regexpMatch(`^C\t\d+\nP\t\d+\n$`, out) {
			t.Fatalf("template: %v %q", err, out)
		}
	})
}

func regexpFind(pattern, s string) string {
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if len(m) < 2 {
		return ""
	}
	return m[1]
}

// TestHeadlessExitCodes: each exit status means what docs/scripting.md's table says,
// and on every error stdout is empty and stderr one line.
func TestHeadlessExitCodes(t *testing.T) {
	env := scanEnv(t)
	dead := homeEnv(t)
	dead[envBaseURL], dead[envAuthURL], dead[envClientID], dead[envClientSecret] = "http://127.0.0.1:1", "http://127.0.0.1:1", "id", "not-shown-secret"
	for _, tc := range []struct {
		env  map[string]string
		args []string
		code int
		err  string
	}{
		{env, []string{"chain", "SPY", "--strikes", "1"}, ExitOK, ""},
		{env, []string{"chain", "ZZZQ"}, ExitNoData, "no such symbol: ZZZQ (8 points spent)"},
		{env, []string{"chain", "SPY", "--dte", "3000"}, ExitNoData, "SPY --dte 3000: no expiry on or after 2035-02-06 (8 points spent)"},
		{env, []string{"calendar", "ZZZQ"}, ExitNoData, "no earnings or dividends"},
		{env, []string{"chain", "SPY", "--dte", "-1"}, ExitInput, "--dte -1"},
		{env, []string{"chain", "SPY", "--expiry", "2026-11-26"}, ExitInput, "Thanksgiving Day"},
		{env, []string{"chain", "SPY", "--json=strike,ivv"}, ExitInput, `unknown field "ivv"`},
		{env, []string{"chain", "SPY", "--jq", ".["}, ExitInput, "--jq"},
		{env, []string{"chain", "SPY", "--jq", ".[0] | keys | .[] | tonumber"}, ExitInput, "--jq"},
		{env, []string{"chain", "SPY", "--json", "strike"}, ExitInput, "--json=field,field"},
		{env, []string{"chain", "SP Y"}, ExitInput, ""},
		{env, []string{"chain", "SPY", "--watch", "10ms"}, ExitInput, "shortest interval"},
		{env, []string{"chain", "SPY", "--date", "2026-11-19", "--watch", "1m"}, ExitInput, "never changes"},
		{env, []string{"calendar", "AAPL", "--type", "splits"}, ExitInput, "--type"},
		{env, []string{"scan", "--formula", "iv31 > 4"}, ExitInput, "unknown field iv31"},
		{env, []string{"chain", "SPY", "--bogus"}, ExitInput, "unknown flag"},
		{env, []string{"chain", "SPY", "--json", "--csv"}, ExitInput, "none of the others can be"},
		{env, []string{"scan", "--formula", "iv30", "--csv", "--jq", ".[0]"}, ExitInput, "none of the others can be"},
		{env, []string{"calendar"}, ExitInput, "requires at least 1 arg"},
		{env, []string{"chain", "SPY", "--expiry", "2026-12-18", "--dte", "3"}, ExitInput, "none of the others can be"},
		{dead, []string{"chain", "SPY"}, ExitService, "cannot"},
		{dead, []string{"calendar", "AAPL"}, ExitService, "cannot"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut syncBuffer
			c := cli{env: tc.env, now: func() time.Time { return testNow }}
			deps := c.deps(&out, &errOut)
			if code := Execute(deps, tc.args); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut.String())
			}
			if tc.code == ExitOK {
				return
			}
			lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			last := lines[len(lines)-1]
			if out.String() != "" || !strings.Contains(last, tc.err) || strings.Contains(errOut.String(), "not-shown-secret") {
				t.Fatalf("stdout %q, stderr %q, want %q", out.String(), errOut.String(), tc.err)
			}
		})
	}
}

// TestCostSpendsNothing: --cost answers without a session, so it works
// with the service down and costs nothing.
func TestCostSpendsNothing(t *testing.T) {
	dead := homeEnv(t)
	dead[envBaseURL], dead[envAuthURL], dead[envClientID], dead[envClientSecret] = "http://127.0.0.1:1", "http://127.0.0.1:1", "id", "secret"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chain", "SPY", "--expiry", "2026-12-18", "--cost"}, "4 points: 1 option-and-underlying-quotes request (live, 4 points each)\n"},
		{[]string{"chain", "SPY", "--mode", "delayed", "--cost"}, "8 points: 1 option-and-underlying-quotes request (delayed, 8 points each); twice that when"},
		{[]string{"chain", "SPY", "--date", "2026-11-19", "--expiry", "2026-11-20", "--cost"}, "3 points: 1 option-and-underlying-quotes request (historical, 3 points each)\n"},
		{[]string{"calendar", "AAPL", "MSFT", "--cost"}, "15 points: 1 calendar request (live, 15 points each)\n"},
		{[]string{"scan", "--formula", "iv30", "--all", "--cost"}, "150 points: 1 custom-scanner (all results) request"},
		{[]string{"chain", "SPY", "--expiry", "2026-12-18", "--cost", "--watch", "1m"}, "with --watch 1m0s: up to 240 points an hour, 1,560 a 6.5-hour session"},
	} {
		out, errOut, err := cli{env: dead, now: func() time.Time { return testNow }}.run(t, tc.args...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Fatalf("%v: %v\nstdout %q\nstderr %q\nwant %q", tc.args, err, out, errOut, tc.want)
		}
	}
}

// TestWatchRuns: --watch runs again on its interval, one JSON document a
// line for a log, and stops cleanly (status 0) when interrupted.
func TestWatchRuns(t *testing.T) {
	env := scanEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, errOut: errOut, now: func() time.Time { return testNow }}.run(t,
			"chain", "SPY", "--strikes", "1", "--watch", "1s", "--json=option,option_bid")
		done <- err
	}()
	waitFor(t, "two runs", func() bool { return strings.Count(out.String(), "\n") >= 2 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if rows := chainRows(t, line); len(rows) != 2 {
			t.Fatalf("line %q", line)
		}
	}
	if n := strings.Count(errOut.String(), "4 points spent"); n < 2 {
		t.Fatalf("stderr %q", errOut.String())
	}
}

// TestWatchStaysWithinBudget: an interval that would spend faster than
// the config file's budget is stretched, and stderr says so.
func TestWatchStaysWithinBudget(t *testing.T) {
	env := scanEnv(t)
	path := configtest.Write(t, t.TempDir(), "[budget]\npoints_per_day = 65\n", 0o600) // 10 points an hour
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, errOut: errOut, now: func() time.Time { return testNow }}.run(t,
			"chain", "SPY", "--strikes", "1", "--watch", "1s", "--csv", "--config", path)
		done <- err
	}()
	waitFor(t, "the stretched interval", func() bool { return strings.Contains(errOut.String(), "running every") })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "--watch 1s would spend 14,400 points an hour, more than the budget allows; running every 24m0s") {
		t.Fatalf("stderr %q", errOut.String())
	}
}

// TestWatchPausesWhileClosed: on a Saturday the first run shows the last
// data at once, then the runs wait for the open.
func TestWatchPausesWhileClosed(t *testing.T) {
	saturday := time.Date(2026, 11, 21, 10, 0, 0, 0, api.Eastern)
	env := scanEnvAt(t, saturday)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, errOut: errOut, now: func() time.Time { return saturday }}.run(t,
			"calendar", "AAPL", "--watch", "1s", "--csv")
		done <- err
	}()
	waitFor(t, "the pause", func() bool { return strings.Contains(errOut.String(), "market is closed") })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "10:00:00 ET: the market is closed; the runs are paused until Mon 09:30 ET (in 1d23h)") || strings.Count(out.String(), "underlying_symbol") != 1 {
		t.Fatalf("stdout %q\nstderr %q", out.String(), errOut.String())
	}
}

// TestHeadlessSandboxClock: --sandbox-clock is "today" for every check,
// not only for the embedded sandbox: a Tuesday afternoon's trades are
// asked of that Tuesday, whatever the machine's date.
func TestHeadlessSandboxClock(t *testing.T) {
	out, errOut, err := cli{env: homeEnv(t)}.run(t, "trades", "SPY", "--sandbox-clock", "2026-11-24T14:00:00-05:00",
		"--since", "09:30", "--min-size", "500", "--json=timestamp,option_trade_size")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	rows := chainRows(t, out)
	if len(rows) == 0 || !strings.Contains(errOut, " trades of SPY on 2026-11-24 from 09:30") {
		t.Fatalf("%d rows; stderr %q", len(rows), errOut)
	}
	for _, r := range rows {
		if r["option_trade_size"].(float64) < 500 || r["timestamp"].(string) < "09:30" || r["timestamp"].(string) > "14:00:01" {
			t.Fatalf("row %v", r)
		}
	}
}

// TestWatchTableToALog: tables appended to a file or pipe each stand
// under the time of their run, so a log reads run by run.
func TestWatchTableToALog(t *testing.T) {
	env := scanEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		_, _, err := cli{env: env, ctx: ctx, out: out, now: func() time.Time { return testNow }}.run(t,
			"calendar", "AAPL", "--watch", "1s")
		done <- err
	}()
	waitFor(t, "two runs", func() bool { return strings.Count(out.String(), "# 2026-11-20 14:00:00 EST\n") >= 2 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	runs := strings.Split(out.String(), "\n\n")
	if len(runs) < 2 || !strings.HasPrefix(runs[0], "# 2026-11-20 14:00:00 EST\nSYMBOL  EVENT") || !strings.HasPrefix(runs[1], "# 2026-11-20 14:00:00 EST\nSYMBOL  EVENT") {
		t.Fatalf("log:\n%s", out.String())
	}
}

// TestNearestStrikes pins the trader's case: spot 701.79 with --strikes 2
// keeps 701 and 702 (a window centred on 702 gave 702 and 703).
func TestNearestStrikes(t *testing.T) {
	var opts []api.OptionData
	for k := 698.0; k <= 706; k++ {
		opts = append(opts, api.OptionData{Strike: k, OptionType: "C"}, api.OptionData{Strike: k, OptionType: "P"})
	}
	for _, c := range []struct {
		spot float64
		n    int
		want []float64
	}{
		{701.79, 2, []float64{701, 702}},
		{701.79, 1, []float64{702}},
		{701.79, 3, []float64{701, 702, 703}},
		{701.21, 2, []float64{701, 702}},
		{701.21, 4, []float64{700, 701, 702, 703}},
		{697, 3, []float64{698, 699, 700}},
		{710, 2, []float64{705, 706}},
	} {
		var got []float64
		for _, o := range nearestStrikes(opts, c.spot, c.n) {
			if len(got) == 0 || got[len(got)-1] != o.Strike {
				got = append(got, o.Strike)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("spot %v, %d strikes: %v, want %v", c.spot, c.n, got, c.want)
		}
	}
}

// TestUnknownSymbolOneWording: every command that asks about a symbol says
// the service does not know it in the screen's words, with the nearest of
// the user's symbols (the default watchlist has SPY), status 3.
func TestUnknownSymbolOneWording(t *testing.T) {
	c := cli{env: scanEnv(t), now: func() time.Time { return testNow }}
	for _, args := range [][]string{
		{"chain", "SPYY"},
		{"chain", "SPYY", "--dte", "30"},
		{"vol", "SPYY"},
		{"vol", "SPYY", "--earnings"},
		{"gex", "SPYY"},
		{"quotes", "SPYY"},
		{"strategy", "SPYY 2026-12-18 +C700"},
	} {
		out, errOut, err := c.run(t, args...)
		if exitCode(err) != ExitNoData || out != "" || !strings.Contains(errOut, "no such symbol: SPYY; did you mean SPY? (") {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, exitCode(err), out, errOut)
		}
	}
	_, errOut, err := c.run(t, "scan", "--formula", "iv31 > 40")
	if exitCode(err) != ExitInput || !strings.Contains(errOut, `unknown field iv31; did you mean iv30?`) {
		t.Errorf("scan: status %d, stderr %q", exitCode(err), errOut)
	}
}
