package history

import (
	"context"

	"chainwatch/api"
	"chainwatch/past"
	"chainwatch/vol"
)

// What the feed asks the store for, at 0 points: the figures of symbols
// against their stored year, and the realized moves of a symbol's last
// reports. The store reads what they need and vol computes them, so the
// feed carries figures without importing any.

// Figures are each symbol's figures (vol.FiguresOf) against its stored
// year as of asOf, its current IV30 being cur[symbol] (percentage points,
// as sent); a symbol the store holds nothing of is left out.
func (s *Store) Figures(ctx context.Context, asOf api.Date, cur map[string]float64) (map[string]past.Figures, error) {
	stats, err := s.Stats(ctx, asOf, cur)
	if err != nil {
		return nil, err
	}
	out := make(map[string]past.Figures, len(stats))
	for sym, st := range stats {
		out[sym] = vol.FiguresOf(cur[sym], st)
	}
	return out, nil
}

// PastReports is how many past earnings reports the realized moves look at.
const PastReports = vol.LastReports

// RealizedMoves are the moves symbol made on its last PastReports reports
// in events before day (vol.RealizedMoves), from the stored closes; a
// report whose closes are not stored is left out (`chainwatch history
// backfill` buys them).
func (s *Store) RealizedMoves(ctx context.Context, symbol string, events []api.CalendarEvent, day api.Date) ([]past.Move, error) {
	reports := vol.PastReports(events, day, PastReports)
	var days []api.Date
	for _, r := range reports {
		b, a := vol.ReportSessions(r.ReportDate, r.TimeOfDay)
		days = append(days, b, a)
	}
	closes, err := s.Closes(ctx, symbol, days)
	if err != nil {
		return nil, err
	}
	return vol.RealizedMoves(reports, closes), nil
}
