package feed

import (
	"context"
	"math"

	"chainwatch/api"
	"chainwatch/past"
)

// pastReader is the store of past days as the replies read it
// (chainwatch/history's Store): each symbol's figures against its stored
// year and its last reports' realized moves, which the store computes
// from what it holds. Reading it costs no points.
type pastReader interface {
	Figures(ctx context.Context, asOf api.Date, cur map[string]float64) (map[string]past.Figures, error)
	RealizedMoves(ctx context.Context, symbol string, events []api.CalendarEvent, day api.Date) ([]past.Move, error)
}

// PastOf is symbol's figures against its own stored year on day, its
// IV30 there being iv30 (percentage points, as sent): IV rank and
// percentile, HV10/20/30, IV30/HV30. ok is false when the client has no
// store of past days (--no-history), it cannot be read, or it holds
// nothing of the symbol.
func PastOf(ctx context.Context, c *api.Client, symbol string, day api.Date, iv30 api.Float) (past.Figures, bool) {
	m := pastOf(ctx, c, day, map[string]float64{symbol: iv30.Or(math.NaN())})
	p, ok := m[symbol]
	return p, ok
}

// pastOf is the figures of several symbols at once (one read of the
// store), by symbol; nil without a store.
func pastOf(ctx context.Context, c *api.Client, day api.Date, cur map[string]float64) map[string]past.Figures {
	pr, ok := c.History().(pastReader)
	if !ok {
		return nil
	}
	figs, err := pr.Figures(ctx, day, cur)
	if err != nil {
		return nil
	}
	return figs
}

// pastOfQuotes is the figures of each quote, by upper-case symbol; nil
// without a store.
func pastOfQuotes(ctx context.Context, c *api.Client, day api.Date, quotes []api.Symbol) map[string]past.Figures {
	cur := make(map[string]float64, len(quotes))
	for i := range quotes {
		cur[quotes[i].Symbol] = quotes[i].IV30.Or(math.NaN())
	}
	return pastOf(ctx, c, day, cur)
}

// WithPast sets each row's figures from figs (QuotesMsg.Past).
func WithPast(rows []QuoteRow, figs map[string]past.Figures) []QuoteRow {
	for i := range rows {
		if p, ok := figs[rows[i].Symbol]; ok {
			rows[i].Past, rows[i].HasPast = p, true
		}
	}
	return rows
}

// RealizedMoves are the moves symbol made on its last reports in events
// before day, from the closes in the store of past days at 0 points; nil
// without a store, and a report whose closes are not stored is left out.
func RealizedMoves(ctx context.Context, c *api.Client, symbol string, events []api.CalendarEvent, day api.Date) []past.Move {
	pr, ok := c.History().(pastReader)
	if !ok {
		return nil
	}
	moves, err := pr.RealizedMoves(ctx, symbol, events, day)
	if err != nil {
		return nil
	}
	return moves
}
