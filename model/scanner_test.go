package model

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/model/scanner"
	"chainwatch/scan"
	"chainwatch/ui"
)

// The scanner modal's tests run the App over the in-process sandbox and
// press keys as a trader would (see scanDriver in scanner_helpers_test.go).

// TestScannerRowsAddRemoveMove: ctrl+o adds a row under the selected one
// up to the service's 50 and then says no; ctrl+x removes the selected
// row and empties the last one instead; pgup and pgdown (alt+arrows too)
// move between rows; what is typed lands in the selected row.
func TestScannerRowsAddRemoveMove(t *testing.T) {
	a, d := scannerApp(t, Config{}, 120, 40)
	d.openScanner()
	s := a.scan
	d.typeText("iv30 > 40")
	d.keys("ctrl+o")
	d.typeText("iv30")
	if len(s.State().Rows) != 2 || s.State().Sel != 1 || s.State().Rows[0].Formula != "iv30 > 40" || s.State().Rows[1].Formula != "iv30" {
		t.Fatalf("after typing two rows: sel %d, %+v", s.State().Sel, s.State().Rows)
	}
	d.keys("pgup")
	if s.State().Sel != 0 {
		t.Fatalf("pgup: sel %d", s.State().Sel)
	}
	d.typeText(" and hv30 < 90") // into row 1, the selected one
	d.keys("pgdown")
	if s.State().Sel != 1 || s.State().Rows[0].Formula != "iv30 > 40 and hv30 < 90" || s.State().Rows[1].Formula != "iv30" {
		t.Fatalf("pgdown after typing in row 1: sel %d, %+v", s.State().Sel, s.State().Rows)
	}
	d.keys("alt+up")
	if s.State().Sel != 0 {
		t.Fatalf("alt+up: sel %d", s.State().Sel)
	}
	d.keys("alt+down", "pgdown") // past the last row it stays there
	if s.State().Sel != 1 {
		t.Fatalf("alt+down, pgdown: sel %d", s.State().Sel)
	}

	// A row added under row 1 goes between the two.
	d.keys("pgup", "ctrl+o")
	d.typeText("hv30")
	if got := formulas(s); !slices.Equal(got, []string{"iv30 > 40 and hv30 < 90", "hv30", "iv30"}) || s.State().Sel != 1 {
		t.Fatalf("insert under row 1: sel %d, %q", s.State().Sel, got)
	}

	// Up to 50, then refused with a message and nothing added.
	for i := 0; i < 60 && len(s.State().Rows) < api.MaxScanFields; i++ {
		d.keys("ctrl+o")
	}
	if len(s.State().Rows) != api.MaxScanFields {
		t.Fatalf("%d rows after adding", len(s.State().Rows))
	}
	d.keys("ctrl+o")
	if len(s.State().Rows) != api.MaxScanFields || !s.State().MsgBad || !strings.Contains(d.screen(), "a scan has at most 50 fields") {
		t.Fatalf("row 51: %d rows, message %q", len(s.State().Rows), s.State().Msg)
	}

	// ctrl+x removes the selected row, and the one under it takes its
	// place: the last blank one added, then "iv30" is selected.
	if s.State().Sel != api.MaxScanFields-2 || s.State().Rows[s.State().Sel+1].Formula != "iv30" {
		t.Fatalf("after adding: sel %d", s.State().Sel)
	}
	d.keys("ctrl+x")
	if len(s.State().Rows) != api.MaxScanFields-1 || s.State().Rows[s.State().Sel].Formula != "iv30" {
		t.Fatalf("ctrl+x: %d rows, sel %d is %q", len(s.State().Rows), s.State().Sel, s.State().Rows[s.State().Sel].Formula)
	}
	// Then the blank rows above it, one by one.
	for i := 0; i < 60 && len(s.State().Rows) > 3; i++ {
		d.keys("pgup", "ctrl+x")
	}
	if got := formulas(s); !slices.Equal(got, []string{"iv30 > 40 and hv30 < 90", "hv30", "iv30"}) {
		t.Fatalf("after removing the blank rows: sel %d, %q", s.State().Sel, got)
	}
	if s.State().Sel != 2 {
		t.Fatalf("sel %d", s.State().Sel)
	}
	d.keys("pgup", "ctrl+x") // row 2, "hv30"
	if got := formulas(s); !slices.Equal(got, []string{"iv30 > 40 and hv30 < 90", "iv30"}) || s.State().Sel != 1 {
		t.Fatalf("removing row 2: sel %d, %q", s.State().Sel, got)
	}
	d.keys("ctrl+x", "ctrl+x")
	if len(s.State().Rows) != 1 || s.State().Rows[0].Formula != "" || !s.State().Rows[0].Include || s.State().Rows[0].Sort != api.SortNone {
		t.Fatalf("the last row must be emptied, not removed: %+v", s.State().Rows)
	}
	d.typeText("iv_rank")
	if s.State().Rows[0].Formula != "iv_rank" {
		t.Fatalf("typing into the emptied row: %+v", s.State().Rows)
	}
}

