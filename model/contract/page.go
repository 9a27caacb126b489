package contract

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/common"
)

// Page is the contract page over the watch screen: the Model, opened on
// the contract the screen asks for (common.OpenContract), with the
// screen's query and a generation of its own.
type Page struct {
	*Model
	screen feed.Query // the watch screen's query
	gen    uint64     // the page's generation: a reopened page drops the last one's replies
}

var _ common.Page = (*Page)(nil)

// Feeds are the page's feeds.
var Feeds = [...]feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}

// NewPage returns the page, shown when an OpenContract reaches it.
func NewPage(ctx context.Context, sh *common.Common, blockSize int64) *Page {
	return &Page{Model: New(ctx, sh, blockSize)}
}

// Update takes the page's keys and wheel while it is on top, and the
// contract to open, the query and the replies at any time.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	switch msg := msg.(type) {
	case common.QueryMsg:
		p.screen = msg.Query
	case common.OpenContract:
		o, err := api.ParseOSI(msg.OSI)
		if err != nil {
			return nil, common.Notice{Text: "no contract selected"}
		}
		p.gen++
		q := p.screen
		q.Gen = p.gen
		p.Open(feed.ContractQuery{Query: q, OSI: o})
	case common.DrawMsg:
		p.SetCost(p.cost(&msg.Feeds, p.sh.Now()))
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.MouseWheelMsg:
		if step := common.WheelStep(msg.Mouse()); step != 0 {
			p.Scroll(step)
		}
	case feed.ContractQuoteMsg, feed.ContractTradesMsg, feed.ContractTAQMsg, feed.ExchangesMsg:
		p.Model.Update(msg)
	}
	return nil, nil
}

// onKey: esc goes back (replies still in flight for the page are then
// dropped), refresh fetches the page now, the rest scroll its prints.
func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	keys := p.sh.Keys
	switch {
	case key.Matches(k, keys.Close):
		p.gen++
		return nil, common.Back{}
	case key.Matches(k, keys.Refresh):
		return nil, common.Refresh{Feeds: Feeds[:]}
	}
	p.SetFocused(true)
	p.Model.Update(k)
	return nil, nil
}

// SetFocused: the page's keys are its own whenever it is on top.
func (p *Page) SetFocused(bool) { p.Model.SetFocused(true) }

// Covers: the page fills the frame; the screen's feeds are not polled.
func (p *Page) Covers() bool { return true }

// Wants are the page's feeds while it is on the stack: closed, it
// forgets the contract's.
func (p *Page) Wants(s common.Sight) []feed.Want {
	if !s.OnStack {
		return nil
	}
	cq := p.Query()
	ws := make([]feed.Want, 0, len(Feeds))
	for _, f := range Feeds {
		ws = append(ws, feed.Want{Feed: f, Query: cq.Query, OSI: cq.OSI})
	}
	return ws
}

// Status counts the trades down (what moves there); the failures of the
// screen beneath are reported too.
func (p *Page) Status(now time.Time) common.Status {
	k := p.sh.Keys
	s, _ := p.status(now)
	return common.Status{
		Shown: feed.FeedContractTrades, Errs: []error{p.Err()}, Title: "chainwatch · " + p.OSI(),
		Ticks: strings.HasSuffix(s, " ago"), Below: true,
		Hint: k.Close.Help().Key + " back  " + k.Refresh.Help().Key + " refresh  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit",
	}
}

// cost is what the page's refreshes cost and how often the budget lets
// them run, the point first and the breakdown after, clauses apart by
// " · " so that a narrow page cuts between them: "34 pts a refresh ·
// quote 4 every 36s · trades 15 every 1m8s · quotes 15 every 1m8s", or
// "34 pts a refresh · paused until 09:30 ET (in 13h20m) · quote 4 · …".
func (p *Page) cost(snap *feed.Snapshot, now time.Time) string {
	q := p.screen
	if q.Historical(now) {
		return "a past day: fetched once, never polled"
	}
	total := 0
	var parts []string
	names := map[feed.Feed]string{feed.FeedContractQuote: "quote", feed.FeedContractTrades: "trades", feed.FeedContractTAQ: "quotes"}
	eps := map[feed.Feed]api.Endpoint{feed.FeedContractQuote: api.EndpointOptionQuotes,
		feed.FeedContractTrades: api.EndpointTradesWithGreeks, feed.FeedContractTAQ: api.EndpointTradesAndQuotes}
	for _, f := range Feeds {
		if f != feed.FeedContractQuote && p.NotEntitled() {
			continue
		}
		cost := api.Cost(eps[f], q.Mode, false)
		total += cost
		iv := snap.Feeds[f].Interval
		if iv <= 0 || !market.SessionLive(now, q.Mode) {
			parts = append(parts, fmt.Sprintf("%s %d", names[f], cost))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d every %s", names[f], cost, iv.Round(time.Second)))
	}
	head := []string{fmt.Sprintf("%d pts a refresh", total)}
	if !market.SessionLive(now, q.Mode) {
		head = append(head, market.PauseText(now, q.Mode))
	}
	return strings.Join(append(head, parts...), " · ")
}
