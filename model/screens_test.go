package model

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/link"
	"chainwatch/model/watchlist"
	"chainwatch/vol"
)

// No screen panics and every frame fills the terminal exactly: each page
// and overlay, reached through the root as a trader reaches it (its key),
// drawn at the sizes a trader uses and through resizes between them, over
// a data state drawn at random (screens_gen_test.go). The data arrives
// as the monitor posts it (link.Msg), so the pages' own Update and View
// run, under the root's page stack and overlay slot.

// The pages, by the key that opens each from the watch screen.
var screenPages = []struct {
	name, key string
	id        common.PageID
}{
	{"watch", "", common.PageWatch}, {"vol", "v", common.PageVol}, {"contract", "enter", common.PageContract},
	{"watchlist", "W", common.PageWatchlist}, {"positioning", "p", common.PagePositioning},
	{"strategy", "T", common.PageStrategy}, {"positions", "P", common.PagePositions}, {"alerts", "a", common.PageAlerts},
}

// The overlays, by the keys that open and fill each; "add" is the
// watchlist's add-symbol prompt (it opens on the watchlist page only).
var screenOverlays = []struct{ name, keys string }{
	{"none", ""}, {"help", "?"}, {"symbol", "/QQQ"}, {"symbol-long", "/ABCDEFGHIJKL"},
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

// reached is what a case got to show: the page on top once its key was
// pressed, and whether the overlay opened.
type reached struct {
	page    common.PageID
	overlay bool
}

// drawCase draws c, failing tb on a panic or a frame of the wrong size.
func drawCase(tb testing.TB, c screenCase) (got reached) {
	tb.Helper()
	g := &gen{r: rand.New(rand.NewPCG(c.seed, 0x5c4ee5))}
	g.nullP = pick(g, 0.0, 0.1, 0.5, 1)
	g.wildP = pick(g, 0.0, 0.05, 0.3)
	sess := pick(g, sessions...)
	sym := g.symbol()
	// The options' root: the symbol's when it can be one, else one of
	// the roots the OSI allows; now and then one it does not (the
	// contract page then has nothing to open).
	root := pick(g, "SPXW", "BRKB", "ABCDEF")
	if _, err := api.NewOSI(sym, api.NewDate(2026, 12, 18), api.Call, 600); err == nil && g.r.IntN(3) > 0 {
		root = sym
	}
	if g.r.IntN(8) == 0 {
		root = pick(g, "ROOTLONGER", "", "A.B")
	}
	now := sess.now
	var wl []string
	for range g.r.IntN(12) {
		wl = append(wl, g.symbol())
	}
	// The monitor's goroutines read the clock while the test moves it.
	clock := &caseClock{t: now}
	// A client of a port nobody listens on: the pages that fetch for
	// themselves (the strategy page's legs) are refused at once.
	client, cerr := api.NewClient(api.WithBaseURL("http://127.0.0.1:1"), api.WithRetryPolicy(api.RetryPolicy{MaxAttempts: 1}),
		api.WithClock(clock.Now))
	if cerr != nil {
		tb.Fatal(cerr)
	}
	cfg := offline(tb, Config{
		Client: client, Source: pick(g, "SANDBOX", "LOCAL", "PRODUCTION"), Symbol: sym, Date: sess.date,
		Mode: pick(g, api.Live, api.Delayed), Now: clock.Now,
		Theme: pick(g, "dark", "light"), NoColor: g.r.IntN(4) == 0, NoFlash: g.r.IntN(2) == 0,
		Watchlist: wl, FirstRun: g.r.IntN(8) == 0, NoBell: true, Scans: g.scans(),
	})
	cfg.Alerts = g.alerts(tb, cfg, sym, osi(root, api.Today(now).AddDays(30), api.Call, 600), now)
	a := New(cfg)
	defer a.Close()
	var stage string
	// A panic still fails the test: this only names the case and the
	// stage it happened at, for a seed to replay.
	defer func() {
		if r := recover(); r != nil {
			tb.Fatalf("%s: %s: panic: %v\n%s", c, stage, r, debug.Stack())
		}
	}()
	step := func(what string, msg tea.Msg) {
		stage = what
		a.Update(msg)
	}
	// Every step draws (Update renders the frame); the frame's size is
	// measured after each stage, which costs more than drawing it.
	look := func() { checkFrame(tb, c, stage, a) }
	a.Init()
	step("size", tea.WindowSizeMsg{Width: c.sizes[0][0], Height: c.sizes[0][1]})
	look()

	// The data, as the monitor posts it.
	q := a.Query()
	day := q.Day(now)
	first := day
	if !sess.zero {
		first = day.AddDays(pick(g, 0, 3, 10))
	}
	// The pages opened from a contract under the cursor get a chain with
	// contracts more often: their cases are otherwise the watch screen's.
	shapes, err := []int{0, 1, 2, 3, 3, 4, 4, 4}, g.fetchErr()
	if p := screenPages[c.page].name; p == "contract" || p == "strategy" {
		shapes = []int{2, 3, 4, 4}
		if g.r.IntN(5) > 0 {
			err = nil
		}
	}
	shape := pick(g, shapes...)
	if g.r.IntN(25) == 0 {
		shape = 5
	}
	ch := g.chain(shape, sym, root, first, sess.zero && shape != 5)
	past := g.past()
	step("chain", link.Msg{Msg: feed.ChainMsg{Query: q, Chain: ch, Resp: &api.Response{Cost: 4}, Err: err, At: now, Past: past}})
	if g.r.IntN(2) == 0 {
		step("term", link.Msg{Msg: feed.TermMsg{ChainMsg: feed.ChainMsg{Query: q, Chain: ch, Resp: &api.Response{Cost: 40}, At: now, Past: past}}})
	}
	step("exchanges", feed.ExchangesMsg{List: []api.Exchange{{ID: 7, Code: "CBOE"}, {ID: 255, Code: strings.Repeat("X", 40)}}})
	step("tape", link.Msg{Msg: feed.TapeMsg{Query: q, Day: day, Over: sess.name != "open", Trades: g.trades(pick(g, 0, 1, 40, 700), root, first), At: now, Err: g.fetchErr()}})
	step("calendar", link.Msg{Msg: feed.CalendarMsg{Query: q, Events: g.events(sym, day, g.r.IntN(8)), At: now, Moves: g.moves(day)}})
	look()
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
		look()
	}

	// The page, as its key opens it, with what only it is sent.
	p := screenPages[c.page]
	if p.key != "" {
		step("open "+p.name, pressKey(p.key))
		look()
	}
	got.page = a.topID()
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
	case "strategy":
		if m, ok := g.ticket(ch); ok {
			step("ticket", m)
		}
	}
	// The legs the strategy and positions pages mark, as their job's run
	// brings them: the chain, or its failure.
	for _, j := range jobsOf(a) {
		res := feed.LegsResult{{Symbol: sym, Chain: ch, At: now, Err: g.fetchErr()}}
		step("legs", link.Msg{Msg: feed.JobMsg{Name: j.Name, JobResult: feed.JobResult{Value: res}, At: now, Every: time.Minute, Next: now.Add(time.Minute)}})
	}
	for i := range c.walk {
		step(fmt.Sprintf("key %d", i), pressKey(pick(g, pageKeys...)))
	}
	look()

	// The overlay, opened and filled in.
	o := screenOverlays[c.overlay]
	switch {
	case o.name == "add":
		step("add", watchlist.AddSymbolMsg{})
		got.overlay = a.overlay != nil
		typeInto(step, o.keys[1:])
	case o.keys != "":
		step("open "+o.name, pressKey(o.keys[:1]))
		got.overlay = a.overlay != nil
		look()
		typeInto(step, o.keys[1:])
	}
	if o.keys != "" {
		for i := range c.walk {
			step(fmt.Sprintf("overlay key %d", i), pressKey(pick(g, overlayKeys...)))
		}
		look()
	}
	for i, sz := range c.sizes[1:] {
		step(fmt.Sprintf("resize %d", i+1), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		look()
	}
	now = now.Add(90 * time.Second) // ages and countdowns move on
	clock.set(now)
	step("a tick later", tea.FocusMsg{})
	look()
	return got
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
			c.sizes = append(c.sizes, [2]int{80 + r.IntN(600), 24 + r.IntN(100)}, [2]int{r.IntN(90), r.IntN(30)})
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
	pages := map[string]int{}
	overlays := map[string]int{}
	for i, c := range screenCases(20261124, n) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := drawCase(t, c)
			if got.page == screenPages[c.page].id {
				pages[screenPages[c.page].name]++
			}
			if got.overlay {
				overlays[screenOverlays[c.overlay].name]++
			}
		})
	}
	t.Logf("%d cases; reached, by page: %v; overlays opened: %v", n, pages, overlays)
	// The run must not pass by missing what it is for: every page is
	// reached and every overlay opens in some case.
	for _, p := range screenPages {
		if pages[p.name] == 0 {
			t.Errorf("no case reached the %s page", p.name)
		}
	}
	for _, o := range screenOverlays[1:] {
		if overlays[o.name] == 0 {
			t.Errorf("no case opened the %s overlay", o.name)
		}
	}
}

// FuzzScreens draws one case per input: a data state's seed, a page, an
// overlay, a size, and the number of keys the page is given.
func FuzzScreens(f *testing.F) {
	for i, c := range screenCases(7, 16) {
		f.Add(c.seed, uint8(c.page), uint8(c.overlay), uint8(i), uint8(c.walk))
	}
	f.Fuzz(func(t *testing.T, seed uint64, page, overlay, size, walk uint8) {
		drawCase(t, fuzzCase(seed, page, overlay, size, walk))
	})
}

// fuzzCase is one page, one overlay and one size: what the fuzzer varies
// per input, kept cheap (an input is drawn thousands of times a run).
func fuzzCase(seed uint64, page, overlay, size, walk uint8) screenCase {
	return screenCase{seed: seed, page: int(page) % len(screenPages), overlay: int(overlay) % len(screenOverlays),
		sizes: [][2]int{screenSizes[int(size)%len(screenSizes)]}, walk: int(walk % 4)}
}

// caseClock is a case's clock, read by the monitor's goroutines and moved
// by the test's.
type caseClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *caseClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *caseClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
