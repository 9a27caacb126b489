package tape

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

func newTestTape(capacity int) (*Model, feed.Query) {
	t := New(modeltest.Common(modeltest.Now), capacity, 100)
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 7}
	t.SetQuery(q)
	return t, q
}

func TestTapeIncremental(t *testing.T) {
	tp, q := newTestTape(1000)
	if tp.NextFrom() != 0 {
		t.Fatalf("NextFrom before any page: %d", tp.NextFrom())
	}
	if !tp.Apply(feed.TapeMsg{Query: q, From: 0, Trades: modeltest.SynthTrades(1, 100), At: modeltest.Now}) {
		t.Fatal("first page dropped")
	}
	if tp.NextFrom() != 101 || tp.r.len() != 100 || tp.More() {
		t.Fatalf("after the first page: next %d held %d more %v", tp.NextFrom(), tp.r.len(), tp.More())
	}
	// A second answer to the same first fetch is a duplicate: dropped.
	if tp.Apply(feed.TapeMsg{Query: q, From: 0, Trades: modeltest.SynthTrades(1, 100)}) {
		t.Error("an overlapping page was applied")
	}
	// A stale generation is dropped.
	if tp.Apply(feed.TapeMsg{Query: feed.Query{Gen: 6}, From: 101, Trades: modeltest.SynthTrades(101, 5)}) {
		t.Error("a stale page was applied")
	}
	// Trades already held are skipped even inside a page that starts right.
	page := append(modeltest.SynthTrades(95, 10), modeltest.SynthTrades(105, 45)...)
	if !tp.Apply(feed.TapeMsg{Query: q, From: 101, Trades: page}) {
		t.Fatal("second page dropped")
	}
	if tp.NextFrom() != 150 || tp.r.len() != 149 {
		t.Errorf("next %d held %d, want 150 and 149", tp.NextFrom(), tp.r.len())
	}
	for i := range tp.r.len() - 1 {
		if tp.r.at(i).tr.SeqNo <= tp.r.at(i+1).tr.SeqNo {
			t.Fatalf("not newest first at %d", i)
		}
	}
	// An error keeps the trades and the position.
	boom := errors.New("502")
	if !tp.Apply(feed.TapeMsg{Query: q, From: 150, Err: boom, At: modeltest.Now}) {
		t.Error("error dropped")
	}
	if err := tp.Err(); !errors.Is(err, boom) || tp.r.len() != 149 || tp.NextFrom() != 150 {
		t.Error("the error lost the tape")
	}
	// A full page means more are waiting.
	tp.Apply(feed.TapeMsg{Query: q, From: 150, Trades: modeltest.SynthTrades(150, config.TapePageLimit)})
	if !tp.More() {
		t.Error("a full page did not set More")
	}
	// A 204 (no trades) is an empty page, not an error.
	next := tp.NextFrom()
	if !tp.Apply(feed.TapeMsg{Query: q, From: next, Err: api.ErrNoData}) || tp.More() || tp.NextFrom() != next {
		t.Error("no-data page")
	}
	if err := tp.Err(); err != nil {
		t.Errorf("no-data page left the error %v", err)
	}
}

// The ring is the tape's whole memory: ten times its capacity in trades
// leaves it the same size, holding the newest.
func TestTapeBounded(t *testing.T) {
	const capacity = 500
	tp, q := newTestTape(capacity)
	buf := &tp.r.buf[0]
	for page := range 10 {
		from := tp.NextFrom()
		first := int64(1 + page*capacity)
		if !tp.Apply(feed.TapeMsg{Query: q, From: from, Trades: modeltest.SynthTrades(first, capacity)}) {
			t.Fatalf("page %d dropped", page)
		}
	}
	if tp.r.len() != capacity || tp.r.cap() != capacity || len(tp.r.buf) != capacity || &tp.r.buf[0] != buf {
		t.Fatalf("held %d cap %d: the ring grew or moved", tp.r.len(), tp.r.cap())
	}
	if newest, oldest := tp.r.at(0).tr.SeqNo, tp.r.at(capacity-1).tr.SeqNo; newest != 10*capacity || oldest != 9*capacity+1 {
		t.Errorf("newest %d oldest %d", newest, oldest)
	}
	lines := view(tp, 60, 12, false)
	if len(lines) != 12 || len(tp.vis) != 10 || tp.vis[0].SeqNo != 10*capacity {
		t.Errorf("view: %d lines, %d trades, first %d", len(lines), len(tp.vis), tp.vis[0].SeqNo)
	}
}

