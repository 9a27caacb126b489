package feed

import (
	"context"
	"math"

	"chainwatch/api"
	"chainwatch/vol"
)

// pastReader is the store of past days as the figures read it: the IV30
// of the sessions before a day and the closes of consecutive sessions up
// to it (chainwatch/history's Store). Reading it costs no points.
type pastReader interface {
	Series(ctx context.Context, symbol string, asOf api.Date) (iv30, closes []float64, err error)
}

// PastOf is symbol's figures against its own stored year (vol.Past) on
// day, its IV30 there being iv30 (percentage points, as sent): IV rank and
// percentile, HV10/20/30, IV30/HV30. ok is false when the client has no
// store of past days (--no-history) or it cannot be read.
func PastOf(ctx context.Context, c *api.Client, symbol string, day api.Date, iv30 api.Float) (vol.Past, bool) {
	pr, ok := c.History().(pastReader)
	if !ok {
		return vol.Past{}, false
	}
	ivs, closes, err := pr.Series(ctx, symbol, day)
	if err != nil {
		return vol.Past{}, false
	}
	return vol.PastFigures(iv30.Or(math.NaN()), ivs, closes), true
}

// pastOfQuotes is PastOf for each quote, by upper-case symbol; nil
// without a store.
func pastOfQuotes(ctx context.Context, c *api.Client, day api.Date, quotes []api.Symbol) map[string]vol.Past {
	if _, ok := c.History().(pastReader); !ok {
		return nil
	}
	out := make(map[string]vol.Past, len(quotes))
	for i := range quotes {
		q := &quotes[i]
		if p, ok := PastOf(ctx, c, q.Symbol, day, q.IV30); ok {
			out[q.Symbol] = p
		}
	}
	return out
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