func formulas(s *scanner.Model) []string {
	out := make([]string, len(s.State().Rows))
	for i, r := range s.State().Rows {
		out[i] = r.Formula
	}
	return out
}

// TestScannerBlankRowsLeftOut: blank rows are not sent, and each field of
// the scan still knows its row.
func TestScannerBlankRowsLeftOut(t *testing.T) {
	a, d := scannerApp(t, Config{}, 120, 40)
	d.openScanner()
	s := a.scan
	d.typeText("iv30 > 40")
	d.keys("ctrl+o", "ctrl+o")
	d.typeText("  ") // blanks are blank
	d.keys("ctrl+o")
	d.typeText("iv30")
	d.keys("tab", "tab", "tab", "right") // Sort: none → desc
	st := s.State()
	sc, rows := st.Scan, st.FieldRows
	want := []api.ScanFieldParam{{Formula: "iv30 > 40", Sort: api.SortNone}, {Formula: "iv30", Sort: api.SortDesc}}
	if !reflect.DeepEqual(sc.Fields, want) {
		t.Fatalf("fields %+v, want %+v", sc.Fields, want)
	}
	if !slices.Equal(rows, []int{0, 3}) {
		t.Fatalf("the fields' rows are not rows 1 and 4")
	}
	if got := sc.Columns(); !slices.Equal(got, []string{"iv30 > 40", "iv30"}) {
		t.Fatalf("columns %q", got)
	}
}

// TestScannerFilterNoColumn: the example run from the modal, its
// filter iv30 > 40 left in the results as a typed row is, shows iv30
// and no column of "yes" under the filter's name.
func TestScannerFilterNoColumn(t *testing.T) {
	a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
	d.openScanner()
	goldenRows(t, d)
	if !a.scan.State().Rows[0].Include {
		t.Fatal("the filter's row is not in the results: the test proves nothing")
	}
	d.keys("ctrl+r")
	st := a.scan.State()
	if st.Screen != scanner.Results || st.Last == nil || st.Last.Rows() == 0 || !slices.Equal(st.Last.Columns, []string{"iv30"}) {
		t.Fatalf("state %d, %q, columns %v", st.Screen, st.Msg, st.Last)
	}
	lines := strings.Split(d.screen(), "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Symbol") && strings.Contains(l, "Company") })
	if head < 0 || strings.Contains(lines[head], "iv30 >") || !strings.Contains(lines[head], "iv30") {
		t.Fatalf("the results' header:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines[head+1:] {
		if strings.Contains(l, " yes ") {
			t.Fatalf("a cell reads yes: %q", l)
		}
	}
}

