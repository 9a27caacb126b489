package scanner

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/scan"
	"chainwatch/theme"
)

// srOutcome is a finished scan of six symbols in the service's order,
// with a number column (iv30), a whole-number column with big values
// (volume), a bool, a string, and nulls in some of them.
func srOutcome() scan.Outcome {
	rows := []api.ScanRow{
		{Symbol: "TSLA", CompanyName: "Tesla, Inc.", Values: map[string]any{"IV30": 61.25, "option_volume": 2_345_678.0, "earnings_soon": true, "sector": "Consumer Cyclical"}},
		{Symbol: "NVDA", CompanyName: "NVIDIA Corporation", Values: map[string]any{"IV30": 9.5, "option_volume": 1_234_567.0, "earnings_soon": false, "sector": "Technology"}},
		{Symbol: "AMD", CompanyName: "Advanced Micro Devices, Inc.", Values: map[string]any{"IV30": 48.0, "option_volume": 987.0, "earnings_soon": nil, "sector": "Technology"}},
		{Symbol: "AAPL", CompanyName: "Apple Inc.", Values: map[string]any{"IV30": nil, "option_volume": 45_000.0, "earnings_soon": true, "sector": "Technology"}},
		{Symbol: "XOM", CompanyName: "Exxon Mobil \x1b[31mCorporation", Values: map[string]any{"IV30": 100.75, "option_volume": 12.0, "earnings_soon": false}},
		{Symbol: "KO", CompanyName: "The Coca-Cola Company", Values: map[string]any{"IV30": 12.0, "option_volume": 0.0, "earnings_soon": false, "sector": "Consumer Defensive"}},
	}
	sc := scan.Scan{Name: "test", Fields: []api.ScanFieldParam{
		{Formula: "iv30", DisplayName: "IV30", Sort: api.SortDesc},
		{Formula: "option_volume"},
		{Formula: "days_to_earnings < 10", DisplayName: "earnings_soon"},
		{Formula: "sector"},
	}}
	return scan.Outcome{Scan: sc, Mode: api.Live, Result: &api.ScanResult{Output: rows}, Columns: sc.Columns(),
		At: time.Date(2025, 11, 14, 15, 0, 0, 0, time.UTC)}
}

func srNew(t *testing.T, out scan.Outcome, w, h int, noColor bool) *scanResults {
	t.Helper()
	sh := &common.Common{Styles: theme.New(theme.Dark(), noColor), Keys: keymap.Default()}
	r := newScanResults(sh, out)
	r.SetSize(w, h)
	return r
}

// srPress sends keys: a single rune, or a named key ("enter", "esc").
func srPress(r *scanResults, keys ...string) string {
	picked := ""
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		case "pgdown":
			msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
		default:
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		p, _ := r.Update(msg)
		if p != "" {
			picked = p
		}
	}
	return picked
}

// srSymbols are the visible rows' symbols, top to bottom.
func srSymbols(r *scanResults) []string {
	var out []string
	for _, row := range r.tbl.GetVisibleRows() {
		out = append(out, row.Data["symbol"].(scan.Cell).Text)
	}
	return out
}

