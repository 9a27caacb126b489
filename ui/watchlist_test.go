package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/theme"
)

// pxWatchlist is a watchlist of four: a moving index fund, a stock with
// earnings within the week, an implied-only price, a symbol the service
// does not know and one still loading.
func pxWatchlist() *WatchlistView {
	today := api.NewDate(2026, 11, 20)
	spy := WatchRow{Symbol: "SPY", Loaded: true, Price: 704.52, Change: 2.31, ChangePct: 0.33, Bid: 704.51, Ask: 704.53,
		BidSize: 12, AskSize: 9, Open: 701.0, High: 705.2, Low: 700.8, PrevClose: 702.21, Volume: 54_321_000,
		IV30: 16.4, IV30Change: -0.32, ImpliedBid: 704.50, ImpliedAsk: 704.54, Indicator: api.Green,
		ExDividend: today.AddDays(29), Event: today.AddDays(29),
		Spark: []float64{702, 703, 702.5, 704, 704.52}, MovedAt: 100, Rose: true}
	aapl := WatchRow{Symbol: "AAPL", Loaded: true, Price: 281.10, Change: -3.9, ChangePct: -1.37, Bid: 281.05, Ask: 281.15,
		BidSize: 3, AskSize: 4, Open: 285, High: 285.5, Low: 280.9, PrevClose: 285.0, Volume: 41_000_000,
		IV30: 31.2, IV30Change: 1.05, ImpliedBid: 281.0, ImpliedAsk: 281.2, Indicator: api.Yellow,
		Earnings: today.AddDays(5), EarningsTime: api.AfterClose, Event: today.AddDays(5), EventIsEarnings: true,
		Spark: []float64{285, 284, 282, 281.1}}
	iwm := WatchRow{Symbol: "IWM", Loaded: true, Price: 253.4, Implied: true, Change: NaN, ChangePct: NaN, Bid: NaN, Ask: NaN,
		BidSize: -1, AskSize: -1, Open: NaN, High: NaN, Low: NaN, PrevClose: NaN, Volume: -1, IV30: 22.0, IV30Change: NaN,
		ImpliedBid: 253.3, ImpliedAsk: 253.5, Indicator: api.Red}
	return &WatchlistView{
		Rows:   []WatchRow{spy, aapl, iwm, {Symbol: "XYZ", Missing: true}, {Symbol: "BRK.B"}},
		Cursor: 1, Sort: WColChangePct, Desc: true, Source: "SANDBOX", Mode: api.Live, Date: today,
		AsOf: api.NewTimeOfDay(11, 30, 5, 0), Age: 3 * time.Second, Cost: 4, Today: today,
		Now: 200, Flash: 1000, Focused: true,
		Notes: []Note{{Text: "config.toml:8: watchlist: symbol \"S P Y\": a blank is not part of a symbol; skipped", Tone: ToneWarn}},
	}
}

func TestWatchlistExactSizes(t *testing.T) {
	variants := []func(v *WatchlistView){
		func(v *WatchlistView) {},
		func(v *WatchlistView) { v.Manual, v.Notes = true, nil },
		func(v *WatchlistView) { v.Rows, v.Message = nil, "the watchlist is empty: a adds a symbol" },
		func(v *WatchlistView) { v.Stale, v.Age = true, 3*time.Hour },
		func(v *WatchlistView) { v.Historical, v.Date = true, api.NewDate(2026, 11, 18) },
		func(v *WatchlistView) { v.Cursor = 3; v.Notes = append(v.Notes, v.Notes[0], v.Notes[0], v.Notes[0]) },
		// Symbols a config file may hold: accented, double-width, long
		// (a symbol cell was cut by bytes and the row came up short).
		func(v *WatchlistView) {
			v.Rows[0].Symbol, v.Rows[1].Symbol, v.Rows[2].Symbol = "ÅÉÎ", "株式会社株式会社", "VERYLONGSYMBOLNAME"
			v.Rows[3].Symbol = "ÅÉÎ"
		},
	}
	for _, sz := range append(pxSizes, [2]int{40, 6}, [2]int{1, 1}, [2]int{20, 3}) {
		for i, mod := range variants {
			for _, st := range []*theme.Styles{pxColor, pxNoColor} {
				v := pxWatchlist()
				mod(v)
				pxCheck(t, "watchlist variant "+string(rune('0'+i)), Watchlist(v, sz[0], sz[1], st), sz[0], sz[1])
			}
		}
	}
}

