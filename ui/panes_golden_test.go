package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/keymap"
	"chainwatch/theme"
)

// Fixtures and checks shared by the pane tests (header, tape, calendar,
// status, layout). Named px* so they cannot clash with the ladder's.

var (
	pxColor   = theme.New(theme.Dark(), false)
	pxNoColor = theme.New(theme.Dark(), true)
)

// pxSizes are the terminal sizes every renderer is checked at.
var pxSizes = [][2]int{{80, 24}, {100, 30}, {119, 40}, {120, 40}, {160, 48}, {200, 60}}

// pxCheck fails unless lines are exactly h lines of exactly w cells.
func pxCheck(t *testing.T, what string, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d", what, len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%s: line %d is %d cells, want %d: %q", what, i, got, w, ansi.Strip(l))
		}
		if strings.Contains(l, "\n") {
			t.Fatalf("%s: line %d has a newline", what, i)
		}
	}
}

// pxPlain is the lines without escapes, joined.
func pxPlain(lines []string) string { return ansi.Strip(strings.Join(lines, "\n")) }

// pxLineWith is the first plain line containing s, or "".
func pxLineWith(lines []string, s string) string {
	for _, l := range lines {
		if p := ansi.Strip(l); strings.Contains(p, s) {
			return p
		}
	}
	return ""
}

func pxHeader() *HeaderData {
	return &HeaderData{
		Symbol: "SPY", Source: "SANDBOX", Mode: api.Live,
		Last: 452.37, PrevClose: 450.10, Bid: 452.36, BidSize: 12, Ask: 452.38, AskSize: 8,
		Open: 451.20, High: 453.10, Low: 450.80, Volume: 54_321_987,
		IV30: 22.08, IV30Change: 0.4,
		ImpliedBid: 452.35, ImpliedAsk: 452.39, ImpliedMid: 452.37, Indicator: api.Green,
		AsOf: api.NewTimeOfDay(11, 30, 5, 0), Age: 2 * time.Second,
	}
}

// pxTrades is a tape with every trade_at, both types, a block, a canceled
// trade and its cancel message, newest first.
func pxTrades() *TapeView {
	ats := []api.TradeAt{api.AboveAsk, api.OnAsk, api.MidMarket, api.OnBid, api.BelowBid, api.CrossedMarket, api.NoMarket}
	v := &TapeView{Held: 1234, BlockSize: 100, Filter: "all"}
	for i := 0; i < 10; i++ {
		tr := TapeTrade{
			Time: api.NewTimeOfDay(11, 30, 50-i*3, 125), Type: api.Call, Strike: 450 + float64(i)*2.5,
			Expiry: api.NewDate(2025, 11, 21), Root: "SPY", Price: 1.24 + float64(i)/10, Size: int64(5 + i*7),
			Bid: 1.20, Ask: 1.30, At: ats[i%len(ats)], Exchange: "CBOE", SeqNo: int64(900 - i),
		}
		if i%2 == 1 {
			tr.Type = api.Put
		}
		switch i {
		case 2:
			tr.Size = 250 // a block
		case 3:
			tr.Cancel = api.TradeCancel
			tr.Price, tr.Strike = 1.10, 455
		case 5:
			tr.Cancel = api.TradeCanceled
			tr.Price, tr.Strike = 1.10, 455
		case 7:
			tr.Price, tr.Bid, tr.Ask, tr.Size = NaN, NaN, NaN, -1 // nulls
		}
		v.Trades = append(v.Trades, tr)
	}
	return v
}

func pxCalendar() *CalendarView {
	return &CalendarView{
		Today: api.NewDate(2025, 11, 18),
		Earnings: []Earning{
			{Date: api.NewDate(2025, 10, 28), Time: api.BeforeOpen, Year: 2025, Quarter: 3, Estimate: 1.10, Actual: 1.21},
			{Date: api.NewDate(2026, 1, 27), Time: api.AfterClose, Year: 2025, Quarter: 4, Estimate: 1.23, Actual: NaN},
			{Date: api.NewDate(2025, 7, 29), Time: api.AfterClose, Year: 2025, Quarter: 2, Estimate: 1.00, Actual: 0.95},
		},
		Dividends: []Dividend{
			{ExDate: api.NewDate(2025, 9, 12), PayDate: api.NewDate(2025, 9, 30), Amount: 0.40},
			{ExDate: api.NewDate(2025, 12, 12), PayDate: api.NewDate(2025, 12, 30), Amount: 0.42},
		},
	}
}

