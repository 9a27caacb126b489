package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/prompt"
	"chainwatch/model/scanner"
)

// The replies the monitor posts, booked already, and what the screen does
// with each: the part it belongs to takes it, and what only the root
// knows follows (the recent symbols, a symbol not known, the flash).

// onFeed routes the monitor's messages and the screen's own timers of
// the feeds; ok is false for any other message.
func (a *App) onFeed(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case monitorMsg:
		cmd, _ := a.onFeed(msg.msg)
		return tea.Batch(cmd, listenCmd(a.ctx, a.link.sub)), true
	case expiryMsg:
		if msg.gen == a.link.expiryGen {
			a.link.sub.Refetch(feed.FeedChain)
		}
		return nil, true
	case feed.ChainMsg:
		return a.onChain(msg), true
	case feed.TermMsg:
		return a.onTerm(msg), true
	case feed.TapeMsg:
		a.w.tape.Apply(msg)
		return nil, true
	case feed.CalendarMsg:
		if a.w.cal.Apply(msg) {
			a.w.chain.SetEarnings(a.w.cal.NextEarnings(a.q.Day(a.sh.Now())))
		}
		return nil, true
	case feed.ExchangesMsg:
		a.w.tape.Update(msg)
		a.parts.contract.page.Update(msg)
		return nil, true
	case feed.ContractQuoteMsg:
		a.parts.contract.page.ApplyQuote(msg)
		return nil, true
	case feed.ContractTradesMsg:
		a.parts.contract.page.ApplyTrades(msg)
		return nil, true
	case feed.ContractTAQMsg:
		a.parts.contract.page.ApplyTAQ(msg)
		return nil, true
	case feed.TapeGreeksMsg:
		a.w.tape.ApplyGreeks(msg)
		return nil, true
	case feed.QuotesMsg, feed.EventsMsg:
		return a.onWatchlistMsg(msg), true
	case feed.FetchingMsg:
		return nil, true // a countdown ends: drawn again
	case scanner.DoneMsg:
		// The service charged the scan whatever the modal does now.
		a.link.mon.Outside(msg.Out.Resp)
		return a.onScanner(msg), true
	}
	return nil, false
}

func (a *App) onChain(m feed.ChainMsg) tea.Cmd {
	applied := a.w.chain.Apply(m)
	if a.w.chain.NoSuchSymbol() {
		a.noSuchSymbol()
		return nil
	}
	if !applied || m.Err != nil {
		return nil
	}
	a.w.tape.SetContract(a.w.chain.SelectedOSI())
	cmds := []tea.Cmd{a.flashDone()}
	if m.Expiry == 0 && m.Chain != nil && len(m.Chain.Options) > 0 && (len(a.syms.recent) == 0 || a.syms.recent[0] != a.q.Symbol) {
		cmds = append(cmds, a.remember(a.q.Symbol))
	}
	return tea.Batch(cmds...)
}

// onTerm applies a whole chain fetched for the term structure: it is the
// ladder's chain too (every expiry fresh), so the ladder takes it.
func (a *App) onTerm(m feed.TermMsg) tea.Cmd {
	if a.w.chain.Apply(m.ChainMsg) && m.Err == nil {
		a.w.tape.SetContract(a.w.chain.SelectedOSI())
	}
	if a.w.chain.NoSuchSymbol() {
		a.noSuchSymbol()
	}
	return nil
}

// noSuchSymbol says once that the service does not know the symbol (the
// monitor has stopped its feeds), with the nearest symbol the user may
// have meant; the symbol prompt refuses it from now on without asking
// the service again.
func (a *App) noSuchSymbol() {
	sym := a.q.Symbol
	if !slices.Contains(a.syms.unknown, sym) {
		a.syms.unknown = append(a.syms.unknown, sym)
	}
	a.w.tape.Stop("no such symbol: " + sym)
	a.w.cal.Stop("no such symbol: " + sym)
	a.scr.notice = "no such symbol: " + sym
	if near := config.NearestSymbol(sym, prompt.Known(a.known())); near != "" {
		a.scr.notice += "; did you mean " + near + "?"
	}
	a.scr.notice += " (" + a.sh.Keys.Symbol.Help().Key + " picks another)"
}

// contractCost is what the contract page's refreshes cost and how often
// the budget lets them run: "34 pts a refresh (trades 15 every 1m8s,
// quotes 15 every 1m8s, quote 4 every 36s)".
func (a *App) contractCost(now time.Time) string {
	if a.q.Historical(now) {
		return "a past day: fetched once, never polled"
	}
	total := 0
	var parts []string
	names := map[feed.Feed]string{feed.FeedContractQuote: "quote", feed.FeedContractTrades: "trades", feed.FeedContractTAQ: "quotes"}
	eps := map[feed.Feed]api.Endpoint{feed.FeedContractQuote: api.EndpointOptionQuotes,
		feed.FeedContractTrades: api.EndpointTradesWithGreeks, feed.FeedContractTAQ: api.EndpointTradesAndQuotes}
	for _, f := range contractFeeds {
		if f != feed.FeedContractQuote && a.parts.contract.page.NotEntitled() {
			continue
		}
		cost := api.Cost(eps[f], a.q.Mode, false)
		total += cost
		iv := a.feeds().Interval(f, now)
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
	return s
}
