package feed

import (
	"context"
	"math"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/past"
)

// The watchlist's data: one underlying-quotes request for all its symbols
// a refresh, and one calendar request for all of them every few hours.
// The rows built from them are the same for the watchlist page and
// `chainwatch quotes`.

// QuotesMsg is the watchlist's quotes, or their failure. Query carries the
// watchlist's mode, date and generation (its Symbol is empty); Symbols
// are the symbols asked for, in the watchlist's order.
type QuotesMsg struct {
	Query   Query
	Symbols []string
	Quotes  []api.Symbol
	Resp    *api.Response
	Err     error
	At      time.Time
	// Past is each symbol's figures against its stored year (PastOf), by
	// upper-case symbol; nil without a store of past days.
	Past map[string]past.Figures
}

// EventsMsg is the upcoming earnings and dividends of Symbols.
type EventsMsg struct {
	Query   Query
	Symbols []string
	Events  []api.CalendarEvent
	Resp    *api.Response
	Err     error
	At      time.Time
}

// eventsAhead is how far the watchlist looks for the next report and
// ex-dividend date: both come every quarter, so well within it.
const eventsAhead = 200

// Quotes fetches the quotes of symbols in one request, on the day the
// query shows (ShownDay: the last session before the open and on days
// without one).
func (s Source) Quotes(ctx context.Context, q Query, symbols []string) QuotesMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	p := api.UnderlyingQuotesParams{Symbols: symbols, Date: ShownDay(q, s.Now()).String(), Mode: q.Mode}
	quotes, resp, err := s.Client.UnderlyingQuotes(ctx, p)
	m := QuotesMsg{Query: q, Symbols: symbols, Quotes: quotes, Resp: resp, Err: err, At: s.Now()}
	if err == nil {
		m.Past = pastOfQuotes(ctx, s.Client, ShownDay(q, s.Now()), quotes)
	}
	return m
}

// Events fetches the earnings and dividends of symbols from the query's
// day on, in one request.
func (s Source) Events(ctx context.Context, q Query, symbols []string) EventsMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	day := q.Day(s.Now())
	p := api.CalendarParams{Symbols: symbols, EventType: api.EventsAll,
		StartDate: day.String(), EndDate: day.AddDays(eventsAhead).String(), Mode: q.Mode}
	ev, resp, err := s.Client.Calendar(ctx, p)
	return EventsMsg{Query: q, Symbols: symbols, Events: ev, Resp: resp, Err: err, At: s.Now()}
}

// NextEvents are a symbol's next earnings report and ex-dividend date.
type NextEvents struct {
	Earnings     api.Date // 0: none known
	EarningsTime api.ReportTime
	ExDividend   api.Date // 0: none known
}

// Soonest is the nearer of the two, and whether it is the report; 0 when
// neither is known.
func (n NextEvents) Soonest() (d api.Date, earnings bool) {
	switch {
	case n.Earnings == 0:
		return n.ExDividend, false
	case n.ExDividend == 0 || n.Earnings <= n.ExDividend:
		return n.Earnings, true
	}
	return n.ExDividend, false
}

// Next finds each symbol's first report and ex-dividend date on or after
// day in events, by upper-case symbol.
func Next(events []api.CalendarEvent, day api.Date) map[string]NextEvents {
	out := make(map[string]NextEvents)
	for i := range events {
		e := &events[i]
		d := e.Date()
		if d < day || !d.Valid() {
			continue
		}
		sym := strings.ToUpper(e.Symbol())
		n := out[sym]
		switch e.Kind {
		case api.KindEarnings:
			if n.Earnings == 0 || d < n.Earnings {
				n.Earnings, n.EarningsTime = d, e.Earnings.TimeOfDay
			}
		case api.KindDividend:
			if n.ExDividend == 0 || d < n.ExDividend {
				n.ExDividend = d
			}
		default:
			continue
		}
		out[sym] = n
	}
	return out
}

// QuoteRow is one symbol of the watchlist: the service's quote and what
// the page and `chainwatch quotes` derive from it.
type QuoteRow struct {
	Symbol string
	Found  bool       // the service answered for the symbol
	Quote  api.Symbol // as sent; zero when not Found
	// Price is Spot's; Change and ChangePct compare it with the previous
	// close (NaN when either is unknown).
	Price             float64
	Implied           bool
	Change, ChangePct float64
	Next              NextEvents
	// Past is the symbol's figures against its stored year (WithPast);
	// HasPast is false without a store of past days.
	Past    past.Figures
	HasPast bool
}

// QuoteRows are the rows of symbols, in their order: each with its quote
// from quotes when the service sent one, and its next events from next
// (nil: none known).
func QuoteRows(symbols []string, quotes []api.Symbol, next map[string]NextEvents) []QuoteRow {
	by := make(map[string]int, len(quotes))
	for i := range quotes {
		by[strings.ToUpper(quotes[i].Symbol)] = i
	}
	rows := make([]QuoteRow, len(symbols))
	for i, sym := range symbols {
		r := QuoteRow{Symbol: sym, Price: math.NaN(), Change: math.NaN(), ChangePct: math.NaN(), Next: next[sym]}
		if j, ok := by[sym]; ok {
			r.Found, r.Quote = true, quotes[j]
			r.Price, r.Implied = r.Quote.Underlying.SpotImplied()
			if prev, ok := r.Quote.PrevDayClose.Get(); ok && !math.IsNaN(r.Price) {
				r.Change = r.Price - prev
				if prev != 0 {
					r.ChangePct = r.Change / prev * 100
				}
			}
		}
		rows[i] = r
	}
	return rows
}