func pxStatus() *StatusData {
	return &StatusData{
		Spent: 124, HourlyRate: 310, BudgetPerHour: 2400, RateKnown: true, PointsLeft: 3_912_345,
		Next: 2500 * time.Millisecond, NextFeed: "chain",
		Err: "429 rate limited: per-second limit", ErrAge: 12 * time.Second,
		Hint: "? help  q quit",
	}
}

func pxDetails() *DetailsData {
	c := &Contract{
		OSI: "SPY   251121C00450000", Bid: 1.23, Ask: 1.25, Mid: 1.24, Last: 1.24, PrevClose: 1.10,
		BidSize: 45, AskSize: 30, Volume: 1234, OI: 34567, Trades: 12, Low: 1.05, High: 1.30,
		IV: 0.2208, Delta: 0.512, Gamma: 0.0123, Theta: -0.045, Vega: 0.123, Rho: NaN,
	}
	return &DetailsData{Contract: c, Strike: 450, Type: api.Call, Expiry: api.NewDate(2025, 11, 21), DTE: 3, Root: "SPY"}
}

// pxFill is a placeholder pane: its rect filled with a letter, styled like
// a real pane so Compose carries escapes through.
func pxFill(r Rect, ch string, st *theme.Styles) []string {
	if r.Empty() {
		return nil
	}
	l := st.Span(theme.ToneText, theme.ShadeITM).Wrap(strings.Repeat(ch, r.W))
	out := make([]string, r.H)
	for i := range out {
		out[i] = l
	}
	return out
}

func pxPanes(l Layout, st *theme.Styles) []Pane {
	return []Pane{
		{l.Header, pxFill(l.Header, "H", st)},
		{l.Tabs, pxFill(l.Tabs, "T", st)},
		{l.Strip, pxFill(l.Strip, "V", st)},
		{l.Ladder, pxFill(l.Ladder, "L", st)},
		{l.Details, pxFill(l.Details, "D", st)},
		{l.Tape, pxFill(l.Tape, "S", st)},
		{l.Calendar, pxFill(l.Calendar, "C", st)},
		{l.Status, pxFill(l.Status, "=", st)},
	}
}

func TestGoldenHeaderBadges(t *testing.T) {
	for _, ind := range []api.Indicator{api.Green, api.Yellow, api.Red, ""} {
		name := string(ind)
		if name == "" {
			name = "unknown"
		}
		t.Run(name, func(t *testing.T) {
			h := pxHeader()
			h.Indicator = ind
			if ind == "" {
				h.ImpliedBid, h.ImpliedAsk, h.ImpliedMid = NaN, NaN, NaN
			}
			lines := Header(h, 120, pxColor)
			pxCheck(t, "header", lines, 120, 2)
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
		})
	}
}

func TestGoldenHeaderStale(t *testing.T) {
	h := pxHeader()
	h.Stale, h.Age = true, 42*time.Second
	h.Source, h.Mode = "PRODUCTION", api.Delayed
	lines := Header(h, 100, pxColor)
	pxCheck(t, "header", lines, 100, 2)
	if !strings.Contains(ansi.Strip(lines[0]), "STALE 42s") {
		t.Fatalf("stale header does not say so: %q", ansi.Strip(lines[0]))
	}
	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
}

func TestGoldenHeaderNoColor(t *testing.T) {
	h := pxHeader()
	h.Indicator = api.Red
	lines := Header(h, 120, pxNoColor)
	pxCheck(t, "header", lines, 120, 2)
	out := strings.Join(lines, "\n")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Fatalf("NO_COLOR header carries colour: %q", out)
	}
	if !strings.Contains(ansi.Strip(out), "● RED") {
		t.Fatalf("without colour the badge must say RED: %q", ansi.Strip(out))
	}
	golden.RequireEqual(t, []byte(out))
}

func TestGoldenTape(t *testing.T) {
	v := pxTrades()
	v.Focused = true
	lines := Tape(v, 70, 14, pxColor)
	pxCheck(t, "tape", lines, 70, 14)
	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
}

func TestGoldenTapeNoColor(t *testing.T) {
	lines := Tape(pxTrades(), 52, 12, pxNoColor)
	pxCheck(t, "tape", lines, 52, 12)
	out := strings.Join(lines, "\n")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Fatalf("NO_COLOR tape carries colour")
	}
	// Without colour the side, the type, blocks and cancels still read.
	plain := ansi.Strip(out)
	for _, want := range []string{" AA ", " BB ", " C ", " P ", "◆ ", "x ", "CXL"} {
		if !strings.Contains(plain, want) {
			t.Errorf("NO_COLOR tape lacks %q:\n%s", want, plain)
		}
	}
	golden.RequireEqual(t, []byte(out))
}