// TestScannerVerdicts: each row's verdict in the rows table, the line
// under the form in words, the hint while a field name is being typed
// and the completions offered for it.
func TestScannerVerdicts(t *testing.T) {
	a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
	d.openScanner()
	s := a.scan
	d.typeText("iv30 > 40")
	if sc := d.screen(); !strings.Contains(sc, "✓ filter") || !strings.Contains(sc, "✓ a filter: only symbols where it holds are listed") {
		t.Fatalf("a filter:\n%s", sc)
	}
	d.keys("ctrl+o")
	d.typeText("iv3")
	sc := d.screen()
	for _, want := range []string{"✗ unknown field iv3", "… ctrl+e completes the field name", "iv30 ", "30-day at-the-money implied volatility", "iv30_change "} {
		if !strings.Contains(sc, want) {
			t.Errorf("typing iv3: no %q in\n%s", want, sc)
		}
	}
	comp := s.State().Completions
	if len(comp) == 0 || len(comp) > ui.MaxCompletions || comp[0].Name != "iv30" {
		t.Fatalf("completions of iv3: %+v", comp)
	}
	for _, c := range comp {
		if !strings.HasPrefix(c.Name, "iv3") || c.Description == "" {
			t.Errorf("completion %+v", c)
		}
	}
	if sg := s.Suggestions("iv_r"); !slices.Contains(sg, "iv_rank") {
		t.Errorf("suggestions of iv_r: %q", sg)
	}
	if sg := s.Suggestions("iv30 > hv3"); len(sg) == 0 || sg[0] != "iv30 > hv30" {
		t.Errorf("suggestions complete the last word only: %q", sg)
	}

	d.keys("ctrl+e") // accept the completion
	sc = d.screen()
	if s.State().Rows[1].Formula != "iv30" || !strings.Contains(sc, "✓ value") || !strings.Contains(sc, "✓ a value column") {
		t.Fatalf("ctrl+e: formula %q\n%s", s.State().Rows[1].Formula, sc)
	}

	// A capitalised field: the verdict says names are case sensitive.
	d.keys("ctrl+o")
	d.typeText("IV30 > 40")
	sc = d.screen()
	if !strings.Contains(sc, "✗ unknown field IV30") || !strings.Contains(sc, "names are case sensitive: did you mean iv30?") {
		t.Fatalf("IV30:\n%s", sc)
	}
	if c := s.State().Checks[2]; !c.Bad {
		t.Fatalf("IV30 is %+v", c)
	}
	// A syntax error and an empty row.
	d.keys("ctrl+o")
	d.typeText("iv30 >")
	if c := s.State().Checks[3]; !c.Bad || !strings.Contains(d.screen(), "✗ ") {
		t.Fatalf("iv30 >: %+v", c)
	}
	d.keys("ctrl+o")
	if c := s.State().Checks[4]; c.Bad || c.Text != "" || !strings.Contains(d.screen(), "type a field name for completion") {
		t.Fatalf("an empty row: %+v", c)
	}
}

// TestScannerCost: the price of a run in the title and on the all-results
// line, live and delayed, before and after ctrl+t.
func TestScannerCost(t *testing.T) {
	for _, tc := range []struct {
		mode     api.Mode
		top, all int
	}{{api.Live, 30, 150}, {api.Delayed, 50, 250}} {
		t.Run(string(tc.mode), func(t *testing.T) {
			a, d := scannerApp(t, Config{Mode: tc.mode, NoColor: true}, 160, 40)
			d.openScanner()
			d.typeText("iv30 > 40")
			m := string(tc.mode)
			top := strings.Join([]string{m, "top 20", strconv.Itoa(tc.top) + " points"}, " · ")
			off := "All results: off · the top 20 cost " + strconv.Itoa(tc.top) + " points " + m + " · ctrl+t for every match (" + strconv.Itoa(tc.all) + " points)"
			if sc := d.screen(); !strings.Contains(sc, top) || !strings.Contains(sc, off) {
				t.Fatalf("want %q and %q in\n%s", top, off, sc)
			}
			d.keys("ctrl+t")
			all := strings.Join([]string{m, "all results", strconv.Itoa(tc.all) + " points"}, " · ")
			on := "All results: on · " + strconv.Itoa(tc.all) + " points " + m + ", asked before it runs (top 20: " + strconv.Itoa(tc.top) + ")"
			if sc := d.screen(); !a.scan.State().All || !strings.Contains(sc, all) || !strings.Contains(sc, on) {
				t.Fatalf("ctrl+t: want %q and %q in\n%s", all, on, sc)
			}
			d.keys("ctrl+t")
			if sc := d.screen(); a.scan.State().All || !strings.Contains(sc, top) {
				t.Fatalf("ctrl+t again:\n%s", sc)
			}
		})
	}
}