func TestWatchlistSaysEverything(t *testing.T) {
	v := pxWatchlist()
	lines := Watchlist(v, 160, 12, pxNoColor)
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = ansi.Strip(l)
	}
	want := [][]string{
		{"WATCHLIST", "5 symbols", "by CHG%▼", "LIVE", "[SANDBOX]", "as of 11:30:05", "3s ago", "4 pts a refresh"},
		{"SYMBOL", "LAST", "CHG", "▼CHG%", "BID", "ASK", "VOLUME", "IV30", "IVCHG", "IMPLIED", "NEXT EVENT", "TODAY"},
		{"SPY", "704.52", "+2.31", "+0.33%", "704.51", "704.53", "54.3M", "16.40%", "-0.32", "● GREEN", "div Dec19", "▁"},
		{"AAPL", "281.10", "-3.90", "-1.37%", "31.20%", "+1.05", "● YELLOW", "earn Nov25"},
		{"IWM", "~253.40", "● RED"},
		{"XYZ", "no such symbol"},
		{"BRK.B", "…"},
	}
	for i, words := range want {
		for _, w := range words {
			if !strings.Contains(plain[i], w) {
				t.Errorf("line %d lacks %q: %q", i, w, plain[i])
			}
		}
	}
	// The selected symbol's details, then the note.
	for _, w := range []string{"AAPL", "bid 281.05 x 3", "ask 281.15 x 4", "earn Wed Nov 25 AMC (in 5d)", "implied 281.00 / 281.20", "O 285.00", "prev 285.00"} {
		if !strings.Contains(plain[10], w) {
			t.Errorf("details lack %q: %q", w, plain[10])
		}
	}
	if !strings.Contains(plain[11], "config.toml:8: watchlist") {
		t.Errorf("note %q", plain[11])
	}
	// The cursor's row is shaded (reversed without colour); SPY's price,
	// which just moved, flashes.
	if !strings.Contains(lines[3], pxNoColor.Span(theme.ToneBold, theme.ShadeCursor).Open+"AAPL") {
		t.Errorf("the cursor's row is not shaded: %q", lines[3])
	}
	color := Watchlist(pxWatchlist(), 160, 12, pxColor)
	if !strings.Contains(color[2], pxColor.Span(theme.ToneUp, theme.ShadeFlash).Open+"704.52") {
		t.Errorf("a rise does not flash up: %q", color[2])
	}
	if !strings.Contains(color[3], pxColor.Span(theme.ToneWarn, theme.ShadeCursor).Open+"earn Nov25") {
		t.Errorf("earnings within the week are not marked: %q", color[3])
	}
}

// TestWatchlistNarrow: at 80 columns the price, its move, the badge, IV30
// and the next event stay; bid and ask give way (the details line has
// them) and so does the sparkline.
func TestWatchlistNarrow(t *testing.T) {
	v := pxWatchlist()
	lines := Watchlist(v, 80, 12, pxNoColor)
	head, spy := ansi.Strip(lines[1]), ansi.Strip(lines[2])
	for _, w := range []string{"SYMBOL", "LAST", "CHG", "CHG%", "IV30", "IMPLIED", "NEXT EVENT", "VOLUME"} {
		if !strings.Contains(head, w) {
			t.Errorf("80 columns lack %q: %q", w, head)
		}
	}
	if strings.Contains(head, "BID") || strings.Contains(head, "TODAY") {
		t.Errorf("80 columns: %q", head)
	}
	if !strings.Contains(spy, "● GREEN") || !strings.Contains(spy, "div Dec19") {
		t.Errorf("SPY at 80: %q", spy)
	}
	if !strings.Contains(ansi.Strip(lines[10]), "bid 281.05 x 3") {
		t.Errorf("details at 80: %q", ansi.Strip(lines[10]))
	}
}

func TestWatchlistHit(t *testing.T) {
	v := pxWatchlist()
	Watchlist(v, 160, 12, pxNoColor)
	x := v.layout.x[WColIV30]
	if row, col, head := WatchlistHit(v, x, 1); !head || col != WColIV30 || row != -1 {
		t.Errorf("heading: %d %d %v", row, col, head)
	}
	if row, _, head := WatchlistHit(v, 2, 4); head || row != 2 {
		t.Errorf("row: %d %v", row, head)
	}
	if row, _, _ := WatchlistHit(v, 2, 9); row != -1 {
		t.Errorf("below the rows: %d", row)
	}
	// The details and note lines are not rows, however many rows there are.
	v.Rows = append(v.Rows, v.Rows...)
	v.Rows = append(v.Rows, v.Rows...)
	Watchlist(v, 160, 12, pxNoColor)
	if row, _, _ := WatchlistHit(v, 2, 10); row != -1 {
		t.Errorf("the details line hit row %d", row)
	}
	if row, _, _ := WatchlistHit(v, 2, 9); row != v.Offset+7 {
		t.Errorf("the last row drawn: %d", row)
	}
}

