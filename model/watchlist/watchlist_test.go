package watchlist

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
)

func quote(sym string, last, prev float64, ts api.TimeOfDay) api.Symbol {
	var s api.Symbol
	s.Symbol, s.Timestamp = sym, ts
	s.LastTradePrice, s.PrevDayClose = api.Some(last), api.Some(prev)
	s.Bid, s.Ask = api.Some(last-0.01), api.Some(last+0.01)
	s.Volume, s.IV30 = api.Some(int64(1000)), api.Some(20.0)
	s.ImpliedUnderlyingIndicator = api.Some(api.Green)
	return s
}

var q1 = feed.Query{Mode: api.Live, Gen: 1}

// saves records what the page saved, safely from the commands' goroutines.
type saves struct {
	mu    sync.Mutex
	lists [][]string
	err   error
}

func (s *saves) save(list []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.lists = append(s.lists, slices.Clone(list))
	return nil
}

func (s *saves) last() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lists) == 0 {
		return nil
	}
	return s.lists[len(s.lists)-1]
}

func newPage(t *testing.T, symbols ...string) (*Model, *saves) {
	t.Helper()
	sv := &saves{}
	m := New(modeltest.Common(modeltest.Now), Options{Symbols: symbols, Save: sv.save})
	m.SetQuery(q1)
	m.SetSize(120, 20)
	m.SetFocused(true)
	return m, sv
}

func runeKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// press sends a key and runs the command it returns, as the program would.
func press(t *testing.T, m *Model, k tea.KeyPressMsg) tea.Msg {
	t.Helper()
	_, cmd := m.Update(k)
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if s, ok := msg.(SavedMsg); ok {
		m.Update(s)
	}
	return msg
}

func TestApplyQuotes(t *testing.T) {
	m, _ := newPage(t, "SPY", "QQQ", "XYZ")
	at := modeltest.Now
	ts := api.NewTimeOfDay(11, 30, 0, 0)
	reply := feed.QuotesMsg{Query: q1, Symbols: []string{"SPY", "QQQ", "XYZ"},
		Quotes: []api.Symbol{quote("QQQ", 640, 650, ts), quote("SPY", 705, 700, ts)}, At: at}
	if m.Apply(feed.QuotesMsg{Query: feed.Query{Gen: 9}, Symbols: reply.Symbols, Quotes: reply.Quotes}) {
		t.Fatal("a reply for another mode was applied")
	}
	if !m.Apply(reply) {
		t.Fatal("reply dropped")
	}
	if got := m.Missing(); !slices.Equal(got, []string{"XYZ"}) {
		t.Fatalf("missing %v", got)
	}
	if got := m.Fetchable(); !slices.Equal(got, []string{"SPY", "QQQ"}) {
		t.Fatalf("fetchable %v", got)
	}
	// The same snapshot again adds no sparkline point; a new one does, and
	// a move flashes the price.
	m.Apply(reply)
	if n := len(m.rows["SPY"].spark); n != 1 {
		t.Fatalf("spark after the same snapshot: %d points", n)
	}
	ts2 := ts + 2000
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY", "QQQ"},
		Quotes: []api.Symbol{quote("SPY", 706, 700, ts2), quote("QQQ", 640, 650, ts2)}, At: at.Add(2 * time.Second)})
	spy := m.rows["SPY"]
	if !slices.Equal(spy.spark, []float64{705, 706}) || !spy.rose || !spy.movedAt.Equal(at.Add(2*time.Second)) {
		t.Fatalf("SPY %+v", spy)
	}
	if q := m.rows["QQQ"]; !q.movedAt.IsZero() {
		t.Fatalf("QQQ did not move but flashes: %+v", q)
	}
	// A failure keeps the rows and says so; the title reads stale.
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY"}, Err: errors.New("503 busy"), At: at.Add(3 * time.Second)})
	if !m.rows["SPY"].loaded || m.Err() == nil {
		t.Fatal("a failure lost the rows or the error")
	}
	text := ansi.Strip(strings.Join(m.View(), "\n"))
	for _, w := range []string{"SPY", "706.00", "+6.00", "QQQ", "640.00", "XYZ", "no such symbol", "⚠ STALE"} {
		if !strings.Contains(text, w) {
			t.Errorf("the page lacks %q:\n%s", w, text)
		}
	}
	// Another mode starts over.
	m.SetQuery(feed.Query{Mode: api.Delayed, Gen: 2})
	if m.rows["SPY"].loaded || len(m.rows["SPY"].spark) != 0 || m.Err() != nil {
		t.Fatal("SetQuery kept the old mode's data")
	}
}