// TestScannerAllResultsAsksFirst: the all-results run waits for a yes;
// no spends nothing, yes spends 150 points and shows the rows.
func TestScannerAllResultsAsksFirst(t *testing.T) {
	a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
	d.openScanner()
	s := a.scan
	before := pointsUsed(t, a.sh.Client)
	d.typeText("iv30 > 40")
	d.keys("ctrl+t", "ctrl+r")
	sc := d.screen()
	if s.State().Screen != scanner.Confirm || !strings.Contains(sc, "Run for all results?") || !strings.Contains(sc, "Run · 150 points") ||
		!strings.Contains(sc, "Every matching symbol costs 150 points live; the top 20 costs 30.") {
		t.Fatalf("no confirmation:\n%s", sc)
	}
	d.keys("enter") // the default is Cancel
	if s.State().Screen != scanner.Edit || countMsgs[scanner.DoneMsg](d) != 0 || s.State().Running || !strings.Contains(d.screen(), "not run: nothing spent") {
		t.Fatalf("no: state %d, %d runs", s.State().Screen, countMsgs[scanner.DoneMsg](d))
	}
	if got := pointsUsed(t, a.sh.Client); got != before {
		t.Fatalf("no spent %d points", got-before)
	}
	d.keys("ctrl+r", "esc") // esc leaves the question unanswered
	if s.State().Screen != scanner.Edit || countMsgs[scanner.DoneMsg](d) != 0 {
		t.Fatalf("esc: state %d, %d runs", s.State().Screen, countMsgs[scanner.DoneMsg](d))
	}

	d.keys("ctrl+r", "left", "enter") // ← to Run, then enter
	if countMsgs[scanner.DoneMsg](d) != 1 || s.State().Screen != scanner.Results || s.State().Last == nil || s.State().Last.Rows() <= 20 {
		t.Fatalf("yes: %d runs, state %d", countMsgs[scanner.DoneMsg](d), s.State().Screen)
	}
	if got := pointsUsed(t, a.sh.Client); got-before != 150 {
		t.Fatalf("yes spent %d points, want 150", got-before)
	}
	if spent := a.feeds().Stats(a.sh.Now()).SessionSpent; spent != 150 {
		t.Fatalf("the screen counted %d points", spent)
	}
	if s.State().Rows[0].Formula != "iv30 > 40" || !s.State().All {
		t.Fatalf("rows after the run: %+v", s.State().Rows)
	}
}