func TestSpark(t *testing.T) {
	for _, tc := range []struct {
		prices []float64
		w      int
		want   string
	}{
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8}, 8, "▁▂▃▄▅▆▇█"},
		{[]float64{5, 5, 5}, 5, "  ▄▄▄"},
		{[]float64{1, 9, 1, 9, 1}, 3, "▁█▁"},
		{[]float64{1, NaN, 2}, 3, "▁ █"},
	} {
		if got := string(appendSpark(nil, tc.prices, tc.w)); got != tc.want {
			t.Errorf("%v in %d: %q, want %q", tc.prices, tc.w, got, tc.want)
		}
	}
}

// The watchlist's title and the watch screen's header draw one mode badge
// (modeBadge): the same state reads the same on both, and a date that is
// not known is left out on both.
func TestWatchlistModeBadgeIsTheHeaders(t *testing.T) {
	cases := []struct {
		mode         api.Mode
		hist, closed bool
		date         api.Date
		want         string
	}{
		{api.Live, false, false, api.NewDate(2026, 11, 20), "LIVE  [SANDBOX]"},
		{api.Delayed, false, false, api.NewDate(2026, 11, 20), "DELAYED 15m  [SANDBOX]"},
		{api.Live, false, true, api.NewDate(2026, 11, 20), "CLOSED Fri Nov 20  [SANDBOX]"},
		{api.Live, false, true, 0, "CLOSED  [SANDBOX]"},
		{api.Live, true, false, api.NewDate(2026, 11, 18), "HIST 2026-11-18  [SANDBOX]"},
		{api.Live, true, false, 0, "HIST  [SANDBOX]"},
	}
	for _, c := range cases {
		h := pxHeader()
		h.Mode, h.Historical, h.Closed, h.Date = c.mode, c.hist, c.closed, c.date
		v := pxWatchlist()
		v.Mode, v.Historical, v.Closed, v.Date = c.mode, c.hist, c.closed, c.date
		header := ansi.Strip(Header(h, 200, pxNoColor)[0])
		title := ansi.Strip(Watchlist(v, 200, 12, pxNoColor)[0])
		for name, line := range map[string]string{"header": header, "watchlist": title} {
			if !strings.Contains(line, " "+c.want) {
				t.Errorf("%s lacks %q: %q", name, c.want, line)
			}
		}
	}
}

// TestWatchlistVolumeOneForm: the VOLUME column reads in one form, its
// largest row's, at 160 and 80 columns ("980.1k" over "7.7M" read as the
// larger), and an index, which reports a volume of 0, shows "-".
func TestWatchlistVolumeOneForm(t *testing.T) {
	v := pxWatchlist()
	v.Rows[0].Volume, v.Rows[1].Volume = 980_123, 7_700_000
	v.Rows = append(v.Rows, WatchRow{Symbol: "SPX", Loaded: true, Price: 6995.4, Change: -10.74, ChangePct: -0.15, Bid: 6995.05,
		Ask: 6995.75, Open: NaN, High: NaN, Low: NaN, PrevClose: NaN, IV30: 15.1, IV30Change: 0.1, HV30: NaN, IVRank: NaN})
	for _, w := range []int{160, 80} {
		lines := Watchlist(v, w, 20, pxColor)
		col := v.layout.x[WColVolume]
		cw := v.layout.w[WColVolume]
		cell := func(sym string) string {
			for _, l := range lines {
				l = ansi.Strip(l)
				if f := strings.Fields(l); len(f) > 0 && f[0] == sym {
					return strings.TrimSpace(string([]rune(l)[col : col+cw]))
				}
			}
			return "?"
		}
		if spy, aapl := cell("SPY"), cell("AAPL"); spy != "0.9M" || aapl != "7.7M" {
			t.Errorf("%d cols: SPY %q AAPL %q, want 0.9M and 7.7M", w, spy, aapl)
		}
		if spx := cell("SPX"); spx != "-" {
			t.Errorf("%d cols: an index's volume %q, want -", w, spx)
		}
	}
}