func TestApplyEvents(t *testing.T) {
	m, _ := newPage(t, "AAPL", "SPY")
	day := q1.Day(modeltest.Now)
	if got := m.NeedEvents(); !slices.Equal(got, []string{"AAPL", "SPY"}) {
		t.Fatalf("need %v", got)
	}
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"AAPL", "SPY"}, Quotes: []api.Symbol{quote("AAPL", 280, 285, 1), quote("SPY", 705, 700, 1)}, At: modeltest.Now})
	m.ApplyEvents(feed.EventsMsg{Query: q1, Symbols: []string{"AAPL", "SPY"}, At: modeltest.Now, Events: []api.CalendarEvent{
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{UnderlyingSymbol: "AAPL", ReportDate: day.AddDays(5), TimeOfDay: api.AfterClose}},
		{Kind: api.KindDividend, Dividend: api.DividendsEvent{UnderlyingSymbol: "SPY", ExDividendDate: day.AddDays(28)}},
	}})
	if len(m.NeedEvents()) != 0 {
		t.Fatalf("still need %v", m.NeedEvents())
	}
	// A later quote keeps the events.
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"AAPL", "SPY"}, Quotes: []api.Symbol{quote("AAPL", 281, 285, 2), quote("SPY", 705, 700, 2)}, At: modeltest.Now})
	text := ansi.Strip(strings.Join(m.View(), "\n"))
	for _, w := range []string{"earn Nov25", "div Dec18", "earn Wed Nov 25 AMC (in 5d)"} {
		if !strings.Contains(text, w) {
			t.Errorf("the page lacks %q:\n%s", w, text)
		}
	}
}

func TestSortKeepsTheCursorAndPutsBlanksLast(t *testing.T) {
	m, _ := newPage(t, "SPY", "QQQ", "IWM", "NEW")
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY", "QQQ", "IWM"}, At: modeltest.Now,
		Quotes: []api.Symbol{quote("SPY", 707, 700, 1), quote("QQQ", 630, 650, 1), quote("IWM", 255, 250, 1)}})
	m.cursor = "QQQ"
	// >: SYMBOL ascending, then > again: LAST, largest first.
	press(t, m, runeKey('>'))
	if !slices.Equal(m.order, []string{"IWM", "NEW", "QQQ", "SPY"}) || m.cursor != "QQQ" {
		t.Fatalf("by symbol %v, cursor %s", m.order, m.cursor)
	}
	for range int(ui.WColChangePct) - int(ui.WColSymbol) {
		press(t, m, runeKey('>'))
	}
	// CHG%: IWM +2%, SPY +1%, QQQ -3.08%, NEW (no quote) last.
	if m.sortCol != ui.WColChangePct || !m.desc || !slices.Equal(m.order, []string{"IWM", "SPY", "QQQ", "NEW"}) {
		t.Fatalf("by change %%: %v", m.order)
	}
	press(t, m, runeKey('o'))
	if !slices.Equal(m.order, []string{"QQQ", "SPY", "IWM", "NEW"}) || m.cursor != "QQQ" {
		t.Fatalf("flipped: %v", m.order)
	}
	// <: back through the columns to the user's order.
	for range int(ui.WColChangePct) + 1 {
		press(t, m, runeKey('<'))
	}
	if !m.manual || !slices.Equal(m.order, []string{"SPY", "QQQ", "IWM", "NEW"}) {
		t.Fatalf("your order: %v manual %v", m.order, m.manual)
	}
	// A click on a heading sorts by it; a second flips it.
	x := strings.Index(ansi.Strip(m.View()[1]), "IV30")
	m.Click(x, 1)
	if m.manual || m.sortCol != ui.WColIV30 || !m.desc {
		t.Fatalf("click: %v %v %v", m.manual, m.sortCol, m.desc)
	}
	m.Click(x, 1)
	if m.desc {
		t.Fatal("a second click did not flip the order")
	}
	// A click on a row selects it.
	m.Click(2, 3)
	if m.cursor != m.order[1] {
		t.Fatalf("clicked row 1, cursor on %s", m.cursor)
	}
}

