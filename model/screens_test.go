package model

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/link"
	"chainwatch/model/positions"
	"chainwatch/model/watchlist"
	strat "chainwatch/strategy"
	"chainwatch/ui"
	"chainwatch/vol"
)

// No screen panics and every frame fills the terminal exactly: each page
// and overlay, reached through the root as a trader reaches it (its key),
// drawn at the sizes a trader uses and through resizes between them, over
// a data state drawn at random (screens_gen_test.go). The data arrives
// as the monitor posts it (link.Msg), so the pages' own Update and View
// run, under the root's page stack and overlay slot.

// The pages, by the key that opens each from the watch screen.
var screenPages = []struct{ name, key string }{
	{"watch", ""}, {"vol", "v"}, {"contract", "enter"}, {"watchlist", "W"},
	{"positioning", "p"}, {"strategy", "T"}, {"positions", "P"}, {"alerts", "a"},
}

// The overlays, by the keys that open and fill each; "add" is the
// watchlist's add-symbol prompt (it opens on the watchlist page only).
var screenOverlays = []struct{ name, keys string }{
	{"none", ""}, {"help", "?"}, {"symbol", "/QQQ"}, {"symbol-long", "/ABCDEFGHIJKLMNOP"},
	{"date", "d2026-11-1"}, {"scanner", "S"}, {"alert", "A"}, {"add", "+XYZ"},
}

// The sizes a trader uses.
var screenSizes = [][2]int{{80, 24}, {100, 30}, {160, 48}, {250, 70}}

// screenCase is one drawing: a data state (its seed), a page, an overlay
// and the sizes it is drawn at, in order (a resize between each).
type screenCase struct {
	seed    uint64
	page    int
	overlay int
	sizes   [][2]int
	walk    int // how many random keys the page is given before drawing
}

func (c screenCase) String() string {
	return fmt.Sprintf("seed %d page %s overlay %s sizes %v walk %d",
		c.seed, screenPages[c.page].name, screenOverlays[c.overlay].name, c.sizes, c.walk)
}