func TestGoldenCalendar(t *testing.T) {
	for _, w := range []int{34, 60} {
		t.Run(strconv.Itoa(w), func(t *testing.T) {
			lines := Calendar(pxCalendar(), w, 9, pxColor)
			pxCheck(t, "calendar", lines, w, 9)
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
		})
	}
}

func TestGoldenStatusWithError(t *testing.T) {
	out := Status(pxStatus(), 120, pxColor)
	pxCheck(t, "status", []string{out}, 120, 1)
	if !strings.Contains(ansi.Strip(out), "429 rate limited") {
		t.Fatalf("status lacks the error: %q", ansi.Strip(out))
	}
	golden.RequireEqual(t, []byte(out))
}

func TestGoldenDetails(t *testing.T) {
	for _, sz := range [][2]int{{60, 8}, {100, 2}} {
		t.Run(strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
			lines := Details(pxDetails(), sz[0], sz[1], pxColor)
			pxCheck(t, "details", lines, sz[0], sz[1])
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
		})
	}
}

// A narrow terminal composed from placeholder panes: the layout's shape.
func TestGoldenNarrowLayout(t *testing.T) {
	l := NewLayout(80, 24, true, true)
	out := Compose(80, 24, pxPanes(l, pxColor), pxColor)
	pxCheck(t, "frame", strings.Split(out, "\n"), 80, 24)
	golden.RequireEqual(t, []byte(out))
}

func TestGoldenWideLayout(t *testing.T) {
	l := NewLayout(130, 30, true, true)
	out := Compose(130, 30, pxPanes(l, pxNoColor), pxNoColor)
	pxCheck(t, "frame", strings.Split(out, "\n"), 130, 30)
	golden.RequireEqual(t, []byte(out))
}

// The golden uses bindings of its own so that remapping a key does not
// break it; the real key map is checked for completeness below.
func TestGoldenHelp(t *testing.T) {
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	groups := [][]key.Binding{
		{b("up", "up"), b("down", "down"), b("pgup", "page up"), b("pgdown", "page down")},
		{b("[", "prev expiry"), b("]", "next expiry"), b("tab", "next pane"), b("c", "columns")},
		{b("/", "symbol"), b("d", "date"), key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "hidden"), key.WithDisabled())},
		{b("?", "help"), b("q", "quit")},
	}
	out := HelpOver("", groups, 80, 24, pxColor)
	pxCheck(t, "help", strings.Split(out, "\n"), 80, 24)
	if strings.Contains(ansi.Strip(out), "hidden") {
		t.Errorf("a disabled binding is listed")
	}
	golden.RequireEqual(t, []byte(out))
}

func TestHelpListsEveryKey(t *testing.T) {
	groups := keymap.Default().FullHelp()
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		plain := ansi.Strip(HelpOver("", groups, sz[0], sz[1], pxColor))
		for _, g := range groups {
			for _, b := range g {
				if h := b.Help(); !strings.Contains(plain, h.Desc) || !strings.Contains(plain, h.Key) {
					t.Errorf("help at %dx%d lacks %q %q", sz[0], sz[1], h.Key, h.Desc)
				}
			}
		}
	}
}

func TestHelpExactAtAnySize(t *testing.T) {
	for _, sz := range append(pxSizes, [2]int{40, 10}) {
		out := HelpOver("", keymap.Default().FullHelp(), sz[0], sz[1], pxColor)
		pxCheck(t, "help", strings.Split(out, "\n"), sz[0], sz[1])
	}
}

func TestGoldenFirstRun(t *testing.T) {
	cases := map[string]*FirstRun{
		"sandbox":    {Source: "SANDBOX", BaseURL: "http://127.0.0.1:41234", Mode: api.Live},
		"production": {Source: "PRODUCTION", BaseURL: "https://api.example.com", Mode: api.Delayed},
		"historical": {Source: "PRODUCTION", BaseURL: "https://api.example.com", Mode: api.Live, Historical: true, Date: api.NewDate(2025, 11, 14)},
	}
	wants := map[string][]string{
		"sandbox":    {"SANDBOX", "simulated market", "Live data", "chainwatch login", "CHAINWATCH_CLIENT_ID", "CHAINWATCH_CLIENT_SECRET", "Any key"},
		"production": {"https://api.example.com", "delayed", "Any key"},
		"historical": {"https://api.example.com", "historical", "2025-11-14"},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			lines := FirstRunBanner(f, 80, pxColor)
			if len(lines) < 3 || len(lines) > 5 {
				t.Fatalf("banner has %d lines, want 3-5", len(lines))
			}
			pxCheck(t, "banner", lines, 80, len(lines))
			plain := strings.Join(strings.Fields(pxPlain(lines)), " ")
			for _, w := range wants[name] {
				if !strings.Contains(plain, w) {
					t.Errorf("banner lacks %q: %s", w, plain)
				}
			}
			if name != "sandbox" && strings.Contains(plain, "simulated") {
				t.Errorf("a production banner must not claim a simulation: %s", plain)
			}
			golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
		})
	}
}