func TestEditsAreSavedInOrder(t *testing.T) {
	m, sv := newPage(t, "SPY", "QQQ", "IWM")
	// a asks the root for the prompt.
	if msg := press(t, m, runeKey('a')); msg != (AddSymbolMsg{}) {
		t.Fatalf("a: %#v", msg)
	}
	added, cmd := m.Add("TSLA")
	if !added || cmd == nil {
		t.Fatal("TSLA not added")
	}
	m.Update(cmd())
	if got := sv.last(); !slices.Equal(got, []string{"SPY", "QQQ", "IWM", "TSLA"}) || m.cursor != "TSLA" {
		t.Fatalf("saved %v, cursor %s", got, m.cursor)
	}
	// The service does not know it: said at once.
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: m.Symbols(), Quotes: []api.Symbol{quote("SPY", 705, 700, 1)}, At: modeltest.Now})
	if m.note.Text != "no such symbol: TSLA; x removes it" || m.note.Tone != ui.ToneWarn {
		t.Fatalf("note after an unknown symbol was added: %+v", m.note)
	}
	if again, _ := m.Add("QQQ"); again || m.cursor != "QQQ" {
		t.Fatal("a symbol on the list was added twice")
	}
	// K moves QQQ above SPY; x removes it; u puts it back.
	press(t, m, tea.KeyPressMsg{Code: 'K', Text: "K"})
	if got := sv.last(); !slices.Equal(got, []string{"QQQ", "SPY", "IWM", "TSLA"}) {
		t.Fatalf("after K: %v", got)
	}
	press(t, m, runeKey('x'))
	if got := sv.last(); !slices.Equal(got, []string{"SPY", "IWM", "TSLA"}) || m.cursor != "SPY" {
		t.Fatalf("after x: %v, cursor %s", got, m.cursor)
	}
	if !strings.Contains(ansi.Strip(strings.Join(m.View(), "\n")), "removed QQQ · u puts it back") {
		t.Fatal("no undo hint")
	}
	press(t, m, runeKey('u'))
	if got := sv.last(); !slices.Equal(got, []string{"QQQ", "SPY", "IWM", "TSLA"}) || m.cursor != "QQQ" {
		t.Fatalf("after u: %v", got)
	}
	// In a sorted view K says how to reorder instead.
	press(t, m, runeKey('>'))
	n := len(sv.lists)
	press(t, m, tea.KeyPressMsg{Code: 'J', Text: "J"})
	if len(sv.lists) != n || !strings.Contains(m.note.Text, "your order") {
		t.Fatalf("J in a sorted view: %d saves, note %q", len(sv.lists)-n, m.note.Text)
	}
}

