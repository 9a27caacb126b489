package cmd

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// volCLI runs commands against one sandbox on the tests' clock.
func volCLI(t *testing.T) (cli, *api.Client) {
	t.Helper()
	env := scanEnv(t)
	client := sandboxClient(t, env)
	return cli{env: env, now: func() time.Time { return testNow }}, client
}

// sandboxClient is a client of the sandbox env points to, on the tests'
// clock, to check the command's figures against the chain itself.
func sandboxClient(t *testing.T, env map[string]string) *api.Client {
	t.Helper()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: env[envAuthURL], ClientID: sandbox.DemoClientID, ClientSecret: env[envClientSecret]})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(api.WithBaseURL(env[envBaseURL]), api.WithTokenSource(ts), api.WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestVolCommandCSV: one row per expiry still trading, the header the
// documented keys, and each row's figures those of the chain itself: the
// ATM IV the mean of the ATM call's and put's iv, the move their mids.
func TestVolCommandCSV(t *testing.T) {
	c, client := volCLI(t)
	out, errOut, err := c.run(t, "vol", "SPY", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(volKeys, ",") {
		t.Fatalf("header %v", recs[0])
	}
	chain, _, err := client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20", Mode: api.Live})
	if err != nil {
		t.Fatal(err)
	}
	exps := map[api.Date]bool{}
	for _, o := range chain.Options {
		if o.Expiry >= api.NewDate(2026, 11, 20) {
			exps[o.Expiry] = true
		}
	}
	if len(recs)-1 != len(exps) || len(exps) < 5 {
		t.Fatalf("%d rows for %d expiries", len(recs)-1, len(exps))
	}
	spot := chain.Underlying.Spot()
	for _, r := range recs[1:] {
		d, _ := api.ParseDate(r[0])
		k, _ := strconv.ParseFloat(r[2], 64)
		var call, put *api.OptionData
		for i := range chain.Options {
			if o := &chain.Options[i]; o.Expiry == d && o.Strike == k {
				if o.OptionType == api.Call {
					call = o
				} else {
					put = o
				}
			}
		}
		if call == nil || put == nil {
			t.Fatalf("row %v: no ATM call and put at %v", r, k)
		}
		mid := func(o *api.OptionData) float64 {
			if o.Mid.Valid {
				return o.Mid.V
			}
			return (o.Bid.V + o.Ask.V) / 2
		}
		twoSided := call.Bid.V > 0 && put.Bid.V > 0
		iv, _ := strconv.ParseFloat(r[3], 64)
		mv, _ := strconv.ParseFloat(r[4], 64)
		switch {
		case !twoSided && (r[3] != "" || r[4] != ""):
			t.Errorf("row %v: no two-sided ATM market, yet figures", r)
		case twoSided && (math.Abs(iv-(call.IV.V+put.IV.V)/2) > 1e-8 || math.Abs(mv-(mid(call)+mid(put))) > 1e-6):
			t.Errorf("row %v: iv %v move %v; the chain's %v/%v and %v+%v", r, iv, mv, call.IV.V, put.IV.V, mid(call), mid(put))
		}
		if math.Abs(k-spot) > 5 {
			t.Errorf("row %v: ATM %v far from spot %v", r, k, spot)
		}
	}
	if !regexpMatch(`\d+ expiries of SPY, spot \d+\.\d\d, IV30 \d+\.\d\d \(previous close \d+\.\d\d\), 4 points spent`, errOut) {
		t.Errorf("stderr %q", errOut)
	}
}

// TestVolCommandTableAndJSON: the table a person reads (percentages, a
// sign on the skew, dashes) and the JSON rows, the same as the CSV's.
func TestVolCommandTableAndJSON(t *testing.T) {
	c, _ := volCLI(t)
	out, _, err := c.run(t, "vol", "spy")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !regexpMatch(`^EXPIRY +DTE +ATM +ATM IV +MOVE +MOVE % +RR25 +BF25 +P/C VOL +P/C OI$`, lines[0]) {
		t.Fatalf("table:\n%s", out)
	}
	if !regexpMatch(`^2026-11-20 +0 +\d+ +\d+\.\d% +±\d+\.\d\d +\d\.\d\d% +-\d+\.\d +[-+]?\d+\.\d +\d+\.\d\d +\d+\.\d\d$`, lines[1]) {
		t.Errorf("first row %q", lines[1])
	}
	js, _, err := c.run(t, "vol", "SPY", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(js), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(lines)-1 {
		t.Errorf("%d JSON rows, %d table rows", len(rows), len(lines)-1)
	}
	if keys := jsonKeys(t, js[strings.Index(js, "{"):strings.Index(js, "}")+1]); strings.Join(keys, ",") != strings.Join(volKeys, ",") {
		t.Errorf("row keys %v", keys)
	}
	r := rows[0]
	if iv, ok := r["atm_iv"].(float64); !ok || iv <= 0 || iv > 1 {
		t.Errorf("atm_iv is a fraction: %v", r["atm_iv"])
	}
	if rr, ok := r["risk_reversal_25d"].(float64); !ok || rr >= 0 {
		t.Errorf("SPY's risk reversal is negative: %v", r["risk_reversal_25d"])
	}
}

// TestVolCommandErrors: a caller's mistake exits 2, an unknown symbol 3,
// each with one line on stderr and nothing on stdout.
func TestVolCommandErrors(t *testing.T) {
	c, _ := volCLI(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"vol", "SP Y"}, 2, "a blank is not part of a symbol"},
		{[]string{"vol", "SPY", "--date", "2026-11-15"}, 2, "not a trading day"},
		{[]string{"vol", "SPY", "--date", "2027-01-04"}, 2, "in the future"},
		{[]string{"vol", "SPY", "--mode", "later"}, 2, "--mode"},
		{[]string{"vol", "ZZZQ"}, 3, "no such symbol"},
		{[]string{"vol"}, 2, "vol takes one symbol, not 0 arguments"},
		{[]string{"vol", "SPY", "QQQ"}, 2, "vol takes one symbol, not 2 arguments"},
		{[]string{"vol", "SPY", "--json", "--csv"}, 2, "none of the others can be"},
	} {
		var out, errOut syncBuffer
		deps := c.deps(&out, &errOut)
		if code := Execute(deps, tc.args); code != tc.code || !strings.Contains(errOut.String(), tc.want) || out.String() != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.want)
		}
	}
}

// TestVolCommandPastDay: a past day's end-of-day chain costs 3 points,
// and DTE counts from that day.
func TestVolCommandPastDay(t *testing.T) {
	c, _ := volCLI(t)
	out, errOut, err := c.run(t, "vol", "SPY", "--date", "2026-11-18", "--csv")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
	if len(recs) < 3 || recs[1][0] != "2026-11-18" || recs[1][1] != "0" || !strings.Contains(errOut, "3 points spent") {
		t.Errorf("past day: %v\n%s", recs[:min(len(recs), 3)], errOut)
	}
}
