package cmd

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/positioning"
)

// gexRow is a --json row of `chainwatch gex`.
type gexRow struct {
	Strike     float64 `json:"strike"`
	CallOI     int64   `json:"call_open_interest"`
	PutOI      int64   `json:"put_open_interest"`
	CallVolume int64   `json:"call_volume"`
	PutVolume  int64   `json:"put_volume"`
	CallGEX    float64 `json:"call_gex"`
	PutGEX     float64 `json:"put_gex"`
	GEX        float64 `json:"gex"`
}

// TestGexCommandMatchesThePage is the issue's "done when": `gex SPX
// --max-dte 30 --json` against the sandbox over loopback prints a row per
// strike whose totals are the page's (the positioning figures of the
// whole chain over its 30-day range), and those totals are a plain loop's
// over the raw chain.
func TestGexCommandMatchesThePage(t *testing.T) {
	c, client := volCLI(t)
	out, errOut, err := c.run(t, "gex", "SPX", "--max-dte", "30", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var rows []gexRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if keys := jsonKeys(t, out[strings.Index(out, "{"):strings.Index(out, "}")+1]); strings.Join(keys, ",") != strings.Join(gexKeys, ",") {
		t.Errorf("row keys %v", keys)
	}
	whole, _, err := client.OptionAndUnderlyingQuotes(t.Context(), api.OptionQuotesParams{Symbol: "SPX", Date: "2026-11-20", Mode: api.Live})
	if err != nil {
		t.Fatal(err)
	}
	day := api.NewDate(2026, 11, 20)
	ch := positioning.FromSnapshot(whole, day, testNow)
	page := positioning.Compute(ch, positioning.PageRanges[2].Select(ch)) // the page's "30 days"
	if len(rows) != len(page.Rows) || len(rows) < 100 {
		t.Fatalf("%d rows, the page %d strikes", len(rows), len(page.Rows))
	}
	var sum gexRow
	for i, r := range rows {
		p := &page.Rows[i]
		if r.Strike != p.Strike || r.CallOI != p.CallOI || r.PutOI != p.PutOI || r.CallVolume != p.CallVolume || r.PutVolume != p.PutVolume ||
			math.Abs(r.GEX-p.GEX()) > 0.006 {
			t.Fatalf("row %d %+v, the page %+v", i, r, *p)
		}
		sum.CallOI += r.CallOI
		sum.PutOI += r.PutOI
		sum.GEX += r.GEX
		sum.CallGEX += r.CallGEX
		sum.PutGEX += r.PutGEX
	}
	if sum.CallOI != page.CallOI || sum.PutOI != page.PutOI || math.Abs(sum.GEX-page.GEX) > 0.01*float64(len(rows)) {
		t.Errorf("the rows sum to %+v, the page's totals OI %d/%d GEX %v", sum, page.CallOI, page.PutOI, page.GEX)
	}
	// A plain loop over the raw chain: every contract within 30 days with
	// a gamma, and the estimates for those without (TestGexDoneWhen holds
	// them to the chain's count).
	spot, plain := whole.Underlying.Spot(), estimatedGEX(ch, 30)
	for _, o := range whole.Options {
		if o.Expiry < day || day.DaysUntil(o.Expiry) > 30 || !o.Gamma.Valid || !o.OpenInterest.Valid {
			continue
		}
		g := o.Gamma.V * float64(o.OpenInterest.V) * 100 * spot * spot * 0.01
		if o.OptionType == api.Put {
			g = -g
		}
		plain += g
	}
	if plain == 0 || math.Abs(sum.GEX-plain) > 1e-6*math.Abs(sum.CallGEX-sum.PutGEX) {
		t.Errorf("the rows' GEX %v, a plain loop over the chain %v", sum.GEX, plain)
	}
	for _, want := range []string{"strikes of SPX, 30 days:", "max pain: 2026-11-20 SPX", "call wall", "zero gamma", positioning.Dealers, "4 points spent"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestGexCommandSummary: --summary prints the one object, its keys in
// order, its totals the rows'; --jq sees the object; --csv is refused.
func TestGexCommandSummary(t *testing.T) {
	c, _ := volCLI(t)
	out, errOut, err := c.run(t, "gex", "SPY", "--dte", "0", "--summary")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if keys := jsonKeys(t, out); strings.Join(keys, ",") != strings.Join(gexSummaryKeys, ",") {
		t.Fatalf("summary keys %v\n%s", keys, out)
	}
	var s struct {
		Range    string   `json:"range"`
		Expiries []string `json:"expiries"`
		MaxPain  []struct {
			Expiry string   `json:"expiry"`
			Strike *float64 `json:"strike"`
		} `json:"max_pain"`
		CallWall, PutWall, Spot float64
		GEX                     float64  `json:"gex"`
		ZeroGamma               *float64 `json:"zero_gamma"`
		Note                    string   `json:"zero_gamma_note"`
		Dealers                 string   `json:"dealers"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Range != "0DTE" || len(s.Expiries) != 1 || s.Expiries[0] != "2026-11-20" || len(s.MaxPain) != 1 || s.MaxPain[0].Strike == nil ||
		s.Dealers != positioning.Dealers || (s.ZeroGamma == nil) == (s.Note == "") {
		t.Fatalf("summary %+v", s)
	}
	js, _, err := c.run(t, "gex", "SPY", "--dte", "0", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []gexRow
	_ = json.Unmarshal([]byte(js), &rows)
	sum := 0.0
	for _, r := range rows {
		sum += r.GEX
	}
	if len(rows) == 0 || math.Abs(sum-s.GEX) > 0.01*float64(len(rows)) {
		t.Errorf("the rows sum to %v, the summary says %v", sum, s.GEX)
	}
	jq, _, err := c.run(t, "gex", "SPY", "--dte", "0", "--summary", "--jq", ".max_pain[0].expiry")
	if err != nil || jq != "2026-11-20\n" {
		t.Errorf("--jq on the summary: %q %v", jq, err)
	}
}

// TestGexCommandTable: the table a person reads, and the summary on
// stderr.
func TestGexCommandTable(t *testing.T) {
	c, _ := volCLI(t)
	out, errOut, err := c.run(t, "gex", "spy", "--expiry", "2026-11-27")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !regexpMatch(`^STRIKE +CALL OI +PUT OI +CALL VOL +PUT VOL +CALL GEX \$ +PUT GEX \$ +GEX \$ +VANNA \$/VOL +CHARM \$/DAY$`, lines[0]) || len(lines) < 20 {
		t.Fatalf("table:\n%s", out)
	}
	if !regexpMatch(`^ *\d+ +[\d,]+ +[\d,]+ +[\d,]+ +[\d,]+ +(\+\$[\d,]+|\$0) +(-\$[\d,]+|\$0) +([-+]\$[\d,]+|\$0) +([-+]\$[\d,]+|\$0) +([-+]\$[\d,]+|\$0)$`, lines[len(lines)/2]) {
		t.Errorf("a row %q", lines[len(lines)/2])
	}
	if !strings.Contains(errOut, "SPY, 2026-11-27: the 2026-11-27 expiry") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestGexCommandErrors: a caller's mistake exits 2 and spends nothing, an
// unknown symbol or an empty range 3, each with one line on stderr and
// nothing on stdout.
func TestGexCommandErrors(t *testing.T) {
	c, _ := volCLI(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"gex", "SP Y"}, 2, "a blank is not part of a symbol"},
		{[]string{"gex", "SPY", "--dte", "-1"}, 2, "--dte -1: want 0 to"},
		{[]string{"gex", "SPY", "--max-dte", "9999"}, 2, "--max-dte 9999: want 0 to"},
		{[]string{"gex", "SPY", "--expiry", "2026-11-26"}, 2, "Thanksgiving"},
		{[]string{"gex", "SPY", "--expiry", "soon"}, 2, "is not a date"},
		{[]string{"gex", "SPY", "--expiry", "2026-11-27", "--dte", "3"}, 2, "none of the others can be"},
		{[]string{"gex", "SPY", "--summary", "--csv"}, 2, "--csv has no place for it"},
		{[]string{"gex", "SPY", "--date", "2026-11-15"}, 2, "not a trading day"},
		{[]string{"gex", "SPY", "--json=strike,nope"}, 2, "unknown field"},
		{[]string{"gex"}, 2, "give a symbol"},
		{[]string{"gex", "ZZZQ"}, 3, "no such symbol"},
		{[]string{"gex", "AAPL", "--expiry", "2026-11-23"}, 3, "no expiry in that range"},
	} {
		var out, errOut syncBuffer
		if code := Execute(c.deps(&out, &errOut), tc.args); code != tc.code || !strings.Contains(errOut.String(), tc.want) || out.String() != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.want)
		}
	}
	out, _, err := c.run(t, "gex", "SPX", "--cost")
	if err != nil || !strings.HasPrefix(out, "4 points: 1 option-and-underlying-quotes request") {
		t.Errorf("--cost: %q %v", out, err)
	}
}

// TestGexOptionsFromFlags: the flags parse into the options and the
// range they ask for, without running anything (runF).
func TestGexOptionsFromFlags(t *testing.T) {
	deps := cli{}.deps(&bytes.Buffer{}, &bytes.Buffer{})
	for _, tc := range []struct {
		args []string
		want positioning.Range
	}{
		{[]string{"spx"}, positioning.Range{Kind: positioning.AllExpiries}},
		{[]string{"spx", "--dte", "0"}, positioning.Range{Kind: positioning.FirstFrom}},
		{[]string{"spx", "--dte", "7"}, positioning.Range{Kind: positioning.FirstFrom, Days: 7}},
		{[]string{"spx", "--max-dte", "30", "--summary", "--mode", "delayed"}, positioning.Range{Kind: positioning.WithinDays, Days: 30}},
		{[]string{"spx", "--expiry", "2026-12-18"}, positioning.Range{Kind: positioning.OnDate, Date: api.NewDate(2026, 12, 18)}},
	} {
		var got *GexOptions
		cmd := NewCmdGex(deps, func(o *GexOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil || got == nil {
			t.Fatal(tc.args, err)
		}
		r, err := got.expiries()
		if err != nil || r != tc.want || got.Symbol != "spx" {
			t.Errorf("%q: range %+v (%v), want %+v", tc.args, r, err, tc.want)
		}
		if slices.Contains(tc.args, "--summary") && (!got.Summary || !got.ModeSet || got.Mode != "delayed") {
			t.Errorf("%q: %+v", tc.args, got)
		}
	}
}