func srCheck(t *testing.T, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w || strings.Contains(l, "\n") {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func TestScanResultsColumnsAndValues(t *testing.T) {
	r := srNew(t, srOutcome(), 120, 12, true)
	lines := r.View()
	srCheck(t, lines, 120, 12)
	plain := ansi.Strip(strings.Join(lines, "\n"))
	head := ansi.Strip(lines[0])
	for _, want := range []string{"Symbol", "Company", "IV30", "option_volume", "earnings_soon", "sector"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q: %q", want, head)
		}
	}
	if strings.Index(head, "Symbol") > strings.Index(head, "Company") || strings.Index(head, "Company") > strings.Index(head, "IV30") {
		t.Errorf("columns out of order: %q", head)
	}
	for _, want := range []string{"61.25", "9.50", "100.75", "2,345,678", "45,000", " 987", "yes", "no", "Consumer Cyclical", "—"} {
		if !strings.Contains(plain, want) {
			t.Errorf("table lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "48.00") == false || strings.Contains(plain, "2,345,678.00") {
		t.Errorf("a column with a fraction shows 2 decimals for all; a whole column none:\n%s", plain)
	}
	if strings.Contains(strings.Join(lines, ""), "\x1b[31m") {
		t.Errorf("an escape from the service reached the table")
	}
	// The scan's own order first.
	if got := strings.Join(srSymbols(r), " "); got != "TSLA NVDA AMD AAPL XOM KO" || r.SortInfo() != "scan order" {
		t.Errorf("initial order %q (%s), want the service's", got, r.SortInfo())
	}
	if r.Len() != 6 || r.Visible() != 6 {
		t.Errorf("Len/Visible = %d/%d", r.Len(), r.Visible())
	}
}

func TestSrNumberText(t *testing.T) {
	for _, c := range []struct {
		v    float64
		d    int
		want string
	}{
		{0, 0, "0"}, {999, 0, "999"}, {1000, 0, "1,000"}, {1234567, 0, "1,234,567"}, {-1234567, 0, "-1,234,567"},
		{12.5, 2, "12.50"}, {1234.5, 2, "1,234.50"}, {-0.001, 2, "0.00"}, {0.0123, 4, "0.0123"}, {-45.678, 2, "-45.68"},
	} {
		if got := scan.NumberText(c.v, c.d); got != c.want {
			t.Errorf("srNumberText(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}

// Sorting picks a column with > and <, starts numbers biggest first,
// sorts them as numbers (9.50 below 48), flips with o, and keeps nulls
// last both ways.
func TestScanResultsSort(t *testing.T) {
	r := srNew(t, srOutcome(), 120, 12, false)
	srPress(r, ">") // Symbol
	if got := strings.Join(srSymbols(r), " "); got != "AAPL AMD KO NVDA TSLA XOM" || r.SortInfo() != "sorted by Symbol ↑" {
		t.Errorf("by symbol: %q %s", got, r.SortInfo())
	}
	srPress(r, ">", ">") // IV30
	if got := strings.Join(srSymbols(r), " "); got != "XOM TSLA AMD KO NVDA AAPL" || r.SortInfo() != "sorted by IV30 ↓" {
		t.Errorf("by iv30: %q %s", got, r.SortInfo())
	}
	srPress(r, "o")
	if got := strings.Join(srSymbols(r), " "); got != "NVDA KO AMD TSLA XOM AAPL" || r.SortInfo() != "sorted by IV30 ↑" {
		t.Errorf("by iv30 ascending: %q %s (null last, 9.5 before 12 as numbers)", got, r.SortInfo())
	}
	srPress(r, ">") // option_volume, whole numbers: 0 12 987 45,000 ...
	if got := strings.Join(srSymbols(r), " "); got != "TSLA NVDA AAPL AMD XOM KO" {
		t.Errorf("by volume: %q", got)
	}
	// < back past the first column to the scan's order, and round.
	srPress(r, "<", "<", "<", "<")
	if got := strings.Join(srSymbols(r), " "); got != "TSLA NVDA AMD AAPL XOM KO" || r.SortInfo() != "scan order" {
		t.Errorf("back to scan order: %q %s", got, r.SortInfo())
	}
	srPress(r, "o")
	if got := strings.Join(srSymbols(r), " "); got != "KO XOM AAPL AMD NVDA TSLA" || r.SortInfo() != "scan order reversed" {
		t.Errorf("reversed: %q %s", got, r.SortInfo())
	}
	srPress(r, "<") // wraps to the last column: sector, text
	if !strings.HasPrefix(r.SortInfo(), "sorted by sector ↑") {
		t.Errorf("< from scan order should wrap to the last column: %s", r.SortInfo())
	}
	if got := srSymbols(r); got[len(got)-1] != "XOM" {
		t.Errorf("a null sector sorts last: %v", got)
	}
}

// The highlight stays on its row through a sort, and enter picks it.
func TestScanResultsPickFollowsSort(t *testing.T) {
	r := srNew(t, srOutcome(), 100, 12, false)
	if got := srPress(r, "down", "down", "enter"); got != "AMD" {
		t.Fatalf("picked %q, want AMD", got)
	}
	srPress(r, ">", ">", ">") // IV30 ↓: XOM TSLA AMD ...
	if got := srPress(r, "enter"); got != "AMD" {
		t.Fatalf("after a sort picked %q, want the same row AMD", got)
	}
	if got := srPress(r, "down", "enter"); got != "KO" {
		t.Fatalf("picked %q, want KO", got)
	}
}

// A filter narrows the rows over symbol, company and text columns only;
// enter while typing ends the filter without picking; then enter picks
// from the filtered, sorted rows. Esc drops a typed filter, and esc on
// an applied one clears it before anything leaves the results.
func TestScanResultsFilter(t *testing.T) {
	r := srNew(t, srOutcome(), 100, 12, false)
	srPress(r, "/", "t", "e", "c", "h")
	if !r.Filtering() {
		t.Fatalf("typing a filter is filtering")
	}
	if got := strings.Join(srSymbols(r), " "); got != "NVDA AMD AAPL" || r.Visible() != 3 || r.Len() != 6 {
		t.Fatalf("filter tech: %q (%d of %d)", got, r.Visible(), r.Len())
	}
	foot := ansi.Strip(r.View()[11])
	if !strings.HasPrefix(foot, "/tech") {
		t.Errorf("footer does not show the filter typed: %q", foot)
	}
	if got := srPress(r, "enter"); got != "" {
		t.Fatalf("enter while typing picked %q", got)
	}
	if !r.Filtering() || r.tbl.GetIsFilterInputFocused() {
		t.Fatalf("enter keeps the filter applied and stops typing")
	}
	srPress(r, ">", ">", ">") // IV30 ↓ among the three: AMD NVDA AAPL(null)
	if got := strings.Join(srSymbols(r), " "); got != "AMD NVDA AAPL" {
		t.Fatalf("sorted filter: %q", got)
	}
	// The highlight was on NVDA (the filter starts at the top) and
	// followed it through the sort.
	if got := srPress(r, "enter"); got != "NVDA" {
		t.Fatalf("picked %q after sort and filter, want NVDA", got)
	}
	if got := srPress(r, "up", "enter"); got != "AMD" {
		t.Fatalf("picked %q after sort and filter, want AMD", got)
	}
	// Numbers are not matched: "12" is KO's iv30 and XOM's volume.
	srPress(r, "esc")
	if r.Filtering() || r.Visible() != 6 {
		t.Fatalf("esc on an applied filter clears it (%d rows)", r.Visible())
	}
	srPress(r, "/", "1", "2")
	if r.Visible() != 0 {
		t.Errorf("a number column was matched: %v", srSymbols(r))
	}
	if p := ansi.Strip(strings.Join(r.View(), "\n")); !strings.Contains(p, "no row matches the filter") {
		t.Errorf("an empty filter result says nothing:\n%s", p)
	}
	srPress(r, "esc")
	if r.Filtering() || r.Visible() != 6 {
		t.Fatalf("esc while typing drops the filter")
	}
	// Company names match, case-insensitively.
	srPress(r, "/", "C", "O", "L", "A", "enter")
	if got := strings.Join(srSymbols(r), " "); got != "KO" {
		t.Errorf("company filter: %q", got)
	}
}

func TestScanResultsNoRows(t *testing.T) {
	out := srOutcome()
	out.Result = &api.ScanResult{}
	r := srNew(t, out, 80, 8, false)
	lines := r.View()
	srCheck(t, lines, 80, 8)
	if p := ansi.Strip(strings.Join(lines, "\n")); !strings.Contains(p, "no symbol matched the scan") || !strings.Contains(p, "Symbol") {
		t.Errorf("empty results:\n%s", p)
	}
	if got := srPress(r, "enter", ">", "o", "down"); got != "" || r.Len() != 0 {
		t.Errorf("empty results picked %q", got)
	}
	out.Result = nil
	srCheck(t, srNew(t, out, 40, 5, true).View(), 40, 5)
}

// Many rows page; many columns scroll sideways with Symbol kept; every
// size is exact.
func TestScanResultsSizes(t *testing.T) {
	out := srOutcome()
	for i := 0; i < 30; i++ {
		out.Result.Output = append(out.Result.Output, api.ScanRow{Symbol: "S" + string(rune('A'+i%26)) + string(rune('A'+i/26)),
			CompanyName: strings.Repeat("Long Company Name ", 3), Values: map[string]any{"IV30": float64(i) + 0.5}})
	}
	for _, w := range []int{1, 20, 40, 60, 80, 100, 120, 200} {
		for _, h := range []int{0, 1, 2, 3, 4, 10, 30} {
			for _, nc := range []bool{true, false} {
				r := srNew(t, out, w, h, nc)
				srCheck(t, r.View(), w, h)
				srPress(r, "pgdown", "right", "/", "s")
				srCheck(t, r.View(), w, h)
			}
		}
	}
	r := srNew(t, out, 60, 10, true)
	foot := ansi.Strip(r.View()[9])
	if !strings.Contains(foot, "page 1/6") || !strings.Contains(foot, "←→ columns") {
		t.Errorf("footer lacks the page or the sideways hint: %q", foot)
	}
	srPress(r, "right", "right")
	body := ansi.Strip(strings.Join(r.View(), "\n"))
	if !strings.Contains(body, "Symbol") || !strings.Contains(body, "TSLA") {
		t.Errorf("scrolling sideways lost the symbol column:\n%s", body)
	}
	// A long company name is cut with an ellipsis, not wrapped, where the
	// table does not fit; where it does, it is whole.
	r = srNew(t, out, 80, 40, true)
	if body := ansi.Strip(strings.Join(r.View(), "\n")); !strings.Contains(body, "Long Company Name Long Comp…") {
		t.Errorf("long company not cut with … at 80:\n%s", body)
	}
	r = srNew(t, out, 120, 40, true)
	if body := ansi.Strip(strings.Join(r.View(), "\n")); !strings.Contains(body, strings.Repeat("Long Company Name ", 3)) {
		t.Errorf("long company cut at 120:\n%s", body)
	}
}

// Without colour the highlighted row still shows (reverse).
func TestScanResultsNoColour(t *testing.T) {
	r := srNew(t, srOutcome(), 100, 10, true)
	out := strings.Join(r.View(), "\n")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Fatalf("NO_COLOR table carries colour: %q", out)
	}
	if !strings.Contains(r.View()[2], "\x1b[7m") && !strings.Contains(r.View()[2], ";7m") {
		t.Errorf("highlighted row not reversed: %q", r.View()[2])
	}
}
