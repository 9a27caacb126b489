package cmd

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/sandbox"
	"chainwatch/scan"
)

// issueExample is the issue's scan: iv30 over 40, sorted by iv30.
var issueExample = []string{"scan", "--formula", "iv30 > 40", "--formula", "iv30", "--sort", "iv30"}

// TestScanCommandEmbeddedSandbox: without credentials `chainwatch scan`
// runs on the embedded sandbox, as the watch screen does, and prints the
// issue's example as a table, sorted by iv30, with what it cost. The
// filter iv30 > 40 is no column: it would read "yes" on every row.
func TestScanCommandEmbeddedSandbox(t *testing.T) {
	out, errOut, err := cli{env: homeEnv(t)}.run(t, issueExample...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 || !regexpMatch(`^SYMBOL +COMPANY +iv30$`, lines[0]) {
		t.Fatalf("table:\n%s", out)
	}
	prev := 1e9
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		iv, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil || iv <= 40 || iv > prev || strings.Contains(l, "yes") {
			t.Fatalf("row %q after iv30 %v", l, prev)
		}
		prev = iv
	}
	if !regexpMatch(`^chainwatch: no credentials: answering from the embedded sandbox's simulated market\nchainwatch: \d+ rows.*, 30 points spent, [\d,]+ points left this month\n$`, errOut) {
		t.Fatalf("stderr %q", errOut)
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// scanEnv starts one sandbox on the tests' clock for a group of runs (its
// market is computed once) and returns an environment with its client
// credentials.
func scanEnv(t *testing.T) map[string]string {
	t.Helper()
	return scanEnvAt(t, testNow)
}

// scanEnvAt is scanEnv with the service's clock stopped at now: the
// commands take "today" from the service (its Date header), so a test of
// a day needs the service on that day.
func scanEnvAt(t *testing.T, now time.Time) map[string]string {
	t.Helper()
	sb, err := sandbox.Start(sandbox.Config{Now: func() time.Time { return now }, PerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	env := homeEnv(t)
	env[envAuthURL], env[envBaseURL], env[envClientID], env[envClientSecret] = sb.AuthURL, sb.BaseURL, sandbox.DemoClientID, sb.DemoSecret
	return env
}

// scanJSON is the --json document: the rows, gh's shape.
type scanJSON []map[string]any

func TestScanCommand(t *testing.T) {
	env := scanEnv(t)
	run := func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		return cli{env: env}.run(t, args...)
	}

	t.Run("json", func(t *testing.T) {
		out, errOut, err := run(t, append(issueExample, "--json")...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var doc scanJSON
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if len(doc) != 20 {
			t.Fatalf("%+v", doc)
		}
		for i, r := range doc {
			iv, _ := r["iv30"].(float64)
			if _, filter := r["iv30 > 40"]; filter || len(r) != 3 || iv <= 40 || r["symbol"] == "" || r["company_name"] == "" ||
				i > 0 && iv > doc[i-1]["iv30"].(float64) {
				t.Fatalf("row %d: %v", i, r)
			}
		}
		// Keys in a stable order: each row's in the scan's order.
		row := out
		if !(strings.Index(row, `"symbol"`) < strings.Index(row, `"company_name"`) &&
			strings.Index(row, `"company_name"`) < strings.Index(row, `"iv30":`)) {
			t.Fatalf("row key order:\n%s", row[:300])
		}
		if !strings.Contains(errOut, "20 rows (the top 20; --all returns every row for 150 points), 30 points spent") {
			t.Fatalf("stderr %q", errOut)
		}
	})

	t.Run("csv", func(t *testing.T) {
		out, _, err := run(t, append(issueExample, "--csv")...)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) != 21 || !slices.Equal(recs[0], []string{"symbol", "company_name", "iv30"}) {
			t.Fatalf("%v %v", err, recs)
		}
		prev := 1e9
		for _, r := range recs[1:] {
			iv, err := strconv.ParseFloat(r[2], 64)
			if err != nil || iv <= 40 || iv > prev {
				t.Fatalf("record %v", r)
			}
			prev = iv
		}
	})

	t.Run("preset", func(t *testing.T) {
		out, errOut, err := run(t, "scan", "--name", "high iv", "--json")
		if err != nil {
			t.Fatalf("%v %s", err, errOut)
		}
		var doc scanJSON
		want, _ := scan.Find(nil, "High IV")
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc) == 0 {
			t.Fatalf("%v %+v", err, doc)
		}
		for _, c := range want.Columns() {
			if _, ok := doc[0][c]; !ok {
				t.Fatalf("row %v lacks the preset's column %q", doc[0], c)
			}
		}
	})

	t.Run("saved scan with an extra formula", func(t *testing.T) {
		path := configtest.Write(t, t.TempDir(), "[[scan]]\nname = \"Cheap\"\n  [[scan.field]]\n  formula = \"price < 50\"\n  include_in_resultset = false\n  [[scan.field]]\n  formula = \"price\"\n  sort = \"asc\"\n", 0o600)
		out, errOut, err := run(t, "scan", "--config", path, "--name", "CHEAP", "--formula", "min(iv30, hv30)", "--csv")
		if err != nil {
			t.Fatalf("%v %s", err, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 2 || !slices.Equal(recs[0], []string{"symbol", "company_name", "price", "min(iv30, hv30)"}) {
			t.Fatalf("%v %v", err, recs)
		}
		if p, _ := strconv.ParseFloat(recs[1][2], 64); p >= 50 {
			t.Fatalf("first row %v", recs[1])
		}
	})

	t.Run("unknown field", func(t *testing.T) {
		out, errOut, err := run(t, "scan", "--formula", "iv30", "--formula", "iv31 > 40", "--json")
		want := `formula 2 "iv31 > 40": unknown field iv31; did you mean iv30?`
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(errOut, want) || out != "" {
			t.Fatalf("err %v, stdout %q, stderr %q", err, out, errOut)
		}
	})

	t.Run("all results cost", func(t *testing.T) {
		out, errOut, err := run(t, "scan", "--formula", "iv30 > 20", "--formula", "iv30", "--all", "--csv")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if len(lines) != 2 || lines[0] != "chainwatch: --all: this scan returns every matching row and costs 150 points (live)" ||
			!strings.Contains(lines[1], "150 points spent") {
			t.Fatalf("stderr %q", errOut)
		}
		if recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll(); len(recs) <= 21 {
			t.Fatalf("--all returned %d rows", len(recs)-1)
		}
	})

	// --all given says what the run returns either way: --all=false runs
	// a saved scan that returns every row for its top 20, at 30 points.
	t.Run("all=false overrides a saved scan", func(t *testing.T) {
		path := configtest.Write(t, t.TempDir(), "[[scan]]\nname = \"Wide\"\nall_results = true\n  [[scan.field]]\n  formula = \"iv30 > 20\"\n  [[scan.field]]\n  formula = \"iv30\"\n", 0o600)
		for _, tc := range []struct {
			flag   string
			points string
			all    bool
		}{{"", "150 points spent", true}, {"--all=false", "30 points spent", false}, {"--all=true", "150 points spent", true}} {
			args := []string{"scan", "--config", path, "--name", "wide", "--csv"}
			if tc.flag != "" {
				args = append(args, tc.flag)
			}
			out, errOut, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v: %v %s", args, err, errOut)
			}
			recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
			if strings.Contains(errOut, "every matching row") != tc.all || !strings.Contains(errOut, tc.points) || (len(recs) > 21) != tc.all {
				t.Fatalf("%v: %d rows, stderr %q", args, len(recs)-1, errOut)
			}
		}
	})
}

// jsonKeys lists the top-level keys of a JSON object in document order.
func jsonKeys(t *testing.T, doc string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestScanCommandFlagErrors: a mistake on the command line is one clear
// line before anything is started or spent, and nothing on stdout.
func TestScanCommandFlagErrors(t *testing.T) {
	env := homeEnv(t)
	env[envBaseURL] = "http://127.0.0.1:1" // were a session started, it would fail differently
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"scan"}, []string{"no scan to run", "--formula 'iv30 > 40'", "--name", "chainwatch scan --list"}},
		{[]string{"scan", "--name", "nope"}, []string{`--name "nope": no saved scan or preset has that name`, `"High IV"`, `"Dividend capture"`}},
		{[]string{"scan", "--formula", "iv30", "--sort", "iv31:asc"}, []string{`--sort "iv31:asc": no formula or display name of the scan is "iv31"`, `sort by one of "iv30"`}},
		{[]string{"scan", "--formula", " "}, []string{"--formula number 1 is empty"}},
		{[]string{"scan", "--formula", "iv30", "--json", "--csv"}, []string{"json", "csv", "none of the others"}},
		{[]string{"scan", "--list", "--formula", "iv30"}, []string{"list", "formula"}},
		{[]string{"scan", "--formula", "iv30", "--mode", "fast"}, []string{`--mode "fast": want live or delayed`}},
		{[]string{"scan", "--formula", "iv30", "--config", filepath.Join(t.TempDir(), "none.toml")}, []string{"no such file"}},
	} {
		out, errOut, err := cli{env: env}.run(t, tc.args...)
		if err == nil || out != "" {
			t.Fatalf("%v: err %v, stdout %q", tc.args, err, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not say %q (stderr %q)", tc.args, err, w, errOut)
			}
		}
	}
}

// TestScanCommandList: --list shows each field as its formula with its
// options in words after it, numbered as errors number them, never as a
// --formula argument that would not run as shown.
func TestScanCommandList(t *testing.T) {
	env := homeEnv(t)
	out, _, err := cli{env: env}.run(t, "scan", "--list")
	if err != nil || !strings.Contains(out, "Saved scans: none") || !strings.Contains(out, "\n  High IV\n") ||
		!strings.Contains(out, "\n    1  iv30 >= 40  (not shown)\n    2  iv30        (as IV30, sort desc)\n    3  iv_rank     (as \"IV Rank\")\n") ||
		!strings.HasSuffix(out, "\nRun one with chainwatch scan --name NAME; --formula adds fields to it.\n") {
		t.Fatalf("%v\n%s", err, out)
	}
	if regexpMatch(`(?m)^ +[0-9 ]*--formula`, out) {
		t.Fatalf("a field is shown as a --formula argument:\n%s", out)
	}
	path, _ := config.DefaultPath(func(k string) string { return env[k] })
	if err := config.SaveScan(path, config.SavedScan{Name: "Mine", AllResults: true, Fields: []api.ScanFieldParam{
		{Formula: "min(iv30, hv30)"}, {Formula: "iv30 > 40", IncludeInResultset: api.Ptr(false), Sort: api.SortAsc}}}, scan.CheckSaved); err != nil {
		t.Fatal(err)
	}
	out, _, err = cli{env: env}.run(t, "scan", "--list")
	if err != nil || !strings.Contains(out, "Saved scans ("+path+"):\n\n  Mine  [all results]\n    1  min(iv30, hv30)\n    2  iv30 > 40        (not shown, sort asc)\n\nPresets:\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// hostile is text with terminal controls: CSI and OSC sequences, a BEL,
// a line break, DEL and the C1 CSI (U+009B).
const hostile = "\x1b[2J\x1b]0;owned\x07A\u009b31mB\x7f\tC\nD\x1b[0m"

// noControls fails when s holds a control character other than '\n'.
func noControls(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r >= 0x7f && r <= 0x9f) {
			t.Fatalf("%s holds %U:\n%q", what, r, s)
		}
	}
}

// TestScanListStripsControls: a hand-edited file's formula or display
// name cannot drive the terminal through --list.
func TestScanListStripsControls(t *testing.T) {
	var b strings.Builder
	err := printScanList(&b, "config.toml", []scan.Scan{{Name: "x" + hostile, Description: hostile,
		Fields: []api.ScanFieldParam{{Formula: "iv30 > 40" + hostile, DisplayName: hostile}}}})
	if err != nil {
		t.Fatal(err)
	}
	noControls(t, "--list", b.String())
	if !strings.Contains(b.String(), "\n  xAB C D\n    AB C D\n    1  iv30 > 40AB C D  (as \"AB C D\")\n") {
		t.Fatalf("%s", b.String())
	}
}

// TestScanOutputStripsControls: symbols, company names and string values
// from the service reach a CSV or the table without terminal controls; JSON keeps them
// exactly, escaped (C0 by encoding/json, DEL and C1 by escapeC1).
func TestScanOutputStripsControls(t *testing.T) {
	out := scan.Outcome{Mode: api.Live, Columns: []string{"sector" + hostile, "iv30", "ok", "none"},
		Result: &api.ScanResult{LastUpdated: "2026-01-02T15:04:05Z", Output: []api.ScanRow{{
			Symbol: "EV" + hostile, CompanyName: "Evil \u0085Corp" + hostile,
			Values: map[string]any{"sector" + hostile: "Tech" + hostile, "iv30": 41.5, "ok": true, "none": nil},
		}}}}
	var b bytes.Buffer
	if err := FormatCSV.Write(&b, scanExport(out)); err != nil {
		t.Fatal(err)
	}
	noControls(t, "CSV", b.String())
	recs, err := csv.NewReader(&b).ReadAll()
	if want := [][]string{{"symbol", "company_name", "sectorAB C D", "iv30", "ok", "none"},
		{"EVAB C D", "Evil CorpAB C D", "TechAB C D", "41.5", "true", ""}}; err != nil || !slices.EqualFunc(recs, want, slices.Equal) {
		t.Fatalf("%v\n%q\nwant %q", err, recs, want)
	}

	b.Reset()
	if err := FormatTable.Write(&b, scanExport(out)); err != nil {
		t.Fatal(err)
	}
	noControls(t, "table", b.String())
	if !strings.Contains(b.String(), "EVAB C  Evil CorpAB C") {
		t.Fatalf("table:\n%s", b.String())
	}

	b.Reset()
	if err := FormatJSON.Write(&b, scanExport(out)); err != nil {
		t.Fatal(err)
	}
	noControls(t, "JSON", b.String())
	var doc scanJSON
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if r := doc[0]; r["symbol"] != "EV"+hostile || r["company_name"] != "Evil \u0085Corp"+hostile || r["sector"+hostile] != "Tech"+hostile {
		t.Fatalf("JSON changed the values: %q", doc[0])
	}
}