func TestTapeFilters(t *testing.T) {
	tp, q := newTestTape(1000)
	trades := modeltest.SynthTrades(1, 200)
	trades[198].CancelFlag = api.TradeCanceled
	trades[199].CancelFlag = api.TradeCancel
	tp.Apply(feed.TapeMsg{Query: q, Trades: trades})

	view(tp, 60, 7, false)
	if len(tp.vis) != 5 || tp.vis[0].Cancel != api.TradeCancel || tp.vis[1].Cancel != api.TradeCanceled {
		t.Fatalf("canceled trades and cancel messages must stay: %+v", tp.vis[:2])
	}
	if !tp.handleKey(runeKey('f'), false) { // calls
		t.Fatal("side key not handled")
	}
	view(tp, 60, 50, false)
	for _, tr := range tp.vis {
		if tr.Type != api.Call {
			t.Fatalf("calls filter shows %s", tr.Type)
		}
	}
	tp.handleKey(runeKey('f'), false) // puts
	tp.handleKey(runeKey('f'), false) // all
	for range 3 {
		tp.handleKey(runeKey('+'), false) // 10, 50, 100
	}
	view(tp, 60, 50, false)
	for _, tr := range tp.vis {
		if tr.Size < 100 {
			t.Fatalf("min size 100 shows %d", tr.Size)
		}
	}
	if tp.filter != "all ≥100" {
		t.Errorf("filter title %q", tp.filter)
	}
	for range 5 {
		tp.handleKey(runeKey('-'), false)
	}

	// The contract filter matches trades with and without an OSI symbol.
	osi, _ := api.FormatOSI("SPY", modeltest.SynthDay, api.Call, 595)
	tp.SetContract(osi)
	tp.handleKey(runeKey('x'), false)
	lines := view(tp, 80, 30, false)
	if len(tp.vis) != 20 {
		t.Fatalf("contract filter: %d trades, want 20", len(tp.vis))
	}
	withNull := 0
	for _, tr := range tp.vis {
		if tr.Strike != 595 || tr.Type != api.Call {
			t.Fatalf("contract filter shows %s %v", tr.Type, tr.Strike)
		}
		if tr.SeqNo%20 == 0 {
			withNull++
		}
	}
	if withNull != 10 {
		t.Errorf("%d of 10 trades without a symbol matched the contract filter", withNull)
	}
	if !strings.Contains(ansi.Strip(lines[0]), osi) {
		t.Errorf("title %q does not name the contract", ansi.Strip(lines[0]))
	}
	// Scrolling keys belong to the tape only when it has the focus.
	if tp.handleKey(keyDown, false) {
		t.Error("down handled without focus")
	}
	if !tp.handleKey(keyDown, true) || tp.scroll != 0 {
		t.Error("twenty trades fill the screen: nothing to scroll")
	}
}

func TestTapeScrollAndView(t *testing.T) {
	tp, q := newTestTape(1000)
	tp.Apply(feed.TapeMsg{Query: q, Trades: modeltest.SynthTrades(1, 100)})
	view(tp, 60, 12, true) // 10 rows
	// Down moves the selection to the bottom row, then scrolls.
	for range 9 {
		tp.handleKey(keyDown, true)
	}
	view(tp, 60, 12, true)
	if tp.vis[0].SeqNo != 100 || tp.cur != 9 {
		t.Fatalf("down 9: first %d, cursor on row %d", tp.vis[0].SeqNo, tp.cur)
	}
	tp.handleKey(keyDown, true)
	tp.handleKey(keyDown, true)
	view(tp, 60, 12, true)
	if tp.vis[0].SeqNo != 98 {
		t.Fatalf("scrolled 2: first %d", tp.vis[0].SeqNo)
	}
	if sel := tp.vis[tp.cur]; tp.SelectedOSI() == "" || sel.SeqNo != 89 {
		t.Errorf("selected print %d (%q), want the bottom row, 89", sel.SeqNo, tp.SelectedOSI())
	}
	// New trades keep the scrolled rows in place.
	tp.Apply(feed.TapeMsg{Query: q, From: 101, Trades: modeltest.SynthTrades(101, 5)})
	view(tp, 60, 12, true)
	if tp.vis[0].SeqNo != 98 {
		t.Errorf("after new trades: first %d", tp.vis[0].SeqNo)
	}
	tp.handleKey(keyEnd, true)
	view(tp, 60, 12, true)
	if last := tp.vis[len(tp.vis)-1].SeqNo; last != 1 || len(tp.vis) != 10 {
		t.Errorf("bottom: %d trades ending at %d", len(tp.vis), last)
	}
	tp.handleKey(keyHome, true)
	lines := view(tp, 60, 12, true)
	if tp.vis[0].SeqNo != 105 || len(lines) != 12 {
		t.Errorf("top: first %d", tp.vis[0].SeqNo)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 60 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}

	empty, _ := newTestTape(10)
	if got := ansi.Strip(strings.Join(view(empty, 60, 6, false), "\n")); !strings.Contains(got, "loading trades") {
		t.Errorf("empty tape: %q", got)
	}
}

// TestTapeNamesExchanges: the reference table names the exchange ids of
// trades already held; without it the ids show.
func TestTapeNamesExchanges(t *testing.T) {
	tp, q := newTestTape(100)
	tr := modeltest.SynthTrades(1, 1)
	tr[0].ExchangeID = 3
	tp.Apply(feed.TapeMsg{Query: q, Trades: tr, At: modeltest.Now})
	row := func() string { return ansi.Strip(strings.Join(view(tp, 70, 3, false), "\n")) }
	if got := row(); !strings.Contains(got, " 3 ") || strings.Contains(got, "CBOE") {
		t.Fatalf("before the table the id shows:\n%s", got)
	}
	tp.SetExchanges([]api.Exchange{{ID: 3, Code: "CBOE", Name: "Cboe Options Exchange"}})
	if got := row(); !strings.Contains(got, "CBOE") {
		t.Fatalf("after the table the code shows:\n%s", got)
	}
}

// view draws t at w x h through the pane contract.
func view(t *Model, w, h int, focused bool) []string {
	t.SetSize(w, h)
	t.SetFocused(focused)
	return t.View()
}

// Key presses as the terminal sends them.
var (
	keyDown = tea.KeyPressMsg{Code: tea.KeyDown}
	keyHome = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd  = tea.KeyPressMsg{Code: tea.KeyEnd}
)

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
