package chain

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/theme"
	"chainwatch/ui"
)

// testNow is the sandbox tests' clock: Friday 2026-11-20, 11:30 Eastern.
var testNow = modeltest.Now

// Key presses as the terminal sends them.
var (
	keyUp    = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown  = tea.KeyPressMsg{Code: tea.KeyDown}
	keyLeft  = tea.KeyPressMsg{Code: tea.KeyLeft}
	keyRight = tea.KeyPressMsg{Code: tea.KeyRight}
	keyHome  = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd   = tea.KeyPressMsg{Code: tea.KeyEnd}
)

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// loadedChain is a ladder of SPY with 5 expiries of 200 strikes (500 to
// 699); the spot is 600.38, so 600 is at the money.
func loadedChain(t *testing.T) *Model {
	t.Helper()
	c := New(modeltest.Common(testNow))
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	c.SetQuery(q)
	if !c.Apply(feed.ChainMsg{Query: q, Chain: modeltest.SynthChain(5, 200, 1), At: testNow}) {
		t.Fatal("full chain dropped")
	}
	return c
}

func selStrike(t *testing.T, c *Model) float64 {
	t.Helper()
	d, ok := c.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return d.Strike
}

func pressKey(t *testing.T, c *Model, k tea.KeyPressMsg, n int) (changed bool) {
	t.Helper()
	for range n {
		h, ch := c.handleKey(k)
		if !h {
			t.Fatalf("%s not handled", k)
		}
		changed = changed || ch
	}
	return changed
}

func TestChainFirstSnapshot(t *testing.T) {
	c := loadedChain(t)
	if c.Expiry() != modeltest.SynthDay || c.Loading() || c.LastOK() != testNow {
		t.Fatalf("expiry %s loading %v lastOK %v", c.Expiry(), c.Loading(), c.LastOK())
	}
	d, ok := c.Selected()
	if !ok || d.Strike != 600 || d.Type != api.Call || d.Root != "SPY" || d.DTE != 0 {
		t.Fatalf("selected %+v", d)
	}
	if got := c.SelectedOSI(); got != "SPY261120C00600000" {
		t.Errorf("OSI %q", got)
	}

	// On a later day the first expiry not yet expired is chosen.
	later := New(modeltest.Common(testNow.AddDate(0, 0, 2)))
	q := feed.Query{Symbol: "SPY", Gen: 3}
	later.SetQuery(q)
	later.Apply(feed.ChainMsg{Query: q, Chain: modeltest.SynthChain(5, 200, 1), At: testNow})
	if later.Expiry() != modeltest.SynthDay.AddDays(2) {
		t.Errorf("expiry %s, want the first with DTE >= 0", later.Expiry())
	}
}

func TestChainGenerationDropping(t *testing.T) {
	c := loadedChain(t)
	old := feed.Query{Symbol: "SPY", Gen: 1}
	if c.Apply(feed.ChainMsg{Query: feed.Query{Symbol: "QQQ", Gen: 0}, Chain: modeltest.SynthChain(1, 10, 9)}) {
		t.Error("a stale generation was applied")
	}
	if c.Apply(feed.ChainMsg{Query: old, Expiry: modeltest.SynthDay.AddDays(3), Chain: modeltest.SynthChain(4, 200, 2)}) {
		t.Error("a reply for an expiry not selected was applied")
	}
	if !c.Apply(feed.ChainMsg{Query: old, Expiry: modeltest.SynthDay, Chain: modeltest.SynthChain(1, 200, 2), At: testNow.Add(time.Second)}) {
		t.Error("the selected expiry's reply was dropped")
	}

	// An error keeps the data and is remembered with its time.
	boom := errors.New("503 service unavailable")
	at := testNow.Add(2 * time.Second)
	if !c.Apply(feed.ChainMsg{Query: old, Expiry: modeltest.SynthDay, Err: boom, At: at}) {
		t.Error("error reply dropped")
	}
	if fe := (*feed.FetchError)(nil); !errors.As(c.Err(), &fe) || fe.Err != boom || fe.At != at {
		t.Errorf("Err() = %v", c.Err())
	}
	if selStrike(t, c) != 600 || c.LastOK() != testNow.Add(time.Second) {
		t.Error("an error lost the data")
	}

	// A new query clears everything; the old generation's reply is dropped.
	c.SetQuery(feed.Query{Symbol: "QQQ", Gen: 2})
	if c.Apply(feed.ChainMsg{Query: old, Chain: modeltest.SynthChain(2, 10, 1)}) || c.Expiry() != 0 || !c.Loading() {
		t.Error("SetQuery did not reset, or the old reply landed")
	}
}

