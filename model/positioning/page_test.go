package positioning

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/modeltest"
)

// page is the page at w x h on SPY's query, fed a whole chain of 3
// expiries of 120 strikes and drawn once.
func page(t *testing.T, w, h int) *Page {
	t.Helper()
	p := NewPage(modeltest.Common(modeltest.Now))
	p.SetSize(w, h)
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	p.Update(common.QueryMsg{Query: q})
	p.Update(feed.ChainMsg{Query: q, Chain: modeltest.SynthChain(3, 120, 0), At: modeltest.Now})
	p.Update(common.DrawMsg{})
	return p
}

func exact(t *testing.T, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, ansi.StringWidth(l), w, ansi.Strip(l))
		}
	}
}

// TestPageViewIsItsSize: before its first frame, and after it at any
// size, the page's View is exactly its size; a resize without a frame
// is blank rather than the old size's lines.
func TestPageViewIsItsSize(t *testing.T) {
	p := NewPage(modeltest.Common(modeltest.Now))
	p.SetSize(80, 23)
	exact(t, p.View(), 80, 23)
	p = page(t, 160, 47)
	exact(t, p.View(), 160, 47)
	p.SetSize(100, 30)
	exact(t, p.View(), 100, 30)
	p.Update(common.DrawMsg{})
	exact(t, p.View(), 100, 30)
	if !strings.Contains(ansi.Strip(strings.Join(p.View(), "\n")), "SPY positioning  30 days") {
		t.Errorf("the page:\n%s", strings.Join(p.View(), "\n"))
	}
}

// TestPageScrollStops: the strikes scroll no further than the first and
// the last, and g brings spot's back to the middle.
func TestPageScrollStops(t *testing.T) {
	p := page(t, 80, 23)
	spot := p.center()
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	for range 500 {
		p.Update(up)
	}
	if p.center() != 0 {
		t.Fatalf("scrolled up to %d", p.center())
	}
	for range 1000 {
		p.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	if p.center() != len(p.rows)-1 || len(p.rows) != 120 {
		t.Fatalf("scrolled down to %d of %d", p.center(), len(p.rows))
	}
	p.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if p.center() != spot || spot == 0 {
		t.Fatalf("g: %d, spot's row %d", p.center(), spot)
	}
}

// TestPageFeeds: the page covers the tape; it takes the ladder's chain
// off the schedule only once it holds a whole chain, which a reply for
// another query, or of one expiry, is not.
func TestPageFeeds(t *testing.T) {
	p := NewPage(modeltest.Common(modeltest.Now))
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 2}
	p.Update(common.QueryMsg{Query: q})
	old := q
	old.Gen = 1
	p.Update(feed.ChainMsg{Query: old, Chain: modeltest.SynthChain(1, 10, 0)})
	p.Update(feed.ChainMsg{Query: q, Expiry: modeltest.SynthDay, Chain: modeltest.SynthChain(1, 10, 0)})
	var sight common.Sight
	if w := p.Wants(sight); !p.Covers() || p.Held() || len(w) != 2 || w[0].Feed != feed.FeedChain || w[0].Hidden || w[0].Expiry != 0 ||
		w[0].Query != q || w[1].Feed != feed.FeedTerm || !w[1].Hidden {
		t.Fatalf("nothing whole held: the whole chain is wanted by the chain feed: %+v", w)
	}
	p.Update(feed.TermMsg{ChainMsg: feed.ChainMsg{Query: q, Chain: modeltest.SynthChain(1, 10, 0), Resp: &api.Response{Cost: 4}}})
	if !p.Held() || p.paid != 4 || p.ladder {
		t.Fatalf("a whole chain fetched for the page: paid %d", p.paid)
	}
	if w := p.Wants(sight); len(w) != 1 || w[0].Feed != feed.FeedTerm || w[0].Hidden || w[0].Query != q {
		t.Fatalf("wants %+v", w)
	}
	p.Update(feed.ChainMsg{Query: q})
	if p.Held() || !p.noSuch {
		t.Fatal("a whole chain with nothing in it: the service does not know the symbol")
	}
}

// TestPageRefusesAPastDayRefresh: r on a past day's page fetches nothing
// and says why.
func TestPageRefusesAPastDayRefresh(t *testing.T) {
	p := NewPage(modeltest.Common(modeltest.Now))
	p.Update(common.QueryMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live, Date: api.NewDate(2026, 11, 18), Gen: 1}})
	_, act := p.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if n, ok := act.(common.Notice); !ok || !strings.Contains(n.Text, "past day") {
		t.Fatalf("r on a past day: %#v", act)
	}
	p.Update(common.QueryMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 2}})
	if _, act := p.Update(tea.KeyPressMsg{Code: 'r', Text: "r"}); act == nil {
		t.Fatal("r today asks for nothing")
	}
}