// drawCase draws c, failing tb on a panic or a frame of the wrong size.
func drawCase(tb testing.TB, c screenCase) {
	tb.Helper()
	g := &gen{r: rand.New(rand.NewPCG(c.seed, 0x5c4ee5))}
	g.nullP = pick(g, 0.0, 0.1, 0.5, 1)
	g.wildP = pick(g, 0.0, 0.05, 0.3)
	sess := pick(g, sessions...)
	sym := g.symbol()
	root := sym
	if g.r.IntN(4) == 0 {
		root = pick(g, sym+"W", "ROOTLONGER", "")
	}
	now := sess.now
	var wl []string
	for range g.r.IntN(12) {
		wl = append(wl, g.symbol())
	}
	// A client of a port nobody listens on: the pages that fetch for
	// themselves (the strategy page's legs) are refused at once.
	client, cerr := api.NewClient(api.WithBaseURL("http://127.0.0.1:1"), api.WithRetryPolicy(api.RetryPolicy{MaxAttempts: 1}),
		api.WithClock(func() time.Time { return now }))
	if cerr != nil {
		tb.Fatal(cerr)
	}
	cfg := offline(tb, Config{
		Client: client, Source: pick(g, "SANDBOX", "LOCAL", "PRODUCTION"), Symbol: sym, Date: sess.date,
		Mode: pick(g, api.Live, api.Delayed), Now: func() time.Time { return now },
		Theme: pick(g, "dark", "light"), NoColor: g.r.IntN(4) == 0, NoFlash: g.r.IntN(2) == 0,
		Watchlist: wl, FirstRun: g.r.IntN(8) == 0,
	})
	a := New(cfg)
	defer a.Close()
	var stage string
	defer func() {
		if r := recover(); r != nil {
			tb.Fatalf("%s: %s: panic: %v\n%s", c, stage, r, debug.Stack())
		}
	}()
	step := func(what string, msg tea.Msg) {
		stage = what
		a.Update(msg)
		checkFrame(tb, c, what, a)
	}
	a.Init()
	step("size", tea.WindowSizeMsg{Width: c.sizes[0][0], Height: c.sizes[0][1]})

	// The data, as the monitor posts it.
	q := a.Query()
	day := q.Day(now)
	first := day
	if !sess.zero {
		first = day.AddDays(pick(g, 0, 3, 10))
	}
	ch := g.chain(pick(g, 0, 1, 2, 3, 3, 4, 4, 4)+boolInt(g.r.IntN(25) == 0)*5, sym, root, first, sess.zero)
	if g.r.IntN(25) == 0 {
		ch = g.chain(5, sym, root, first, false)
	}
	past := g.past()
	err := g.fetchErr()
	step("chain", link.Msg{Msg: feed.ChainMsg{Query: q, Chain: ch, Resp: &api.Response{Cost: 4}, Err: err, At: now, Past: past}})
	if g.r.IntN(2) == 0 {
		step("term", link.Msg{Msg: feed.TermMsg{ChainMsg: feed.ChainMsg{Query: q, Chain: ch, Resp: &api.Response{Cost: 40}, At: now, Past: past}}})
	}
	step("exchanges", feed.ExchangesMsg{List: []api.Exchange{{ID: 7, Code: "CBOE"}, {ID: 255, Code: strings.Repeat("X", 40)}}})
	step("tape", link.Msg{Msg: feed.TapeMsg{Query: q, Day: day, Over: sess.name != "open", Trades: g.trades(pick(g, 0, 1, 40, 700), root, first), At: now, Err: g.fetchErr()}})
	step("calendar", link.Msg{Msg: feed.CalendarMsg{Query: q, Events: g.events(sym, day, g.r.IntN(8)), At: now, Moves: g.moves(day)}})
	if len(wl) > 0 {
		var quotes []api.Symbol
		pasts := map[string]vol.Past{}
		for _, s := range wl {
			if g.r.IntN(5) > 0 {
				quotes = append(quotes, api.Symbol{Underlying: g.underlying(s, pick(g, 600.0, 0.5, 1e7)), ImpliedUnderlyingIndicator: pick(g, api.Null[api.Indicator]{}, api.Some(api.Green), api.Some(api.Indicator("weird")))})
			}
			if p := g.past(); p != nil {
				pasts[strings.ToUpper(s)] = *p
			}
		}
		step("quotes", link.Msg{Msg: feed.QuotesMsg{Query: q, Symbols: wl, Quotes: quotes, At: now, Past: pasts, Err: g.fetchErr()}})
		step("events", link.Msg{Msg: feed.EventsMsg{Query: q, Symbols: wl, Events: g.events(pick(g, wl...), day, g.r.IntN(6)), At: now}})
	}

	// The page, as its key opens it, with what only it is sent.
	p := screenPages[c.page]
	if p.key != "" {
		step("open "+p.name, pressKey(p.key))
	}
	switch p.name {
	case "contract":
		if ch != nil && len(ch.Options) > 0 {
			cq := a.cp().Query()
			one := *ch
			one.Options = ch.Options[:1]
			step("contract quote", link.Msg{Msg: feed.ContractQuoteMsg{Query: cq, Chain: &one, At: now, Err: g.fetchErr()}})
			step("contract trades", link.Msg{Msg: feed.ContractTradesMsg{Query: cq, Trades: g.greekTrades(pick(g, 0, 1, 300)), At: now}})
			step("contract taq", link.Msg{Msg: feed.ContractTAQMsg{Query: cq, Records: g.taq(pick(g, 0, 1, 500)), At: now}})
		}
	case "positions":
		step("positions", g.positions(ch, now))
	}
	keys := []string{"up", "down", "left", "right", "pgdown", "pgup", "[", "]", "tab", "c", "w", "t", "e", "i", "f", "g", "G", "o", "<", ">", "+", "-", "x", "r"}
	for i := range c.walk {
		step(fmt.Sprintf("key %d", i), pressKey(pick(g, keys...)))
	}

	// The overlay, opened and filled in.
	o := screenOverlays[c.overlay]
	switch {
	case o.name == "add":
		step("add", watchlist.AddSymbolMsg{})
		typeInto(step, o.keys[1:])
	case o.keys != "":
		step("open "+o.name, pressKey(o.keys[:1]))
		typeInto(step, o.keys[1:])
	}
	for i, sz := range c.sizes[1:] {
		step(fmt.Sprintf("resize %d", i+1), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
	}
	now = now.Add(90 * time.Second) // ages and countdowns move on
	step("a tick later", tea.FocusMsg{})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkFrame fails tb unless the frame is exactly the terminal's size
// (or says it is too small to be).
func checkFrame(tb testing.TB, c screenCase, what string, a *App) {
	tb.Helper()
	w, h := a.scr.width, a.scr.height
	if w == 0 || ui.TooSmall(w, h) {
		return
	}
	lines := strings.Split(a.View().Content, "\n")
	if len(lines) != h {
		tb.Fatalf("%s: %s: %d lines at %dx%d", c, what, len(lines), w, h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			tb.Fatalf("%s: %s: line %d is %d cells at %dx%d: %q", c, what, i, n, w, h, ansi.Strip(l))
		}
	}
}

// pressKey is a key as the terminal sends it, by the keymap's name.
func pressKey(name string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "pgup": tea.KeyPgUp,
		"pgdown": tea.KeyPgDown, "left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown}
	if code, ok := named[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: string(r)}
}

func typeInto(step func(string, tea.Msg), s string) {
	for i, r := range s {
		step(fmt.Sprintf("type %d", i), tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// greekTrades are a contract's prints with their greeks.
func (g *gen) greekTrades(n int) []api.OptionTradeWithGreeks {
	out := make([]api.OptionTradeWithGreeks, n)
	for i := range out {
		out[i] = api.OptionTradeWithGreeks{IV: g.f(0.2), Delta: g.f(0.5), Vega: g.f(0.1), Theta: g.f(-0.05), Gamma: g.f(0.01),
			DollarDelta: g.f(5000), UnderlyingBid: g.f(600), UnderlyingAsk: g.f(600),
			Trade: api.Trade{Size: pick(g, int64(1), 500, 1<<40), Price: g.f(1.25), Time: api.TimeOfDay(int64(i) * 1000 % int64(api.DayMillis)), SequenceNumber: int64(i + 1)}}
	}
	return out
}

// taq are a contract's quote changes and prints.
func (g *gen) taq(n int) []api.TAQRecord {
	out := make([]api.TAQRecord, n)
	for i := range out {
		at := pick(g, api.NewTimeOfDay(9, 30, 0, 0)+api.TimeOfDay(i*1000), 0, api.DayMillis-1)
		if g.r.IntN(3) == 0 {
			out[i] = api.TAQRecord{Kind: api.KindTrade, Trade: api.Trade{Size: 3, Price: g.f(1.25), Time: at, SequenceNumber: int64(i + 1)}}
			continue
		}
		out[i] = api.TAQRecord{Kind: api.KindOptionQuote, Quote: api.OptionQuote{Quote: api.Quote{Bid: g.f(1.2), Ask: g.f(1.3), NBBOBid: g.f(1.2), NBBOAsk: g.f(1.3), Time: at, SequenceNumber: int64(i + 1)}}}
	}
	return out
}

// positions are a few positions held in the chain's contracts (or a file
// that did not load).
func (g *gen) positions(ch *api.SymbolWithOptions, now time.Time) positions.LoadedMsg {
	if ch == nil || len(ch.Options) == 0 || g.r.IntN(5) == 0 {
		return positions.LoadedMsg{Err: fmt.Errorf("positions.toml line 3: %s", strings.Repeat("bad ", 40))}
	}
	var msg positions.LoadedMsg
	for id := range g.r.IntN(6) {
		o := pick(g, ch.Options...)
		legs := []string{fmt.Sprintf("%+dx%s@%.2f", pick(g, 1, -1, 100), o.Option, pick(g, 1.25, 0.01, 9999.99))}
		saved := config.Position{ID: id + 1, Name: pick(g, "", "iron condor "+strings.Repeat("x", 80)), Symbol: ch.Symbol, Opened: now.Add(-48 * time.Hour), Legs: legs}
		if g.r.IntN(3) == 0 {
			saved.Closed, saved.Close = now, []float64{pick(g, 2.5, 0)}
		}
		if p, err := strat.FromSaved(saved); err == nil {
			msg.Positions = append(msg.Positions, p)
		}
	}
	return msg
}

// screenCases are n cases drawn from seed: every page and overlay in
// turn, each at a random run of sizes.
func screenCases(seed uint64, n int) []screenCase {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]screenCase, n)
	for i := range out {
		c := screenCase{seed: r.Uint64(), page: i % len(screenPages), overlay: (i / len(screenPages)) % len(screenOverlays), walk: r.IntN(6)}
		for range 1 + r.IntN(4) {
			c.sizes = append(c.sizes, screenSizes[r.IntN(len(screenSizes))])
		}
		if r.IntN(10) == 0 {
			c.sizes = append(c.sizes, [2]int{80 + r.IntN(200), 24 + r.IntN(60)}, [2]int{r.IntN(90), r.IntN(30)})
		}
		out[i] = c
	}
	return out
}

// TestNoScreenPanics draws a bounded, seeded run of cases: every page
// with every overlay at least once each round of 64, under every kind
// of session. A failure names its case; FuzzScreens explores further.
func TestNoScreenPanics(t *testing.T) {
	n := 320
	if testing.Short() {
		n = 64
	}
	for i, c := range screenCases(20261124, n) {
		t.Run(fmt.Sprint(i), func(t *testing.T) { drawCase(t, c) })
	}
}

// FuzzScreens draws one case per input: a data state's seed, a page, an
// overlay and two sizes (a resize from the first to the second), and
// the number of keys the page is given.
func FuzzScreens(f *testing.F) {
	for i, c := range screenCases(7, 16) {
		f.Add(c.seed, uint8(c.page), uint8(c.overlay), uint8(i%4), uint8((i/4)%4), uint8(c.walk))
	}
	f.Fuzz(func(t *testing.T, seed uint64, page, overlay, from, to, walk uint8) {
		c := screenCase{seed: seed, page: int(page) % len(screenPages), overlay: int(overlay) % len(screenOverlays),
			sizes: [][2]int{screenSizes[int(from)%len(screenSizes)], screenSizes[int(to)%len(screenSizes)]}, walk: int(walk % 8)}
		drawCase(t, c)
	})
}