// TestSavesLandNewestLast: commands run in any order; the file ends with
// the newest list, and Flush writes one whose command never ran.
func TestSavesLandNewestLast(t *testing.T) {
	m, sv := newPage(t, "SPY", "QQQ")
	_, first := m.Add("IWM")
	_, second := m.Add("DIA")
	second()
	if msg := first(); msg != nil {
		t.Fatalf("an older save ran after a newer one: %#v", msg)
	}
	if got := sv.last(); !slices.Equal(got, []string{"SPY", "QQQ", "IWM", "DIA"}) || len(sv.lists) != 1 {
		t.Fatalf("saves %v", sv.lists)
	}
	m.Add("TSLA") // its command is dropped, as at quit
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := sv.last(); !slices.Equal(got, []string{"SPY", "QQQ", "IWM", "DIA", "TSLA"}) {
		t.Fatalf("flushed %v", got)
	}
	if err := m.Flush(); err != nil || len(sv.lists) != 2 {
		t.Fatalf("a second flush saved again: %v %d", err, len(sv.lists))
	}
	// A failed save says so and is not forgotten.
	sv.err = errors.New("disk full")
	_, cmd := m.Add("NVDA")
	m.Update(cmd())
	if m.note.Tone != ui.ToneError || !strings.Contains(m.note.Text, "watchlist not saved: disk full") {
		t.Fatalf("note %+v", m.note)
	}
	sv.err = nil
	if err := m.Flush(); err != nil || !slices.Contains(sv.last(), "NVDA") {
		t.Fatalf("the failed save was not retried at flush: %v %v", err, sv.last())
	}
}

func TestSkippedEntriesAndNoConfigFile(t *testing.T) {
	sv := &saves{}
	m := New(modeltest.Common(modeltest.Now), Options{Symbols: []string{"SPY"}, Save: sv.save,
		Skipped: []string{"config.toml:3: watchlist: symbol \"S P Y\": a blank is not part of a symbol; skipped"}})
	m.SetQuery(q1)
	m.SetSize(100, 12)
	if text := ansi.Strip(strings.Join(m.View(), "\n")); !strings.Contains(text, "config.toml:3: watchlist") {
		t.Fatalf("the skipped entry is not shown:\n%s", text)
	}
	_, cmd := m.Add("QQQ")
	m.Update(cmd())
	if len(m.skipped) != 0 || !strings.Contains(m.note.Text, "skipped entries are no longer in the file") {
		t.Fatalf("after the first save: %v %q", m.skipped, m.note.Text)
	}
	// Without a config file the list lasts for the session, and it says so.
	m = New(modeltest.Common(modeltest.Now), Options{Symbols: []string{"SPY"}})
	if _, cmd := m.Add("QQQ"); cmd != nil || !strings.Contains(m.note.Text, "for this session only") {
		t.Fatalf("no config file: %q", m.note.Text)
	}
	// An empty list says how to fill it.
	m = New(modeltest.Common(modeltest.Now), Options{})
	m.SetSize(100, 12)
	if text := ansi.Strip(strings.Join(m.View(), "\n")); !strings.Contains(text, "the watchlist is empty: a adds a symbol") {
		t.Fatalf("empty:\n%s", text)
	}
}

func TestOpenChain(t *testing.T) {
	m, _ := newPage(t, "SPY", "XYZ")
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY", "XYZ"}, Quotes: []api.Symbol{quote("SPY", 705, 700, 1)}, At: modeltest.Now})
	if msg := press(t, m, tea.KeyPressMsg{Code: tea.KeyEnter}); msg != (OpenChainMsg{Symbol: "SPY"}) {
		t.Fatalf("enter: %#v", msg)
	}
	press(t, m, tea.KeyPressMsg{Code: tea.KeyDown})
	if msg := press(t, m, tea.KeyPressMsg{Code: tea.KeyEnter}); msg != nil || !strings.Contains(m.note.Text, "no such symbol: XYZ") {
		t.Fatalf("enter on an unknown symbol: %#v, %q", msg, m.note.Text)
	}
	// Unfocused, the page takes no keys.
	m.SetFocused(false)
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil {
		t.Fatal("an unfocused page took enter")
	}
}

