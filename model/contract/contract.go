// Package contract is the contract page: one option's quote and greeks,
// its intraday chart (NBBO mid, prints, IV), its time and sales with the
// IV and greeks of every print, and the day's summary. It holds the
// page's data and says what to fetch next; the root owns the timers and
// the scheduler, and routes the replies here.
package contract

import (
	"context"
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/tas"
	"chainwatch/theme"
	"chainwatch/ui"

	tea "charm.land/bubbletea/v2"
)

// Model is the contract page.
type Model struct {
	ctx       context.Context
	sh        *common.Common
	q         feed.ContractQuery
	blockSize int64
	common.Frame

	quote    ui.Contract
	spot     float64
	hasQuote bool

	trades *tas.Series
	quotes *tas.Quotes
	sum    tas.Summary
	sweep  []bool // tas.InSweep of trades
	// version counts changes of the chart's data, so the chart is drawn
	// again only when it or the size changed.
	version  int
	chart    []string
	chartKey [3]int
	// chartStyles drew the chart: a new theme (the terminal's background
	// arrived) draws it again.
	chartStyles *theme.Styles
	exchanges   [256]string

	scroll int // prints skipped from the newest
	page   int

	lastOK      [numFeeds]time.Time
	err         [numFeeds]error
	errAt       [numFeeds]time.Time
	loading     bool
	notEntitled bool
	cost        string
}

// The page's feeds, as indexes of its own state.
const (
	fQuote = iota
	fTrades
	fTAQ
	numFeeds
)

var feedOf = [numFeeds]feed.Feed{feed.FeedContractQuote, feed.FeedContractTrades, feed.FeedContractTAQ}

// New returns an empty page; Open shows a contract on it. Prints of at
// least blockSize contracts are blocks.
func New(ctx context.Context, sh *common.Common, blockSize int64) *Model {
	return &Model{ctx: ctx, sh: sh, blockSize: blockSize, trades: tas.NewSeries(), quotes: tas.NewQuotes(),
		spot: math.NaN(), page: 10, quote: blankQuote()}
}

func blankQuote() ui.Contract {
	n := math.NaN()
	return ui.Contract{Bid: n, Ask: n, Mid: n, Last: n, Open: n, High: n, Low: n, PrevClose: n,
		IV: n, Delta: n, Gamma: n, Theta: n, Vega: n, Rho: n, BidSize: -1, AskSize: -1, Volume: -1, OI: -1, Trades: -1}
}

// Open shows q's contract, forgetting the last one's data. q.Gen must be
// new: replies for the last contract are then dropped.
func (m *Model) Open(q feed.ContractQuery) {
	m.q = q
	m.quote, m.spot, m.hasQuote = blankQuote(), math.NaN(), false
	m.trades.Reset()
	m.quotes.Reset()
	m.sum, m.sweep = tas.Summarize(nil, m.blockSize), nil
	m.scroll, m.version, m.chart = 0, m.version+1, nil
	m.lastOK, m.err, m.errAt = [numFeeds]time.Time{}, [numFeeds]error{}, [numFeeds]time.Time{}
	m.loading, m.notEntitled = true, false
}

// Query is the contract shown.
func (m *Model) Query() feed.ContractQuery { return m.q }

// OSI is the contract shown, in its canonical form.
func (m *Model) OSI() string { return m.q.OSI.String() }

// NotEntitled reports that the account may not see this day's time and
// sales: the trades and the chart are not fetched again.
func (m *Model) NotEntitled() bool { return m.notEntitled }

// SetCost is what the page's refreshes cost, as the root's scheduler
// knows it ("34 pts a refresh · trades every 67s").
func (m *Model) SetCost(s string) { m.cost = s }

// SetExchanges names exchange ids by their codes (the reference table).
func (m *Model) SetExchanges(list []api.Exchange) {
	for _, x := range list {
		m.exchanges[x.ID] = x.Code
	}
}

// Fetch is the request of feed f now, nil when there is nothing to ask:
// time and sales the account is not entitled to. Each asks only for what
// is not held: from one past the last sequence number, no earlier than
// its time.
func (m *Model) Fetch(f feed.Feed) tea.Cmd {
	ctx, src, q := m.ctx, m.sh.Source(), m.q
	switch f {
	case feed.FeedContractQuote:
		return func() tea.Msg { return src.ContractQuote(ctx, q) }
	case feed.FeedContractTrades:
		if m.notEntitled {
			return nil
		}
		from, minT, _ := m.trades.Next()
		return func() tea.Msg { return src.ContractTrades(ctx, q, from, minT) }
	case feed.FeedContractTAQ:
		if m.notEntitled {
			return nil
		}
		from, minT, _ := m.quotes.Next()
		return func() tea.Msg { return src.ContractTAQ(ctx, q, from, minT) }
	}
	return nil
}

