package watchlist

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
)

// screenPage is the watchlist page of syms following the watch screen's
// SPY, live, on top and focused at 120x39.
func screenPage(t *testing.T, syms ...string) *Page {
	t.Helper()
	sh := modeltest.Common(modeltest.Now)
	p := NewPage(sh, common.Config{Source: "SANDBOX", Watchlist: syms, Now: sh.Now})
	p.Update(common.QueryMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}})
	p.SetSize(120, 39)
	p.SetFocused(true)
	return p
}

// TestWatchlistPageFollowsTheScreensModeAndDay: the page takes the watch
// screen's mode and day with a generation of its own, and a new symbol
// on the screen leaves its query (and so its replies) as they are.
func TestWatchlistPageFollowsTheScreensModeAndDay(t *testing.T) {
	p := screenPage(t, "AAPL")
	q := p.Query()
	if q.Mode != api.Live || q.Symbol != "" || q.Gen == 0 {
		t.Fatalf("the page's query %+v", q)
	}
	p.Update(common.QueryMsg{Query: feed.Query{Symbol: "QQQ", Mode: api.Live, Gen: 2}})
	if p.Query() != q {
		t.Fatalf("another symbol changed the page's query: %+v, was %+v", p.Query(), q)
	}
	p.Update(common.QueryMsg{Query: feed.Query{Symbol: "QQQ", Mode: api.Delayed, Gen: 3}})
	if got := p.Query(); got.Mode != api.Delayed || got.Gen == q.Gen {
		t.Fatalf("the delayed mode: %+v", got)
	}
}

// TestWatchlistPageAsksTheRoot: what the page wants of the root comes
// back as an Action: the chain of a symbol (back to the screen), the
// symbol prompt to add one (whose pick is checked with the service, then added), the other mode,
// a refresh; its wants are hidden until the page shows.
func TestWatchlistPageAsksTheRoot(t *testing.T) {
	p := screenPage(t, "AAPL")
	if _, act := p.Update(OpenChainMsg{Symbol: "AAPL"}); act != (common.Back{Symbol: "AAPL"}) {
		t.Fatalf("open chain: %#v", act)
	}
	_, act := p.Update(AddSymbolMsg{})
	if ask, ok := act.(common.AskSymbol); !ok || !ask.Add || !slices.Equal(ask.Have, []string{"AAPL"}) || !p.Adding() {
		t.Fatalf("add: %#v", act)
	}
	if _, act := p.Update(common.PickSymbol{Symbol: "TSLA"}); act != nil || p.Checking() != "TSLA" || slices.Contains(p.Symbols(), "TSLA") || p.Adding() {
		t.Fatalf("the pick is not checked with the service before it is added: %#v %v", act, p.Symbols())
	}
	if w := p.Wants(common.Sight{})[0]; w.Feed != feed.FeedQuotes || !slices.Equal(w.Symbols, []string{"AAPL", "TSLA"}) {
		t.Fatalf("the quotes wanted while TSLA is checked: %+v", w)
	}
	if _, act := p.Update(common.PickSymbol{Symbol: "MSFT"}); act != (common.Back{Symbol: "MSFT"}) {
		t.Fatalf("a pick not for adding opens its chain: %#v", act)
	}
	_, act = p.Update(tea.KeyPressMsg{Code: 'm', Text: "m"})
	if cq, ok := act.(common.ChangeQuery); !ok || cq.Query.Mode != api.Delayed || cq.Query.Symbol != "SPY" {
		t.Fatalf("m: %#v", act)
	}
	_, act = p.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if r, ok := act.(common.Refresh); !ok || !slices.Equal(r.Feeds, []feed.Feed{feed.FeedQuotes}) {
		t.Fatalf("r: %#v", act)
	}
	// Whether the page shows is the root's to say (it hides the wants
	// of a page that does not: TestEachPageOnTopForAnHour).
	if !p.Covers() {
		t.Error("the page does not cover the watch screen: its feeds would be polled under it")
	}
	for _, w := range p.Wants(common.Sight{OnStack: true}) {
		if w.Hidden || w.Query != p.Query() {
			t.Errorf("%s on the page: hidden %v, query %+v", w.Feed, w.Hidden, w.Query)
		}
	}
	if st := p.Status(modeltest.Now); st.Shown != feed.FeedQuotes || st.Title != "chainwatch · watchlist" {
		t.Errorf("status %+v", st)
	}
}