// The at-the-money window: 40 strikes by default, then all, 10, 20. Keys
// keep the cursor inside; a window change keeps the strike when it can.
func TestChainATMWindow(t *testing.T) {
	c := loadedChain(t)
	rows, cur := c.window()
	if len(rows) != 40 || rows[cur].Strike != 600 || rows[0].Strike != 580 {
		t.Fatalf("window %d rows from %v, cursor on %v", len(rows), rows[0].Strike, rows[cur].Strike)
	}
	pressKey(t, c, keyUp, 25)
	if got := selStrike(t, c); got != 580 {
		t.Fatalf("25 up from 600 in a 40-window: %v, want 580 (the window's top)", got)
	}
	pressKey(t, c, keyEnd, 1)
	if got := selStrike(t, c); got != 619 {
		t.Fatalf("bottom: %v", got)
	}
	pressKey(t, c, keyHome, 1)

	pressKey(t, c, runeKey('w'), 1) // all: 580 is still there
	if rows, _ := c.window(); len(rows) != 200 || selStrike(t, c) != 580 {
		t.Fatalf("all: %d rows, selected %v", len(rows), selStrike(t, c))
	}
	pressKey(t, c, runeKey('w'), 1) // 10: 595..604; 580 is gone, back to the money
	if rows, _ := c.window(); len(rows) != 10 || selStrike(t, c) != 600 {
		t.Fatalf("10: %d rows, selected %v", len(rows), selStrike(t, c))
	}
	pressKey(t, c, keyDown, 3)
	pressKey(t, c, runeKey('w'), 1) // 20: 590..609 holds 603
	if rows, _ := c.window(); len(rows) != 20 || selStrike(t, c) != 603 {
		t.Fatalf("20: %d rows, selected %v", len(rows), selStrike(t, c))
	}
	pressKey(t, c, keyDown, 50)
	if got := selStrike(t, c); got != 609 {
		t.Errorf("down past the window: %v", got)
	}
	c.Scroll(-3)
	if got := selStrike(t, c); got != 606 {
		t.Errorf("wheel: %v", got)
	}

	// The side keys pick call or put; the expiry keys go along the tabs
	// keeping the strike and side.
	pressKey(t, c, keyRight, 1)
	if d, _ := c.Selected(); d.Type != api.Put {
		t.Error("right did not pick the put")
	}
	pressKey(t, c, keyLeft, 1)
	pressKey(t, c, keyRight, 1)
	if changed := pressKey(t, c, runeKey(']'), 1); !changed || c.Expiry() != modeltest.SynthDay.AddDays(1) {
		t.Fatalf("next expiry: changed %v, %s", changed, c.Expiry())
	}
	if d, _ := c.Selected(); d.Strike != 606 || d.Type != api.Put {
		t.Errorf("after an expiry change: %v %s", d.Strike, d.Type)
	}
	pressKey(t, c, runeKey('['), 1)
	if changed := pressKey(t, c, runeKey('['), 1); changed || c.Expiry() != modeltest.SynthDay {
		t.Error("prev expiry at the first tab changed something")
	}
	if h, _ := c.handleKey(runeKey('z')); h {
		t.Error("an unbound key was handled")
	}
}

// The window follows the money: when the spot moves, the ATM cursor moves
// with it until the user picks a strike.
func TestChainFollowsTheMoney(t *testing.T) {
	c := loadedChain(t)
	s := modeltest.SynthChain(5, 200, 1)
	s.LastTradePrice = api.Some(611.9)
	c.Apply(feed.ChainMsg{Query: c.Query(), Chain: s, At: testNow})
	if got := selStrike(t, c); got != 612 {
		t.Errorf("ATM after the spot moved: %v", got)
	}
}