// ApplyQuote takes the contract's snapshot; false when it is for another
// contract. A failure keeps what is shown.
func (m *Model) ApplyQuote(msg feed.ContractQuoteMsg) bool {
	if msg.Query.Gen != m.q.Gen {
		return false
	}
	if m.failed(fQuote, msg.Err, msg.At) {
		return true
	}
	if msg.Chain != nil {
		m.spot = msg.Chain.Underlying.Spot()
		for i := range msg.Chain.Options {
			o := &msg.Chain.Options[i]
			if k, err := api.ParseOSI(o.Option); err == nil && k == m.q.OSI {
				m.quote, m.hasQuote = quoteOf(o), true
			}
		}
	}
	return true
}

// ApplyTrades takes a page of trades with greeks; false when it is for
// another contract or does not start where the held trades end (a
// second fetch from the same point answered after the first).
func (m *Model) ApplyTrades(msg feed.ContractTradesMsg) bool {
	if msg.Query.Gen != m.q.Gen {
		return false
	}
	if from, _, _ := m.trades.Next(); msg.From != from {
		return false
	}
	if m.failed(fTrades, msg.Err, msg.At) {
		return true
	}
	page := make([]tas.Trade, len(msg.Trades))
	for i := range msg.Trades {
		page[i] = tas.FromGreeks(&msg.Trades[i])
	}
	if added := m.trades.Add(page); added > 0 {
		if m.scroll > 0 {
			m.scroll += added // keep the prints the user scrolled to in place
		}
		all := m.trades.Trades()
		m.sum = tas.Summarize(all, m.blockSize)
		m.sweep, _, _ = tas.InSweep(all)
		m.version++
	}
	return true
}

// ApplyTAQ takes a page of NBBO changes for the chart.
func (m *Model) ApplyTAQ(msg feed.ContractTAQMsg) bool {
	if msg.Query.Gen != m.q.Gen {
		return false
	}
	if from, _, _ := m.quotes.Next(); msg.From != from {
		return false
	}
	if m.failed(fTAQ, msg.Err, msg.At) {
		return true
	}
	if m.quotes.AddTAQ(msg.Records) > 0 {
		m.version++
	}
	return true
}

// failed books a reply's outcome for feed i and reports whether it was a
// failure (a 204 is an answer: nothing yet). A refusal for want of the
// subscription stops the time and sales for this contract.
func (m *Model) failed(i int, err error, at time.Time) bool {
	m.loading = false
	if err != nil && !api.IsNoData(err) {
		if i != fQuote && feed.NotEntitled(err) {
			m.notEntitled = true
			m.version++
		}
		m.err[i], m.errAt[i] = err, at
		return true
	}
	m.lastOK[i], m.err[i], m.errAt[i] = at, nil, time.Time{}
	return false
}

// Err is the newest failure of the page's feeds not followed by a
// success of the same feed, with its time; nil when all are well. A
// missing subscription is not an error to repeat in the status bar: the
// page says it where the trades would be.
func (m *Model) Err() error {
	var last error
	var at time.Time
	for i := range numFeeds {
		if m.err[i] == nil || i != fQuote && feed.NotEntitled(m.err[i]) {
			continue
		}
		if last == nil || m.errAt[i].After(at) {
			last, at = m.err[i], m.errAt[i]
		}
	}
	return feed.Failed(last, at)
}

// Held is the number of trades held; Summary their figures.
func (m *Model) Held() int            { return m.trades.Len() }
func (m *Model) Summary() tas.Summary { return m.sum }
func (m *Model) Quotes() int          { return len(m.quotes.All()) }
func (m *Model) LastOK(f feed.Feed) time.Time {
	for i, g := range feedOf {
		if g == f {
			return m.lastOK[i]
		}
	}
	return time.Time{}
}

// quoteOf is a snapshot's contract as the page shows it.
func quoteOf(o *api.OptionData) ui.Contract {
	sz := func(v api.Int) int64 { return v.Or(-1) }
	return ui.Contract{
		OSI: o.Option, Bid: api.OrNaN(o.Bid), Ask: api.OrNaN(o.Ask), Mid: api.OrNaN(o.Mid), Last: api.OrNaN(o.LastTradePrice),
		Open: api.OrNaN(o.Open), High: api.OrNaN(o.High), Low: api.OrNaN(o.Low), PrevClose: api.OrNaN(o.PrevDayClose),
		IV: api.OrNaN(o.IV), Delta: api.OrNaN(o.Delta), Gamma: api.OrNaN(o.Gamma), Theta: api.OrNaN(o.Theta),
		Vega: api.OrNaN(o.Vega), Rho: api.OrNaN(o.Rho),
		BidSize: sz(o.BidSize), AskSize: sz(o.AskSize), Volume: sz(o.Volume), OI: sz(o.OpenInterest), Trades: sz(o.TradeCount),
	}
}
