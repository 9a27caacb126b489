package model

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/contract"
	"chainwatch/ui"
)

// contractFeeds are the contract page's feeds.
var contractFeeds = [...]feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}

// contractRoute is what the root keeps about the contract page: the page
// itself, whether it is shown, its generation and its catch-up counts.
type contractRoute struct {
	page    *contract.Model
	gen     uint64
	catchUp [feed.NumFeeds]int
}

// openContract shows the contract page of osi, the screen's feeds paused
// beneath it, and fetches the contract's snapshot, trades and quotes at
// once. A symbol that does not parse as OSI is a notice, not a page.
func (a *App) openContract(osi string) tea.Cmd {
	o, err := api.ParseOSI(osi)
	if err != nil {
		a.notice = "no contract selected"
		return nil
	}
	r := &a.contract
	r.gen++
	q := a.q
	q.Gen = r.gen
	r.page.Open(feed.ContractQuery{Query: q, OSI: o})
	a.push(contractPage{a})
	r.catchUp = [feed.NumFeeds]int{}
	a.notice = ""
	p := &a.poll
	for _, f := range contractFeeds {
		p.gen[f]++
		p.inflight[f] = 0
		p.last[f] = time.Time{}
	}
	p.sched.ResetFeeds(contractFeeds[:]...)
	a.poll.cond = a.conditions()
	cmds := []tea.Cmd{a.replan()}
	for _, f := range contractFeeds {
		cmds = append(cmds, a.fetch(f))
	}
	return tea.Batch(cmds...)
}

// closeContract goes back to the watch screen, which is fetched again at
// once where its data has aged past its interval. Replies still in
// flight for the page are booked and dropped.
func (a *App) closeContract() tea.Cmd {
	r := &a.contract
	a.pop()
	r.gen++
	for _, f := range contractFeeds {
		a.poll.gen[f]++
		a.poll.inflight[f] = 0
		a.poll.due[f] = time.Time{}
	}
	return a.replan()
}

// contractPage is the contract page over the watch screen.
type contractPage struct{ a *App }

func (c contractPage) key(k tea.KeyPressMsg) tea.Cmd    { return c.a.onContractKey(k) }
func (c contractPage) modal(tea.KeyPressMsg) bool       { return false }
func (c contractPage) act(common.Action) tea.Cmd        { return nil }
func (c contractPage) feeds(f *feed.Conditions)         { f.Contract = true }
func (c contractPage) shown() feed.Feed                 { return feed.FeedContractTrades } // what moves there
func (c contractPage) status(*ui.StatusData, time.Time) {}
func (c contractPage) help() [][]key.Binding            { return c.a.contract.page.FullHelp() }
func (c contractPage) title() string                    { return "chainwatch · " + c.a.contract.page.OSI() }
func (c contractPage) errs() []error {
	return append(watchScreen(c).errs(), c.a.contract.page.Err())
}
func (c contractPage) hint() string {
	k := c.a.sh.Keys
	return k.Close.Help().Key + " back  " + k.Refresh.Help().Key + " refresh  " + k.Help.Help().Key + " help  " + k.Quit.Help().Key + " quit"
}

// mouse: the wheel scrolls the page's prints.
func (c contractPage) mouse(m tea.Mouse, wheel bool) tea.Cmd {
	if step := wheelStep(m); wheel && step != 0 {
		c.a.contract.page.Scroll(step)
	}
	return nil
}

// draw is the page above the status bar.
func (c contractPage) draw(now time.Time) string {
	a := c.a
	lay := a.layout()
	page := ui.Rect{W: a.width, H: max(lay.Status.Y, 0)}
	return ui.Compose(a.width, a.height, []ui.Pane{
		{R: page, Lines: a.contract.page.View()},
		{R: lay.Status, Lines: []string{a.statusLine(lay.Status.W, now)}},
	}, a.sh.Styles)
}

// selectedContract is what enter opens: the ladder's contract under the
// cursor (the side it is on), or the tape's selected print.
func (a *App) selectedContract() string {
	if a.focus == paneTape && a.showTape {
		return a.tape.SelectedOSI()
	}
	return a.chain.SelectedOSI()
}

// onContractKey routes a key while the page is shown: esc goes back,
// refresh fetches the page now, the rest scroll its prints.
func (a *App) onContractKey(k tea.KeyPressMsg) tea.Cmd {
	keys := a.sh.Keys
	switch {
	case key.Matches(k, keys.Close):
		return a.closeContract()
	case key.Matches(k, keys.Refresh):
		var cmds []tea.Cmd
		for _, f := range contractFeeds {
			if a.poll.inflight[f] == 0 {
				cmds = append(cmds, a.fetch(f))
			}
		}
		return tea.Batch(cmds...)
	}
	a.contract.page.SetFocused(true)
	a.contract.page.Update(k)
	return nil
}