// The window stands still while the money stays in its middle half, so a
// tick across a strike moves the cursor and the spot line by a row, not
// every row; once the money nears an edge it centres on the money again.
func TestChainWindowStandsStill(t *testing.T) {
	c := loadedChain(t)
	if rows, _ := c.window(); rows[0].Strike != 580 { // as first drawn: 580 to 619
		t.Fatalf("first window from %v", rows[0].Strike)
	}
	for _, step := range []struct {
		spot      float64
		first, at float64 // the window's first strike, the cursor's
	}{
		{601.2, 580, 601}, // a tick up: same rows
		{598.6, 580, 599}, // and down
		{609.4, 580, 609}, // 29th of 40 rows: still in the middle half
		{610.4, 590, 610}, // the 31st: centred again
		{590.1, 570, 590},
		{500.2, 500, 500}, // the chain's first strike: the window stops at it
		{501.2, 500, 501},
	} {
		s := modeltest.SynthChain(5, 200, 1)
		s.LastTradePrice = api.Some(step.spot)
		c.Apply(feed.ChainMsg{Query: c.Query(), Chain: s, At: testNow})
		rows, cur := c.window()
		if len(rows) != 40 || rows[0].Strike != step.first || rows[cur].Strike != step.at {
			t.Errorf("spot %v: %d rows from %v, cursor on %v; want 40 from %v, cursor on %v",
				step.spot, len(rows), rows[0].Strike, rows[cur].Strike, step.first, step.at)
		}
	}
	// On a short pane the money stays in the middle half of the rows shown.
	view(c, 100, 16, true)
	n := ui.LadderRows(16)
	for _, spot := range []float64{501.2, 503.2, 504.2, 506.2, 509.2, 512.2, 515.2, 504.4} {
		s := modeltest.SynthChain(5, 200, 1)
		s.LastTradePrice = api.Some(spot)
		c.Apply(feed.ChainMsg{Query: c.Query(), Chain: s, At: testNow})
		before := c.lv.Offset
		view(c, 100, 16, true)
		if cur, off := c.lv.Cursor, c.lv.Offset; off > 0 && (cur < off+n/4 || cur >= off+n-n/4) {
			t.Errorf("spot %v: cursor on row %d of %d..%d, out of the middle half", spot, cur, off, off+n)
		}
		if spot == 503.2 && c.lv.Offset != before {
			t.Errorf("spot %v: a tick moved the rows from %d to %d", spot, before, c.lv.Offset)
		}
	}
	// Another expiry starts centred on the money.
	pressKey(t, c, runeKey(']'), 1)
	if rows, cur := c.window(); rows[0].Strike != 500 || rows[cur].Strike != 504 {
		t.Errorf("next expiry: window from %v, cursor on %v", rows[0].Strike, rows[cur].Strike)
	}
}

// A snapshot that changes every quote flashes the changed cells; with
// Flash 0 (--no-flash) the same snapshot draws none.
func TestChainFlashAndNoFlash(t *testing.T) {
	for _, flash := range []bool{true, false} {
		c := loadedChain(t)
		if !flash {
			sh := *c.sh
			sh.Flash = 0
			c.sh = &sh
		}
		c.Apply(feed.ChainMsg{Query: c.Query(), Chain: modeltest.SynthChain(5, 200, 2), At: testNow})
		frame := strings.Join(view(c, 120, 30, true), "\n")
		st := c.sh.Styles
		flashed := strings.Contains(frame, st.Cell[theme.ToneUp][theme.ShadeFlash].Open) ||
			strings.Contains(frame, st.Cell[theme.ToneDown][theme.ShadeFlash].Open)
		if flashed != flash {
			t.Errorf("Flash %v: flashed cells drawn: %v", c.sh.Flash, flashed)
		}
	}
}