// TestScannerErrors: each failure is one clear line in the modal, on the
// row it is about, and the rows stay exactly as typed.
func TestScannerErrors(t *testing.T) {
	typed := func(d *scanDriver) {
		d.typeText("iv30 > 40")
		d.keys("ctrl+o", "ctrl+o")
		d.typeText("iv31 > 4")
		d.keys("tab")
		d.typeText("Bad one")
	}
	want := []scanner.Row{
		{Formula: "iv30 > 40", Include: true, Sort: api.SortNone},
		{Include: true, Sort: api.SortNone},
		{Formula: "iv31 > 4", Name: "Bad one", Include: true, Sort: api.SortNone},
	}
	kept := func(t *testing.T, s *scanner.Model) {
		t.Helper()
		if got := s.State().Rows; !reflect.DeepEqual(got, want) {
			t.Fatalf("rows changed:\n got %+v\nwant %+v", got, want)
		}
	}

	t.Run("refused before sending", func(t *testing.T) {
		a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
		d.openScanner()
		before := pointsUsed(t, a.sh.Client)
		typed(d)
		d.keys("pgup", "pgup", "ctrl+r")
		s := a.scan
		if countMsgs[scanner.DoneMsg](d) != 0 || s.State().Running || !s.State().MsgBad || s.State().Sel != 2 {
			t.Fatalf("sent anyway: %d runs, sel %d, message %q", countMsgs[scanner.DoneMsg](d), s.State().Sel, s.State().Msg)
		}
		if !strings.Contains(d.screen(), "formula 3: unknown field iv31") {
			t.Fatalf("no message on row 3:\n%s", d.screen())
		}
		if got := pointsUsed(t, a.sh.Client); got != before {
			t.Fatalf("spent %d", got-before)
		}
		kept(t, s)
	})

	t.Run("the service's 400", func(t *testing.T) {
		a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
		// The field list does not arrive: the formulas go unchecked to
		// the service, which refuses the third row (the second field).
		d.drop = func(m tea.Msg) bool {
			meta, ok := m.(scanner.MetaMsg)
			return dropPolls(m) || ok && meta.Err == nil
		}
		d.keys("S")
		d.send(scanner.MetaMsg{Err: errors.New("api: GET scanner: 503 unavailable")})
		typed(d)
		s := a.scan
		if sc := d.screen(); s.State().Checked || !strings.Contains(sc, "not checked: the field list is unavailable") {
			t.Fatalf("the field list is there:\n%s", sc)
		}
		d.keys("pgup", "pgup", "ctrl+r")
		if countMsgs[scanner.DoneMsg](d) != 1 || s.State().Running {
			t.Fatalf("%d runs", countMsgs[scanner.DoneMsg](d))
		}
		sc := d.screen()
		if s.State().Sel != 2 || !s.State().MsgBad || !strings.Contains(s.State().Msg, "the service refused formula 3") || !strings.Contains(s.State().Msg, "unknown field iv31") {
			t.Fatalf("the 400 is not on row 3: sel %d, %q\n%s", s.State().Sel, s.State().Msg, sc)
		}
		if c := s.State().Checks[2]; !c.Bad || !strings.Contains(sc, "✗ the service refused formula 3") {
			t.Fatalf("row 3's verdict %+v\n%s", c, sc)
		}
		kept(t, s)
		// Changing the formula clears the service's word about it.
		d.typeText("0")
		if c := s.State().Checks[2]; c.Bad {
			t.Fatalf("after an edit: %+v", c)
		}
	})

	t.Run("nothing to run", func(t *testing.T) {
		a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
		d.openScanner()
		d.keys("ctrl+o")
		d.typeText("   ")
		d.keys("ctrl+r")
		if countMsgs[scanner.DoneMsg](d) != 0 || !strings.Contains(d.screen(), "nothing to run: type a formula") {
			t.Fatalf("an empty scan:\n%s", d.screen())
		}
		if len(a.scan.State().Rows) != 2 || a.scan.State().Rows[1].Formula != "   " {
			t.Fatalf("rows %+v", a.scan.State().Rows)
		}
	})

	t.Run("no symbol matches", func(t *testing.T) {
		a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
		d.openScanner()
		d.typeText("iv30 > 100000")
		d.keys("ctrl+r")
		s := a.scan
		if countMsgs[scanner.DoneMsg](d) != 1 || s.State().Screen != scanner.Edit || s.State().MsgBad || !strings.Contains(d.screen(), "no symbol matches") {
			t.Fatalf("state %d, %q", s.State().Screen, s.State().Msg)
		}
		if s.State().Rows[0].Formula != "iv30 > 100000" || s.State().Last == nil || s.State().Last.Rows() != 0 {
			t.Fatalf("rows %+v", s.State().Rows)
		}
	})

	t.Run("429", func(t *testing.T) {
		srv := tooManyServer(t, "3")
		a, d := scannerOn(t, srv.URL)
		typed(d)
		d.keys("ctrl+r")
		s := a.scan
		if countMsgs[scanner.DoneMsg](d) != 1 || !s.State().MsgBad || s.State().Msg != "too many requests: try again in 3s" {
			t.Fatalf("429: %q", s.State().Msg)
		}
		if !strings.Contains(d.screen(), "too many requests: try again in 3s") {
			t.Fatalf("not on screen:\n%s", d.screen())
		}
		kept(t, s)
	})

	t.Run("network", func(t *testing.T) {
		srv := httptest.NewServer(nil) // 127.0.0.1
		url := srv.URL
		srv.Close()
		a, d := scannerOn(t, url)
		typed(d)
		d.keys("ctrl+r")
		s := a.scan
		if countMsgs[scanner.DoneMsg](d) != 1 || !s.State().MsgBad || !strings.HasPrefix(s.State().Msg, "cannot reach the service: ") {
			t.Fatalf("network: %q", s.State().Msg)
		}
		if !strings.Contains(d.screen(), "cannot reach the service") {
			t.Fatalf("not on screen:\n%s", d.screen())
		}
		kept(t, s)
	})
}