// settleContract books a reply of the page's feed f: the points always,
// the rest only when it is for the contract shown.
func (a *App) settleContract(f feed.Feed, q feed.ContractQuery, m replyInfo) bool {
	if !onTop[contractPage](a) || q.Gen != a.contract.gen {
		a.poll.sched.Spend(m.resp)
		return false
	}
	if a.poll.inflight[f] > 0 {
		a.poll.inflight[f]--
	}
	a.poll.last[f] = m.at
	err := m.err
	if api.IsNoData(err) || feed.NotEntitled(err) {
		err = nil // an answer: nothing yet, or nothing for this account (not retried)
	}
	a.poll.sched.Observe(f, m.resp, err, m.at)
	return true
}

// onContractReply applies a reply of the page and plans the feed's next
// fetch: at once after a full page (more is waiting), up to a few pages
// back to back, else when the scheduler says.
func (a *App) onContractReply(f feed.Feed, q feed.ContractQuery, info replyInfo, full bool, apply func() bool) tea.Cmd {
	if !a.settleContract(f, q, info) {
		return nil
	}
	r := &a.contract
	if !apply() || info.err != nil || !full || r.catchUp[f] >= config.ContractMaxCatchUp {
		r.catchUp[f] = 0
		a.refreshContractCost()
		return a.plan(f)
	}
	r.catchUp[f]++
	return a.planAfter(f, time.Time{})
}

func (a *App) onContractQuote(m feed.ContractQuoteMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractQuote, m.Query, replyInfo{m.Resp, m.Err, m.At}, false,
		func() bool { return a.contract.page.ApplyQuote(m) })
}

func (a *App) onContractTrades(m feed.ContractTradesMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractTrades, m.Query, replyInfo{m.Resp, m.Err, m.At}, m.Full,
		func() bool { return a.contract.page.ApplyTrades(m) })
}

func (a *App) onContractTAQ(m feed.ContractTAQMsg) tea.Cmd {
	return a.onContractReply(feed.FeedContractTAQ, m.Query, replyInfo{m.Resp, m.Err, m.At}, m.Full,
		func() bool { return a.contract.page.ApplyTAQ(m) })
}

// refreshContractCost tells the page what its refreshes cost and how
// often the budget lets them run: "34 pts a refresh (trades 15 every
// 1m8s, quotes 15 every 1m8s, quote 4 every 36s)".
func (a *App) refreshContractCost() {
	now := a.sh.Now()
	c := a.poll.cond
	if a.q.Historical(now) {
		a.contract.page.SetCost("a past day: fetched once, never polled")
		return
	}
	total := 0
	var parts []string
	names := map[feed.Feed]string{feed.FeedContractQuote: "quote", feed.FeedContractTrades: "trades", feed.FeedContractTAQ: "quotes"}
	eps := map[feed.Feed]api.Endpoint{feed.FeedContractQuote: api.EndpointOptionQuotes,
		feed.FeedContractTrades: api.EndpointTradesWithGreeks, feed.FeedContractTAQ: api.EndpointTradesAndQuotes}
	for _, f := range contractFeeds {
		if f != feed.FeedContractQuote && a.contract.page.NotEntitled() {
			continue
		}
		cost := api.Cost(eps[f], a.q.Mode, false)
		total += cost
		iv := a.poll.sched.Interval(f, c, now)
		if iv <= 0 || !feed.SessionLive(now, a.q.Mode) {
			parts = append(parts, fmt.Sprintf("%s %d", names[f], cost))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d every %s", names[f], cost, iv.Round(time.Second)))
	}
	s := fmt.Sprintf("%d pts a refresh (%s)", total, strings.Join(parts, ", "))
	if !feed.SessionLive(now, a.q.Mode) {
		s += "; " + feed.PauseText(now, a.q.Mode)
	}
	a.contract.page.SetCost(s)
}

// fetchTapeGreeks asks for the greeks of the next contract on the tape
// that lacks them; nil when every print on screen has them.
func (a *App) fetchTapeGreeks() tea.Cmd {
	osi, from, minT, ok := a.tape.NextGreeks()
	if !ok || a.tapeDay == 0 {
		return nil
	}
	ctx, src, q, day := a.ctx, a.sh.Source(), a.q, a.tapeDay
	return func() tea.Msg { return src.TapeGreeks(ctx, q, osi, day, from, minT) }
}

// onTapeGreeks fills the tape's greeks columns; a refusal for want of the
// subscription stops their feed (the conditions change).
func (a *App) onTapeGreeks(m feed.TapeGreeksMsg) tea.Cmd {
	err := m.Err
	if feed.NotEntitled(err) {
		err = nil
	}
	if !a.settle(feed.FeedTapeGreeks, m.Query, replyInfo{m.Resp, err, m.At}) {
		return nil
	}
	a.tape.ApplyGreeks(m)
	if !a.tape.GreeksWanted() {
		return a.replan()
	}
	return a.plan(feed.FeedTapeGreeks)
}