// TestViewExactSize: every size gives exactly its lines and cells.
func TestViewExactSize(t *testing.T) {
	m, _ := newPage(t, "SPY", "QQQ", "IWM", "AAPL", "MSFT", "NVDA", "AMZN", "TSLA", "META", "GOOGL", "AMD", "NFLX")
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: m.Symbols(), At: modeltest.Now, Quotes: []api.Symbol{quote("SPY", 705, 700, 1)}})
	m.cursor = "NFLX"
	for _, sz := range [][2]int{{80, 21}, {120, 37}, {160, 45}, {80, 6}} {
		m.SetSize(sz[0], sz[1])
		lines := m.View()
		if len(lines) != sz[1] {
			t.Fatalf("%v: %d lines", sz, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != sz[0] {
				t.Fatalf("%v: line %d is %d cells", sz, i, w)
			}
		}
		// The cursor's row is in sight.
		if !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "NFLX") {
			t.Fatalf("%v: the cursor's row is not shown", sz)
		}
	}
}

// TestEventsFailureIsNotStale: a failed events request is reported, but
// the quotes it has nothing to do with are not called stale.
func TestEventsFailureIsNotStale(t *testing.T) {
	m, _ := newPage(t, "SPY")
	m.SetContext("SANDBOX", 4, 10*time.Second)
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY"}, Quotes: []api.Symbol{quote("SPY", 705, 700, 1)}, At: modeltest.Now})
	m.ApplyEvents(feed.EventsMsg{Query: q1, Symbols: []string{"SPY"}, Err: errors.New("calendar down"), At: modeltest.Now})
	if m.Err() == nil || !strings.Contains(m.Err().Error(), "calendar down") {
		t.Fatalf("err %v", m.Err())
	}
	if text := ansi.Strip(strings.Join(m.View(), "\n")); strings.Contains(text, "STALE") {
		t.Fatalf("an events failure made the quotes stale:\n%s", text)
	}
	m.ApplyEvents(feed.EventsMsg{Query: q1, Symbols: []string{"SPY"}, At: modeltest.Now})
	if m.Err() != nil {
		t.Fatalf("still failing after an answer: %v", m.Err())
	}
}

// TestEventDaysCountFromTheShownDay: on Saturday the page shows Friday's
// close, and an event's days count from Friday, as the events pane and the
// expiry tabs count them (an ex-dividend date on Dec 18 is 21 days from
// Friday Nov 27, not 20 from the calendar's Saturday).
func TestEventDaysCountFromTheShownDay(t *testing.T) {
	et, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data")
	}
	saturday := time.Date(2026, 11, 28, 11, 0, 0, 0, et)
	m := New(modeltest.Common(saturday), Options{Symbols: []string{"SPY"}, Save: (&saves{}).save})
	m.SetQuery(q1)
	m.SetSize(120, 20)
	m.SetFocused(true)
	if shown := feed.ShownDay(q1, saturday); shown != api.NewDate(2026, 11, 27) {
		t.Fatalf("the shown day on Saturday is %v, want Friday", shown)
	}
	m.Apply(feed.QuotesMsg{Query: q1, Symbols: []string{"SPY"}, Quotes: []api.Symbol{quote("SPY", 705, 700, 1)}, At: saturday})
	m.ApplyEvents(feed.EventsMsg{Query: q1, Symbols: []string{"SPY"}, At: saturday, Events: []api.CalendarEvent{
		{Kind: api.KindDividend, Dividend: api.DividendsEvent{UnderlyingSymbol: "SPY", ExDividendDate: api.NewDate(2026, 12, 18)}},
	}})
	text := ansi.Strip(strings.Join(m.View(), "\n"))
	if !strings.Contains(text, "(in 21d)") {
		t.Errorf("the ex-dividend date is not counted from Friday (want \"(in 21d)\"):\n%s", text)
	}
}
