package feed

import (
	"context"
	"math"

	"chainwatch/api"
	"chainwatch/vol"
)

// statsReader is the store of past days as the figures read it
// (chainwatch/history's Store): what they need of each symbol's stored
// year. Reading it costs no points.
type statsReader interface {
	Stats(ctx context.Context, asOf api.Date, cur map[string]float64) (map[string]vol.PastStats, error)
}

// PastOf is symbol's figures against its own stored year (vol.Past) on
// day, its IV30 there being iv30 (percentage points, as sent): IV rank and
// percentile, HV10/20/30, IV30/HV30. ok is false when the client has no
// store of past days (--no-history), it cannot be read, or it holds
// nothing of the symbol.
func PastOf(ctx context.Context, c *api.Client, symbol string, day api.Date, iv30 api.Float) (vol.Past, bool) {
	m := pastOf(ctx, c, day, map[string]float64{symbol: iv30.Or(math.NaN())})
	p, ok := m[symbol]
	return p, ok
}

// pastOf is the figures of several symbols at once (one read of the
// store), by symbol; nil without a store.
func pastOf(ctx context.Context, c *api.Client, day api.Date, cur map[string]float64) map[string]vol.Past {
	sr, ok := c.History().(statsReader)
	if !ok {
		return nil
	}
	stats, err := sr.Stats(ctx, day, cur)
	if err != nil {
		return nil
	}
	out := make(map[string]vol.Past, len(stats))
	for sym, st := range stats {
		out[sym] = vol.FiguresOf(cur[sym], st)
	}
	return out
}

// pastOfQuotes is the figures of each quote, by upper-case symbol; nil
// without a store.
func pastOfQuotes(ctx context.Context, c *api.Client, day api.Date, quotes []api.Symbol) map[string]vol.Past {
	cur := make(map[string]float64, len(quotes))
	for i := range quotes {
		cur[quotes[i].Symbol] = quotes[i].IV30.Or(math.NaN())
	}
	return pastOf(ctx, c, day, cur)
}

// WithPast sets each row's figures from past (QuotesMsg.Past).
func WithPast(rows []QuoteRow, past map[string]vol.Past) []QuoteRow {
	for i := range rows {
		if p, ok := past[rows[i].Symbol]; ok {
			rows[i].Past, rows[i].HasPast = p, true
		}
	}
	return rows
}

// closesReader is the store's closes by day (chainwatch/history's Store).
type closesReader interface {
	Closes(ctx context.Context, symbol string, days []api.Date) (map[api.Date]float64, error)
}

// PastReports is how many past earnings reports the realized moves look at.
const PastReports = 8

// RealizedMoves are the moves symbol made on its last 8 reports in events
// before day (vol.RealizedMoves), from the closes in the store of past
// days at 0 points; nil without a store, and a report whose closes are
// not stored is left out (`chainwatch history backfill` buys them).
func RealizedMoves(ctx context.Context, c *api.Client, symbol string, events []api.CalendarEvent, day api.Date) []vol.EarningsMove {
	cr, ok := c.History().(closesReader)
	if !ok {
		return nil
	}
	reports := vol.PastReports(events, day, PastReports)
	var days []api.Date
	for _, r := range reports {
		b, a := vol.ReportSessions(r.ReportDate, r.TimeOfDay)
		days = append(days, b, a)
	}
	closes, err := cr.Closes(ctx, symbol, days)
	if err != nil {
		return nil
	}
	return vol.RealizedMoves(reports, closes)
}