func TestFirstRunBannerWidths(t *testing.T) {
	for _, sz := range pxSizes {
		lines := FirstRunBanner(&FirstRun{Source: "SANDBOX", Mode: api.Delayed}, sz[0], pxColor)
		if len(lines) < 3 || len(lines) > 5 {
			t.Fatalf("%d wide: %d lines", sz[0], len(lines))
		}
		pxCheck(t, "banner", lines, sz[0], len(lines))
	}
}

func TestPrompt(t *testing.T) {
	out := Prompt("Symbol", "SP", []string{"SPY", "SPX", "SPXW"}, 1, "unknown symbol XYZ", 80, pxNoColor)
	pxCheck(t, "prompt", []string{out}, 80, 1)
	plain := ansi.Strip(out)
	for _, w := range []string{"Symbol: SP", "SPY", "[SPX]", "SPXW", "unknown symbol XYZ"} {
		if !strings.Contains(plain, w) {
			t.Errorf("prompt lacks %q: %q", w, plain)
		}
	}
	// The error outranks the suggestions on a short line.
	many := []string{"AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF", "GGGGGG", "HHHHHH", "IIIIII", "JJJJJJ"}
	out = Prompt("Symbol", "A", many, 0, "no such symbol", 80, pxColor)
	pxCheck(t, "prompt", []string{out}, 80, 1)
	if !strings.Contains(ansi.Strip(out), "no such symbol") {
		t.Errorf("error lost to suggestions: %q", ansi.Strip(out))
	}
}

func TestDetails(t *testing.T) {
	for _, sz := range [][2]int{{52, 8}, {72, 8}, {80, 2}, {119, 2}, {160, 2}, {60, 30}, {30, 1}} {
		lines := Details(pxDetails(), sz[0], sz[1], pxColor)
		pxCheck(t, "details", lines, sz[0], sz[1])
		lines = Details(nil, sz[0], sz[1], pxColor)
		pxCheck(t, "details nil", lines, sz[0], sz[1])
	}
	lines := Details(pxDetails(), 72, 8, pxColor)
	plain := pxPlain(lines)
	for _, w := range []string{"SPY   251121C00450000", "CALL 450", "2025-11-21", "1.23 x 45", "1.25 x 30", "22.1%", "0.512", "0.0123", "-0.045", "34567"} {
		if !strings.Contains(plain, w) {
			t.Errorf("details lack %q:\n%s", w, plain)
		}
	}
	if l := pxLineWith(lines, "Rho"); !strings.Contains(l, "Rho    -") {
		t.Errorf("a null rho should be a dash: %q", l)
	}
	d := pxDetails()
	d.Type = api.Put
	if p := pxPlain(Details(d, 80, 2, pxColor)); !strings.Contains(p, "PUT 450") {
		t.Errorf("a put is not called one: %s", p)
	}
	if p := pxPlain(Details(nil, 60, 8, pxColor)); !strings.Contains(p, "no contract selected") {
		t.Errorf("nil contract: %s", p)
	}
}

// TestHelpBorderIsWhole: the help box keeps its four corners at every
// size it has room for: at 80x24 the key map's box ran past the foot of
// the frame and lost its bottom border. Where even the compact box does
// not fit (80x16), its last line says there is more.
func TestHelpBorderIsWhole(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {120, 40}, {80, 16}, {40, 10}} {
		plain := ansi.Strip(HelpOver("", keymap.Default().FullHelp(), sz[0], sz[1], pxColor))
		for _, corner := range []string{"╭", "╮", "╰", "╯"} {
			if strings.Count(plain, corner) != 1 {
				t.Errorf("%dx%d: %d %s corners:\n%s", sz[0], sz[1], strings.Count(plain, corner), corner, plain)
			}
		}
		if sz == [2]int{80, 16} && !strings.Contains(plain, "more than fits") {
			t.Errorf("80x16: a cut box does not say so:\n%s", plain)
		}
	}
}
