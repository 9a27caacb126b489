package model

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/model/watchlist"
	"chainwatch/theme"
)

var fourSymbols = []string{"SPY", "QQQ", "IWM", "AAPL"}

// savedLists records the watchlists the App saved.
type savedLists struct {
	mu    sync.Mutex
	lists [][]string
}

func (s *savedLists) save(l []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists = append(s.lists, slices.Clone(l))
	return nil
}

func (s *savedLists) last() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lists) == 0 {
		return nil
	}
	return s.lists[len(s.lists)-1]
}

// watchApp is an App with a watchlist on a scripted monitor (see
// newRig): the test answers its requests and fires its timers; the
// commands Update returns are not run.
func watchApp(t *testing.T, start bool) (*rig, *clock, *savedLists) {
	t.Helper()
	c := &clock{t: testNow}
	sv := &savedLists{}
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark",
		Watchlist: fourSymbols, SaveWatchlist: sv.save, StartOnWatchlist: start})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return r, c, sv
}

// synthQuote is a quote as the service sends one, its price moved by tick
// cents.
func synthQuote(sym string, base float64, tick int) api.Symbol {
	var s api.Symbol
	p := base + float64(tick)*0.37
	s.Symbol, s.Timestamp = sym, api.NewTimeOfDay(11, 29, 50+tick, 0)
	s.LastTradePrice, s.PrevDayClose = api.Some(p), api.Some(base*0.995)
	s.Bid, s.Ask, s.BidSize, s.AskSize = api.Some(p-0.01), api.Some(p+0.01), api.Some(int64(12)), api.Some(int64(9))
	s.Open, s.High, s.Low = api.Some(base*0.996), api.Some(base*1.004), api.Some(base*0.993)
	s.Volume = api.Some(int64(base * 90_000))
	s.IV30, s.IV30Change = api.Some(base/40+10), api.Some(float64(tick)*0.1-0.2)
	s.ImpliedUnderlyingBid, s.ImpliedUnderlyingAsk, s.ImpliedUnderlyingMid = api.Some(p-0.02), api.Some(p+0.02), api.Some(p)
	s.ImpliedUnderlyingIndicator = api.Some(api.Green)
	return s
}

func quotesReply(a *App, at time.Time, tick int) feed.QuotesMsg {
	bases := map[string]float64{"SPY": 704.5, "QQQ": 644, "IWM": 253.5, "AAPL": 285}
	m := feed.QuotesMsg{Query: a.wl().Query(), Symbols: a.wl().Fetchable(), Resp: okResp(4), At: at}
	for _, s := range m.Symbols {
		if b, ok := bases[s]; ok {
			m.Quotes = append(m.Quotes, synthQuote(s, b, tick))
		}
	}
	return m
}

// TestWatchlistTakesThePollingAndGivesItBack: W stops the watch screen's
// timers and starts the watchlist's; esc does the opposite.
func TestWatchlistTakesThePollingAndGivesItBack(t *testing.T) {
	r, c, _ := watchApp(t, false)
	a := r.a
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4)})
	if a.ws().Chain().LastOK().IsZero() {
		t.Fatal("the first chain was not applied")
	}
	if r.due(feed.FeedChain).IsZero() {
		t.Fatal("no chain refresh planned")
	}
	a.Update(runeKey('W'))
	if !wlShown(a) || !a.polled(feed.FeedQuotes) {
		t.Fatal("W did not open the watchlist")
	}
	if !r.due(feed.FeedChain).IsZero() || !r.due(feed.FeedTape).IsZero() {
		t.Fatal("the chain and tape are still polled under the watchlist")
	}
	if r.due(feed.FeedQuotes).IsZero() || r.due(feed.FeedEvents).IsZero() {
		t.Fatal("the watchlist's feeds are not planned")
	}
	// Its timer fires: one request for all four symbols.
	r.fire()
	if !a.feeds().InFlight(feed.FeedQuotes) {
		t.Fatal("the quotes timer fetched nothing")
	}
	q := r.answer(feed.FeedQuotes, quotesReply(a, c.t, 0))
	if !slices.Equal(q.Symbols, fourSymbols) || r.asked(feed.FeedQuotes) != 0 {
		t.Fatalf("the quotes timer asked for %v, and %d more requests", q.Symbols, r.asked(feed.FeedQuotes))
	}
	if got := a.feeds().Stats(c.t).SessionSpent; got != 4+4 {
		t.Fatalf("spent %d: the chain's 4 and the quotes' 4", got)
	}
	if d := r.due(feed.FeedQuotes).Sub(c.t); d != a.feeds().Interval(feed.FeedQuotes, c.t) || d <= 0 {
		t.Fatalf("next quotes in %v", d)
	}
	screen := ansi.Strip(a.drawAt(c.t))
	for _, w := range []string{"WATCHLIST", "4 symbols", "your order", "SPY", "QQQ", "IWM", "AAPL", "704.50", "● GREEN", "4 pts a refresh", "next quotes", "a add"} {
		if !strings.Contains(screen, w) {
			t.Errorf("the page lacks %q:\n%s", w, screen)
		}
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if wlShown(a) || !r.due(feed.FeedQuotes).IsZero() || r.due(feed.FeedChain).IsZero() {
		t.Fatalf("esc: on %v, quotes due %v, chain due %v", wlShown(a), r.due(feed.FeedQuotes), r.due(feed.FeedChain))
	}
	if !strings.Contains(ansi.Strip(a.drawAt(c.t)), "Strike") {
		t.Fatal("esc did not bring the ladder back")
	}
}