func TestExpiryKind(t *testing.T) {
	for _, tc := range []struct {
		d    api.Date
		want ui.ExpiryKind
	}{
		{api.NewDate(2026, 11, 20), ui.ExpiryMonthly},   // third Friday
		{api.NewDate(2026, 11, 27), ui.ExpiryWeekly},    // fourth Friday
		{api.NewDate(2026, 11, 23), ui.ExpiryDaily},     // a Monday
		{api.NewDate(2026, 12, 18), ui.ExpiryMonthly},   // third Friday
		{api.NewDate(2026, 12, 31), ui.ExpiryQuarterly}, // last weekday of December (a Thursday)
		{api.NewDate(2027, 3, 31), ui.ExpiryQuarterly},  // a Wednesday
		{api.NewDate(2027, 4, 30), ui.ExpiryWeekly},     // month end, not a quarter: a Friday
		{api.NewDate(2026, 10, 30), ui.ExpiryWeekly},
		{api.NewDate(2027, 1, 15), ui.ExpiryMonthly},
	} {
		if got := expiryKind(tc.d); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestChainTabs(t *testing.T) {
	c := loadedChain(t)
	c.SetEarnings(modeltest.SynthDay.AddDays(3))
	tabs, sel := c.Tabs()
	if len(tabs) != 5 || sel != 0 {
		t.Fatalf("%d tabs, selected %d", len(tabs), sel)
	}
	for i, tab := range tabs {
		if tab.DTE != i || tab.Earnings != (i >= 3) {
			t.Errorf("tab %d: %+v", i, tab)
		}
	}
	if tabs[0].Kind != ui.ExpiryMonthly || tabs[1].Kind != ui.ExpiryDaily {
		t.Errorf("kinds %d %d", tabs[0].Kind, tabs[1].Kind)
	}
	if line := c.TabsView(100); ansi.StringWidth(line) != 100 {
		t.Errorf("tab bar is %d wide", ansi.StringWidth(line))
	}
	// A click on the second tab selects it.
	for x := range 100 {
		if i, ok := ui.ExpiryHit(tabs, 0, 100, x); ok && i == 1 {
			if !c.ClickTab(x, 100) || c.Expiry() != modeltest.SynthDay.AddDays(1) {
				t.Error("click on the second tab")
			}
			break
		}
	}
}

func TestChainHeader(t *testing.T) {
	c := New(modeltest.Common(testNow))
	c.SetQuery(feed.Query{Symbol: "SPY", Gen: 1})
	if h := c.Header(); h.Symbol != "SPY" || h.AsOf >= 0 || h.Indicator != "" {
		t.Errorf("empty header %+v", h)
	}
	c = loadedChain(t)
	h := c.Header()
	if h.Last != 600.38 || h.Indicator != api.Green || h.ImpliedMid != 600.35 || h.BidSize != -1 {
		t.Errorf("header %+v", h)
	}
	if s := c.Spot(); s != 600.38 {
		t.Errorf("spot %v", s)
	}
}

// View keeps the cursor on screen, whatever the window, and hands the
// renderer only a slice of the store.
func TestChainView(t *testing.T) {
	c := New(modeltest.Common(testNow))
	c.SetQuery(feed.Query{Symbol: "SPY", Gen: 1})
	lines := view(c, 80, 20, true)
	if len(lines) != 20 || !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "loading SPY") {
		t.Fatalf("loading view: %q", lines)
	}

	c = loadedChain(t)
	pressKey(t, c, runeKey('w'), 1) // all 200 strikes
	pressKey(t, c, keyEnd, 1)
	lines = view(c, 100, 20, true)
	if len(lines) != 20 {
		t.Fatalf("%d lines", len(lines))
	}
	n := ui.LadderRows(20)
	if c.lv.Cursor < c.lv.Offset || c.lv.Cursor >= c.lv.Offset+n {
		t.Errorf("cursor %d outside rows %d..%d", c.lv.Cursor, c.lv.Offset, c.lv.Offset+n)
	}
	if !strings.Contains(ansi.Strip(lines[len(lines)-1]), "699") {
		t.Errorf("last strike not on the last line: %q", ansi.Strip(lines[len(lines)-1]))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 100 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
	if d := c.DetailsView(60, 8); len(d) != 8 {
		t.Errorf("details: %d lines", len(d))
	}

	// A click on the first data row selects its strike, on the put side
	// when it is right of the middle.
	for y := range 20 {
		if r, ok := ui.LadderHit(&c.lv, 20, y); ok {
			want := c.lv.Rows[r].Strike
			c.Click(90, y, 100, 20)
			if d, _ := c.Selected(); d.Strike != want || d.Type != api.Put {
				t.Errorf("click: %v %s, want %v P", d.Strike, d.Type, want)
			}
			break
		}
	}
}

// view draws c at w x h through the pane contract.
func view(c *Model, w, h int, focused bool) []string {
	c.SetSize(w, h)
	c.SetFocused(focused)
	return c.View()
}

// TestChainTabsOnAWeekend: on Sunday the screen shows Friday's close;
// the expiry that settled then is not a tab, DTE counts from Friday (the
// day the prices are from), and no tab is negative.
func TestChainTabsOnAWeekend(t *testing.T) {
	sunday := time.Date(2026, 11, 22, 12, 0, 0, 0, api.Eastern)
	c := New(modeltest.Common(sunday))
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	c.SetQuery(q)
	// Expiries Fri 20 to Tue 24 (one a day), as Friday's close lists them.
	c.Apply(feed.ChainMsg{Query: q, Chain: modeltest.SynthChain(5, 50, 1), At: sunday})
	tabs, _ := c.Tabs()
	var got []string
	for _, tab := range tabs {
		if tab.DTE < 0 {
			t.Errorf("tab %v has DTE %d", tab.Date, tab.DTE)
		}
		got = append(got, fmt.Sprintf("%v %dd", tab.Date, tab.DTE))
	}
	if want := "2026-11-22 2d,2026-11-23 3d,2026-11-24 4d"; strings.Join(got, ",") != want {
		t.Errorf("tabs %v, want %s", got, want)
	}
}

// TestExpiryKeysKeepStrikeAndSide: `[` and `]` keep the contract the
// trader is on, strike and side, moving to the nearest strike where the
// new expiry does not list it; a cursor that follows the money goes on
// following it. (It was reset to the money's call: 697 PUT became 699
// CALL.)
func TestExpiryKeysKeepStrikeAndSide(t *testing.T) {
	c := New(modeltest.Common(testNow))
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	c.SetQuery(q)
	ch := modeltest.SynthChain(3, 200, 1)
	// The second expiry lists only even strikes.
	opts := ch.Options[:0]
	for _, o := range ch.Options {
		if o.Expiry != modeltest.SynthDay.AddDays(1) || int(o.Strike)%2 == 0 {
			opts = append(opts, o)
		}
	}
	ch.Options = opts
	if !c.Apply(feed.ChainMsg{Query: q, Chain: ch, At: testNow}) {
		t.Fatal("full chain dropped")
	}
	if !pressKey(t, c, runeKey(']'), 1) || selStrike(t, c) != 600 {
		t.Fatalf("following the money: ] went to %v", selStrike(t, c))
	}
	pressKey(t, c, runeKey('['), 1)
	pressKey(t, c, keyUp, 3)
	pressKey(t, c, keyRight, 1) // 597 put
	if d, _ := c.Selected(); d.Strike != 597 || d.Type != api.Put {
		t.Fatalf("selected %v %v", d.Strike, d.Type)
	}
	for i, want := range []struct {
		k      rune
		strike float64
	}{{']', 596}, {']', 597}, {'[', 596}, {'[', 597}} {
		if !pressKey(t, c, runeKey(want.k), 1) {
			t.Fatalf("step %d: %c did not change the expiry", i, want.k)
		}
		d, _ := c.Selected()
		if d.Strike != want.strike || d.Type != api.Put {
			t.Errorf("step %d: %c on %s selects %v %v, want %v put", i, want.k, c.Expiry(), d.Strike, d.Type, want.strike)
		}
	}
}
