package contract

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// openOn opens the page on SPY's busiest contract of the day's expiry in
// a sandbox with cfg, at 80x24 less the status bar.
func openOn(t *testing.T, cfg sandbox.Config, date api.Date) *Model {
	t.Helper()
	sh := modeltest.Common(modeltest.Now)
	sh.Client = modeltest.StartSandbox(t, cfg)
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Date: date, Gen: 1}
	m := sh.Source().Chain(context.Background(), q, 0)
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	var best api.OptionData
	for _, o := range m.Chain.Options {
		if o.Expiry == m.Chain.Options[0].Expiry && o.Volume.Or(0) > best.Volume.Or(0) {
			best = o
		}
	}
	osi, _ := api.ParseOSI(best.Option)
	p := New(context.Background(), sh, 100)
	p.Open(feed.ContractQuery{Query: q, OSI: osi})
	p.SetSize(80, 23)
	p.SetFocused(true)
	return p
}

// run fetches every feed of the page once and applies the replies.
func run(p *Model) {
	for _, f := range []feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ} {
		if cmd := p.Fetch(f); cmd != nil {
			p.Update(cmd())
		}
	}
}

// TestPageWithoutSubscription: without OPRA the live trades and quotes
// are refused; the page shows the contract's quote, says what is missing
// and how to see trades anyway, asks for them no more, and the status bar
// is not handed the refusal as an error.
func TestPageWithoutSubscription(t *testing.T) {
	p := openOn(t, sandbox.Config{Entitlements: []sandbox.Entitlement{}}, 0)
	run(p)
	if !p.NotEntitled() {
		t.Fatal("the refusal was not recognised")
	}
	if p.Fetch(feed.FeedContractTrades) != nil || p.Fetch(feed.FeedContractTAQ) != nil {
		t.Error("trades or quotes are asked for again")
	}
	if p.Fetch(feed.FeedContractQuote) == nil {
		t.Error("the quote is no longer fetched")
	}
	if p.Err() != nil {
		t.Errorf("Err = %v, want nil: the page says it", p.Err())
	}
	frame := ansi.Strip(strings.Join(p.View(), "\n"))
	for _, want := range []string{p.OSI(), "Bid ", "IV ", "OPRA", "past day", "no chart"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the page lacks %q:\n%s", want, frame)
		}
	}
}

// TestPageHistoricalDay: a past day shows that day's trades, its session
// label, and the whole day on the time axis.
func TestPageHistoricalDay(t *testing.T) {
	day := api.NewDate(2026, 11, 19)
	p := openOn(t, sandbox.Config{}, day)
	run(p)
	if p.Held() == 0 || p.Quotes() == 0 {
		t.Fatalf("held %d trades and %d quotes of %s", p.Held(), p.Quotes(), day)
	}
	for _, tr := range p.trades.Trades() {
		if tr.Time > market.SessionClose(day) {
			t.Fatalf("a trade at %s, after the close", tr.Time)
		}
	}
	frame := ansi.Strip(strings.Join(p.View(), "\n"))
	if !strings.Contains(frame, "Thu Nov 19 · end of day") || !strings.Contains(frame, "15:") {
		t.Errorf("the page does not show the past day whole:\n%s", frame)
	}
	lines := p.View()
	if len(lines) != 23 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 80 {
			t.Fatalf("line %d is %d wide", i, w)
		}
	}
}

// TestPageDropsLateReplies: a reply for the contract shown before, or a
// page that does not start where the held trades end, changes nothing.
func TestPageDropsLateReplies(t *testing.T) {
	p := openOn(t, sandbox.Config{}, 0)
	q := p.Query()
	old := q
	old.Gen--
	tr := api.OptionTradeWithGreeks{}
	tr.SequenceNumber, tr.Size = 5, 1
	if p.ApplyTrades(feed.ContractTradesMsg{Query: old, Trades: []api.OptionTradeWithGreeks{tr}}) {
		t.Error("a reply for another contract was applied")
	}
	if !p.ApplyTrades(feed.ContractTradesMsg{Query: q, Trades: []api.OptionTradeWithGreeks{tr}}) || p.Held() != 1 {
		t.Fatal("the first page was not applied")
	}
	if p.ApplyTrades(feed.ContractTradesMsg{Query: q, From: 0, Trades: []api.OptionTradeWithGreeks{tr}}) || p.Held() != 1 {
		t.Error("a second first page was applied")
	}
	// Scrolling keys move the prints, within what is held.
	p.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if p.scroll != 0 {
		t.Errorf("scrolled to %d with one print", p.scroll)
	}
}