// TestWatchlistAddsThroughThePrompt: a, a symbol, enter: the service is
// asked about it at once (in the next quotes request, nothing more), and
// only then is it on the list and saved; a symbol the service leaves out
// of its answer is refused and never saved; one on the list already is
// refused by the prompt.
func TestWatchlistAddsThroughThePrompt(t *testing.T) {
	r, c, sv := watchApp(t, true)
	a := r.a
	r.fire()
	r.answer(feed.FeedQuotes, quotesReply(a, c.t, 0))
	typeKeys(a, "a")
	if a.promptOpen() == nil || !a.wl().Adding() {
		t.Fatal("a did not open the prompt")
	}
	typeKeys(a, "spy")
	press(a, tea.KeyPressMsg{Code: tea.KeyEnter})
	if a.promptOpen() == nil || !strings.Contains(a.promptOpen().Err(), "already on the watchlist") {
		t.Fatal("SPY, already on the list, was accepted")
	}
	press(a, tea.KeyPressMsg{Code: tea.KeyEscape})
	saves := len(sv.lists)
	// A typo: asked about, refused, never saved.
	typeKeys(a, "aspyy")
	runCmd(a, press(a, tea.KeyPressMsg{Code: tea.KeyEnter}))
	if a.promptOpen() != nil || slices.Contains(a.wl().Symbols(), "SPYY") || a.wl().Checking() != "SPYY" || len(sv.lists) != saves {
		t.Fatalf("SPYY on the list or saved before the service answered: %v", a.wl().Symbols())
	}
	if !strings.Contains(ansi.Strip(a.drawAt(c.t)), "checking SPYY with the service") {
		t.Fatal("the page does not say it is checking SPYY")
	}
	// At once: now, not at the next refresh an interval after the last.
	if due := r.due(feed.FeedQuotes); !due.Equal(c.t) {
		t.Fatalf("the symbol is not checked at once: due in %v", due.Sub(c.t))
	}
	r.fire()
	q := r.take(feed.FeedQuotes)
	if !slices.Contains(q.Symbols, "SPYY") {
		t.Fatalf("the quotes asked for after the pick: %v", q.Symbols)
	}
	reply := quotesReply(a, c.t, 1)
	reply.Symbols = q.Symbols // SPYY asked for, left out of the answer
	r.answerTo(q, reply)
	if err := a.wl().Flush(); err != nil { // what a save in flight would write
		t.Fatal(err)
	}
	if slices.Contains(a.wl().Symbols(), "SPYY") || a.wl().Checking() != "" || len(sv.lists) != saves ||
		!strings.Contains(ansi.Strip(a.drawAt(c.t)), "no such symbol: SPYY; not added") {
		t.Fatalf("SPYY not refused: list %v, %d saves", a.wl().Symbols(), len(sv.lists)-saves)
	}
	// A symbol the service knows: added, selected and saved once it answers.
	typeKeys(a, "atsla")
	runCmd(a, press(a, tea.KeyPressMsg{Code: tea.KeyEnter}))
	r.fire()
	q = r.take(feed.FeedQuotes)
	reply = quotesReply(a, c.t, 2)
	reply.Symbols = q.Symbols
	reply.Quotes = append(reply.Quotes, synthQuote("TSLA", 390, 2))
	r.answerTo(q, reply)
	if err := a.wl().Flush(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(a.wl().Symbols(), "TSLA") || a.wl().Selected() != "TSLA" {
		t.Fatalf("TSLA not added: %v", a.wl().Symbols())
	}
	if got := sv.last(); !slices.Equal(got, append(slices.Clone(fourSymbols), "TSLA")) {
		t.Fatalf("saved %v", got)
	}
}

// TestWatchlistModeWaitsForTheChain: m on the page changes the mode of
// both screens, fetches the watchlist again, and the chain only when it
// shows.
func TestWatchlistModeWaitsForTheChain(t *testing.T) {
	r, c, _ := watchApp(t, true)
	a := r.a
	if a.feeds().InFlight(feed.FeedChain) || !r.due(feed.FeedChain).IsZero() || r.asked(feed.FeedChain) != 0 {
		t.Fatal("starting on the watchlist fetched the chain")
	}
	r.fire()
	r.answer(feed.FeedQuotes, quotesReply(a, c.t, 0))
	// The next live refresh is asked for, and still in flight at m.
	c.t = r.due(feed.FeedQuotes)
	r.fire()
	live := r.take(feed.FeedQuotes)
	gen := a.wl().Query().Gen
	a.Update(runeKey('m'))
	if a.q.Mode != api.Delayed || a.wl().Query().Mode != api.Delayed || a.wl().Query().Gen == gen {
		t.Fatalf("mode: chain %s, watchlist %+v", a.q.Mode, a.wl().Query())
	}
	if a.feeds().InFlight(feed.FeedChain) || !r.due(feed.FeedChain).IsZero() || r.due(feed.FeedQuotes).IsZero() {
		t.Fatal("m fetched the hidden chain, or not the watchlist")
	}
	if !strings.Contains(ansi.Strip(a.drawAt(c.t)), "DELAYED 15m") || !strings.Contains(ansi.Strip(a.drawAt(c.t)), "8 pts a refresh") {
		t.Fatal("the title does not say delayed and its cost")
	}
	// The live reply that was in flight is dropped (its points counted).
	spent := a.link.Mon.Stats(c.t).SessionSpent
	live.Answer(quotesReply(a, c.t, 0))
	waitSpent(t, a, spent+4)
	r.pump()
	if a.wl().LastOK().IsZero() == false {
		t.Fatal("a reply for the old mode was applied")
	}
	// The watchlist is fetched again, delayed; then enter on QQQ: its
	// chain, delayed, fetched now.
	r.fire()
	if q := r.answer(feed.FeedQuotes, quotesReply(a, c.t, 1)); q.Query.Mode != api.Delayed {
		t.Fatalf("the watchlist fetched again for %+v", q.Query)
	}
	a.Update(keyDown)
	runCmd(a, press(a, tea.KeyPressMsg{Code: tea.KeyEnter}))
	if wlShown(a) || a.q.Symbol != "QQQ" || a.q.Mode != api.Delayed || !a.feeds().InFlight(feed.FeedChain) {
		t.Fatalf("enter: on %v, query %+v, chain in flight %v", wlShown(a), a.q, a.feeds().InFlight(feed.FeedChain))
	}
	if q := r.take(feed.FeedChain); q.Query.Symbol != "QQQ" || q.Query.Mode != api.Delayed {
		t.Fatalf("the chain asked for %+v", q.Query)
	}
}

// waitSpent waits, at most 5 s, until the monitor has booked want points
// this session: a reply it drops is booked on the request's goroutine and
// posted to nobody.
func waitSpent(t *testing.T, a *App, want int) {
	t.Helper()
	var got int
	for range 5000 {
		if got = a.link.Mon.Stats(a.sh.Now()).SessionSpent; got >= want {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if got != want {
		t.Fatalf("spent %d, want %d", got, want)
	}
}

// TestGoldenWatchlist snapshots the page as the App composes it, with
// the status bar, at the sizes a trader uses, with and without colour.
// Regenerate with go test ./model -run GoldenWatchlist -update.
func TestGoldenWatchlist(t *testing.T) {
	for _, tc := range []struct {
		w, h    int
		noColor bool
	}{{160, 48, false}, {80, 24, false}, {120, 40, true}} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if tc.noColor {
			name += "-nocolor"
		}
		t.Run(name, func(t *testing.T) {
			r, c, _ := watchApp(t, true)
			a := r.a
			a.resize(tc.w, tc.h)
			if tc.noColor {
				a.sh.Styles = theme.New(theme.Dark(), true)
			}
			// The page's feeds are fetched as the refresh key does, no
			// timer firing (no poll has run: the hourly rate is not known
			// yet): the quotes three times, then the events.
			a.fetchNow(feed.FeedEvents)
			for tick := range 3 {
				a.fetchNow(feed.FeedQuotes)
				r.answer(feed.FeedQuotes, quotesReply(a, c.t, tick))
			}
			day := a.wl().Query().Day(c.t)
			r.answer(feed.FeedEvents, feed.EventsMsg{Query: a.wl().Query(), Symbols: fourSymbols, Resp: okResp(15), At: c.t, Events: []api.CalendarEvent{
				{Kind: api.KindEarnings, Earnings: api.EarningsEvent{UnderlyingSymbol: "AAPL", ReportDate: day.AddDays(69), TimeOfDay: api.AfterClose}},
				{Kind: api.KindDividend, Dividend: api.DividendsEvent{UnderlyingSymbol: "AAPL", ExDividendDate: day.AddDays(80)}},
				{Kind: api.KindDividend, Dividend: api.DividendsEvent{UnderlyingSymbol: "SPY", ExDividendDate: day.AddDays(28)}},
			}})
			a.Update(keyDown)
			out := a.drawAt(c.t)
			golden.RequireEqual(t, []byte(out))
			plain := ansi.Strip(out)
			for _, want := range []string{"WATCHLIST", "[SANDBOX]", "SPY", "AAPL", "earn Jan28", "div Dec18", "GREEN", "pts"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the frame lacks %q:\n%s", want, plain)
				}
			}
			if tc.noColor && (strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;")) {
				t.Error("NO_COLOR frame carries colours")
			}
		})
	}
}

// typeKeys sends each rune of s as a key press, running what the page
// asks of the root (a: the prompt) as the program would.
func typeKeys(a *App, s string) {
	for _, r := range s {
		runCmd(a, press(a, runeKey(r)))
	}
}

// press is Update without its frame tick: the key is routed, then the
// monitor told what the screen wants now; the command is the routing's.
func press(a *App, msg tea.Msg) tea.Cmd {
	cmd := a.update(msg)
	a.syncFeeds()
	return cmd
}

// runCmd runs cmd as the program would, for the commands of the
// watchlist's routing: each must answer at once (no timer, no fetch: the
// monitor does those). What the page asks of the root is fed back.
func runCmd(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			runCmd(a, c)
		}
	case watchlist.Msg:
		press(a, m)
	}
}