// scannerOn is the App with its scanner open on a service at base that
// is not the sandbox (one that fails): no login, no retries.
func scannerOn(t *testing.T, base string) (*App, *scanDriver) {
	t.Helper()
	c, err := api.NewClient(api.WithBaseURL(base), api.WithClock(func() time.Time { return testNow }),
		api.WithRetryPolicy(api.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	a := New(offline(t, Config{Client: c, Source: "PRODUCTION", Symbol: "SPY", Now: func() time.Time { return testNow }, Theme: "dark", NoColor: true}))
	d := newScanDriver(t, a)
	d.drop = dropPolls
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.keys("S")
	if a.scan.State().Checked || a.scan.State().MetaErr == nil {
		t.Fatalf("the field list came from a failing service: %v", a.scan.State().MetaErr)
	}
	return a, d
}

// TestScannerSavedScans: ctrl+l lists the config file's scans and the
// presets, enter loads one, ctrl+s saves the rows under a name (not a
// preset's), and ctrl+x deletes a saved scan after asking, never a preset.
func TestScannerSavedScans(t *testing.T) {
	mine := scan.Scan{Name: "Mine", Fields: []api.ScanFieldParam{
		{Formula: "iv_rank > 50", IncludeInResultset: api.Ptr(false), Sort: api.SortNone},
		{Formula: "iv_rank", DisplayName: "Rank", Sort: api.SortDesc},
	}}
	var saves []scan.Scan
	var deletes []string
	a, d := scannerApp(t, Config{
		NoColor:    true,
		Scans:      []scan.Scan{mine},
		SaveScan:   func(sc scan.Scan) error { saves = append(saves, sc); return nil },
		DeleteScan: func(name string) error { deletes = append(deletes, name); return nil },
	}, 120, 40)
	d.openScanner()
	s := a.scan

	d.keys("ctrl+l")
	sc := d.screen()
	if s.State().Screen != scanner.Saved || !strings.Contains(sc, "Saved scans") || !strings.Contains(sc, "Mine  ·  iv_rank > 50 · iv_rank ↓") {
		t.Fatalf("ctrl+l:\n%s", sc)
	}
	for _, p := range scan.Presets() {
		if !strings.Contains(sc, p.Name+"  ·  ") {
			t.Errorf("the preset %q is not listed", p.Name)
		}
	}
	d.keys("enter")
	if s.State().Screen != scanner.Edit || s.State().Name != "Mine" || !strings.Contains(d.screen(), "Scanner · Mine") {
		t.Fatalf("enter on Mine: state %d, name %q", s.State().Screen, s.State().Name)
	}
	if got := s.State().Scan; !reflect.DeepEqual(got.Fields, mine.Fields) {
		t.Fatalf("loaded %+v, want %+v", got.Fields, mine.Fields)
	}

	// A preset: the second entry of the list, the first preset.
	preset := scan.Presets()[0]
	d.keys("ctrl+l", "down", "enter")
	if got := s.State().Scan; s.State().Name != preset.Name || !reflect.DeepEqual(got.Fields, preset.Fields) {
		t.Fatalf("loaded %q %+v, want %+v", s.State().Name, got.Fields, preset.Fields)
	}

	// Saved under a preset's name: refused, said so, nothing written.
	d.keys("ctrl+o")
	d.typeText("price")
	d.keys("ctrl+s")
	if s.State().Screen != scanner.SaveAs {
		t.Fatalf("ctrl+s: state %d", s.State().Screen)
	}
	d.typeText(strings.ToLower(preset.Name))
	d.keys("enter")
	if s.State().Screen != scanner.SaveAs || len(saves) != 0 || !strings.Contains(d.screen(), "is a preset's name; choose another") {
		t.Fatalf("a preset's name: state %d, %d saves\n%s", s.State().Screen, len(saves), d.screen())
	}
	d.keys("ctrl+u") // the input's "delete to the start"
	d.typeText("My high IV")
	d.keys("enter")
	want := preset.Clone()
	want.Name, want.Description, want.Preset = "My high IV", "", false
	want.Fields = append(want.Fields[:1], append([]api.ScanFieldParam{{Formula: "price", Sort: api.SortNone}}, want.Fields[1:]...)...)
	if len(saves) != 1 || !reflect.DeepEqual(saves[0], want) {
		t.Fatalf("saved %+v\nwant %+v", saves, want)
	}
	if s.State().Screen != scanner.Edit || s.State().Name != "My high IV" || !strings.Contains(d.screen(), "saved as My high IV") {
		t.Fatalf("after saving: state %d, name %q", s.State().Screen, s.State().Name)
	}

	// Deleting: a preset is refused; a saved scan is asked about first.
	d.keys("ctrl+l") // Mine, My high IV, then the presets
	d.keys("down", "down", "ctrl+x")
	if s.State().Screen != scanner.Saved || len(deletes) != 0 || !strings.Contains(d.screen(), preset.Name+" is a preset") {
		t.Fatalf("ctrl+x on a preset: state %d, deletes %q\n%s", s.State().Screen, deletes, d.screen())
	}
	d.keys("up", "up", "ctrl+x")
	if s.State().Screen != scanner.DeleteConfirm || !strings.Contains(d.screen(), "Delete the saved scan Mine?") {
		t.Fatalf("ctrl+x on Mine:\n%s", d.screen())
	}
	d.keys("enter") // the default is Keep
	if len(deletes) != 0 || s.State().Screen != scanner.Saved || !strings.Contains(d.screen(), "kept Mine") {
		t.Fatalf("keep: %q", deletes)
	}
	d.keys("ctrl+x", "left", "enter")
	if !slices.Equal(deletes, []string{"Mine"}) || s.State().Screen != scanner.Saved || strings.Contains(d.screen(), "Mine  ·") {
		t.Fatalf("delete: %q\n%s", deletes, d.screen())
	}
	if _, ok := scan.Find(s.State().Saved, "Mine"); ok {
		t.Fatal("Mine is still listed")
	}
	d.keys("esc")
	if s.State().Screen != scanner.Edit || len(s.State().Rows) != len(want.Fields) {
		t.Fatalf("esc: state %d, %d rows", s.State().Screen, len(s.State().Rows))
	}
}

// TestScannerResults: ctrl+r runs the rows on the sandbox and shows the
// rows; enter on one closes the modal and the watch screen switches to
// it; the modal opens again on the results, esc goes back to the rows as
// typed, and ctrl+g shows the results again without a request.
func TestScannerResults(t *testing.T) {
	a, d := scannerApp(t, Config{NoColor: true}, 120, 40)
	d.openScanner()
	s := a.scan
	d.typeText("iv30 > 40")
	d.keys("ctrl+o")
	d.typeText("iv30")
	d.keys("tab")
	d.typeText("IV")
	d.keys("tab", "tab", "right") // Sort: desc
	typed := s.State().Rows
	before := pointsUsed(t, a.sh.Client)

	d.keys("ctrl+r")
	if countMsgs[scanner.DoneMsg](d) != 1 || s.State().Screen != scanner.Results || s.State().Last == nil || s.State().Last.Rows() == 0 {
		t.Fatalf("ctrl+r: state %d, msg %q", s.State().Screen, s.State().Msg)
	}
	if got := pointsUsed(t, a.sh.Client); got-before != 30 {
		t.Fatalf("spent %d, want 30", got-before)
	}
	out := s.State().Last.Result.Output
	for i := 1; i < len(out); i++ {
		if out[i-1].Values["IV"].(float64) < out[i].Values["IV"].(float64) {
			t.Fatalf("not sorted by IV desc: %v then %v", out[i-1].Values, out[i].Values)
		}
	}
	sc := d.screen()
	for _, want := range []string{out[0].Symbol, out[1].Symbol, "IV", fmt.Sprintf("%d of %d rows", len(out), len(out)), "30 points"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("no %q in the results:\n%s", want, sc)
		}
	}

	pick := out[1].Symbol
	d.keys("down", "enter")
	if s.IsOpen() || a.Query().Symbol != pick {
		t.Fatalf("enter on %s: open %v, symbol %s", pick, s.IsOpen(), a.Query().Symbol)
	}
	if head := strings.SplitN(d.screen(), "\n", 2)[0]; !strings.HasPrefix(strings.TrimSpace(head), pick+" ") {
		t.Fatalf("the header is not %s's: %q", pick, head)
	}

	d.keys("S")
	if !s.IsOpen() || s.State().Screen != scanner.Results || !strings.Contains(d.screen(), out[0].Symbol) {
		t.Fatalf("reopened: state %d", s.State().Screen)
	}
	d.keys("esc")
	if s.State().Screen != scanner.Edit || !reflect.DeepEqual(s.State().Rows, typed) {
		t.Fatalf("esc: state %d, rows %+v, want %+v", s.State().Screen, s.State().Rows, typed)
	}
	spent := pointsUsed(t, a.sh.Client)
	d.keys("ctrl+g")
	if s.State().Screen != scanner.Results || countMsgs[scanner.DoneMsg](d) != 1 || !strings.Contains(d.screen(), out[0].Symbol) {
		t.Fatalf("ctrl+g: state %d, %d runs", s.State().Screen, countMsgs[scanner.DoneMsg](d))
	}
	if got := pointsUsed(t, a.sh.Client); got != spent {
		t.Fatalf("ctrl+g spent %d", got-spent)
	}
}

// TestScannerWatchScreenKeepsPolling: with the modal open, the monitor's
// timers still fetch the chain, whose quote the header above the modal
// shows; the tape, under the modal, is not polled until it closes.
func TestScannerWatchScreenKeepsPolling(t *testing.T) {
	// The scanner on the sandbox, the watch screen's feeds on a scripted
	// monitor: the test answers them while the modal is open.
	c := &clock{t: testNow}
	sh := startMarketSandbox(t)
	r := newRig(t, Config{Client: sh.Client, Now: c.Now, Source: "SANDBOX", Symbol: "SPY", Theme: "dark"})
	a := r.a
	d := newScanDriver(t, a)
	d.drop = dropPolls
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.openScanner()
	d.typeText("iv30 > 40")
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	if a.ws().Chain().LastOK().IsZero() {
		t.Fatal("under the modal: no chain")
	}
	// The chain's timer fires under the modal; the tape has none.
	due, tapeDue := r.due(feed.FeedChain), r.due(feed.FeedTape)
	if due.IsZero() || !tapeDue.IsZero() || a.polled(feed.FeedTape) {
		t.Fatalf("under the modal: chain due %v, tape due %v (want none)", due, tapeDue)
	}
	c.t = due
	r.fire()
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 1), Resp: okResp(4)})
	if !a.ws().Chain().LastOK().Equal(c.t) {
		t.Fatalf("the timed fetch under the modal: chain at %v, want %v", a.ws().Chain().LastOK(), c.t)
	}
	if !a.scan.IsOpen() || a.scan.State().Screen != scanner.Edit || a.scan.State().Rows[0].Formula != "iv30 > 40" || (a.scan.State().Focused != "formula") {
		t.Fatalf("the modal changed: open %v, rows %+v", a.scan.IsOpen(), a.scan.State().Rows)
	}
	if head := strings.SplitN(d.screen(), "\n", 2)[0]; !strings.Contains(head, "SPY") || strings.Contains(head, "loading") {
		t.Fatalf("the header under the modal: %q", head)
	}
	d.typeText(" and hv30 > 10")
	if a.scan.State().Rows[0].Formula != "iv30 > 40 and hv30 > 10" {
		t.Fatalf("typing after the replies: %q", a.scan.State().Rows[0].Formula)
	}
}