// TestChainPromptCompletesFromTheWatchlist: the symbol prompt on the chain
// offers the watchlist's symbols after the recent ones.
func TestChainPromptCompletesFromTheWatchlist(t *testing.T) {
	c := &clock{t: testNow}
	a := New(offline(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark", Watchlist: []string{"XLE", "XLF"}}))
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	typeKeys(a, "/xl")
	if a.promptOpen() == nil {
		t.Fatal("no prompt")
	}
	a.promptOpen().SetSize(120, 1)
	if line := ansi.Strip(a.promptOpen().View()[0]); !strings.Contains(line, "XLE") || !strings.Contains(line, "XLF") {
		t.Fatalf("the prompt does not offer the watchlist: %q", line)
	}
}

// TestScannerOverTheWatchlist: S opens the scanner over the page, under
// its title and headings (a symbol picked there goes through openChain,
// as enter on a row does).
func TestScannerOverTheWatchlist(t *testing.T) {
	r, c, _ := watchApp(t, true)
	a := r.a
	r.fire()
	r.answer(feed.FeedQuotes, quotesReply(a, c.t, 0))
	press(a, runeKey('S'))
	if !a.scan.IsOpen() {
		t.Fatal("S did not open the scanner")
	}
	lines := splitLines(a.drawAt(c.t))
	if len(lines) != 48 || !strings.Contains(ansi.Strip(lines[0]), "WATCHLIST") || !strings.Contains(ansi.Strip(lines[1]), "SYMBOL") {
		t.Fatalf("the frame under the scanner:\n%s", ansi.Strip(strings.Join(lines, "\n")))
	}
	// esc closes it over the page, which kept polling under it.
	press(a, tea.KeyPressMsg{Code: tea.KeyEscape})
	if a.scan.IsOpen() || !wlShown(a) || r.due(feed.FeedQuotes).IsZero() {
		t.Fatalf("esc: scanner open %v, page %v, quotes due %v", a.scan.IsOpen(), wlShown(a), r.due(feed.FeedQuotes))
	}
}
