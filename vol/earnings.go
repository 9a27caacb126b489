package vol

import (
	"math"
	"slices"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/past"
)

// EarningsMove is one report's move (past.Move, where the feed carries
// the realized ones without importing vol).
type EarningsMove = past.Move

// ReportSessions are the sessions a report's move is measured between:
// before is the last close before the news, after the first close after
// it. A report before the open (BMO) or during the session (DMT) trades on
// its own day; one after the close (AMC) on the next session.
func ReportSessions(day api.Date, when api.ReportTime) (before, after api.Date) {
	if when == api.AfterClose {
		return market.LastTradingDay(day), market.NextTradingDay(day)
	}
	after = market.LastTradingDay(day)
	if !market.IsTradingDay(day) {
		after = market.NextTradingDay(day)
	}
	return market.PrevTradingDay(after), after
}

// PastReports are the last n earnings reports of events before today,
// newest first.
func PastReports(events []api.CalendarEvent, today api.Date, n int) []api.EarningsEvent {
	var out []api.EarningsEvent
	for _, e := range events {
		if e.Kind != api.KindEarnings {
			continue
		}
		if _, after := ReportSessions(e.Earnings.ReportDate, e.Earnings.TimeOfDay); after < today {
			out = append(out, e.Earnings)
		}
	}
	slices.SortFunc(out, func(a, b api.EarningsEvent) int { return int(b.ReportDate) - int(a.ReportDate) })
	return out[:min(n, len(out))]
}

// RealizedMoves are the moves of reports from closes by session (the
// store's); a report whose two closes are not both known is left out.
func RealizedMoves(reports []api.EarningsEvent, closes map[api.Date]float64) []EarningsMove {
	var out []EarningsMove
	for _, r := range reports {
		b, a := ReportSessions(r.ReportDate, r.TimeOfDay)
		cb, ok1 := closes[b]
		ca, ok2 := closes[a]
		if !ok1 || !ok2 || !(cb > 0) {
			continue
		}
		out = append(out, EarningsMove{Date: r.ReportDate, When: r.TimeOfDay, Move: ca - cb, MovePct: ca/cb - 1})
	}
	return out
}

// ImpliedMove is the next report's move as the options price it: the ATM
// straddle of the first expiry on or after the session that trades on the
// news, from the surface's figures; ok false without such an expiry or
// without a two-sided ATM market on it.
func ImpliedMove(next api.EarningsEvent, figs []Figures, spot float64) (EarningsMove, bool) {
	_, after := ReportSessions(next.ReportDate, next.TimeOfDay)
	for i := range figs {
		f := &figs[i]
		if f.Date < after {
			continue
		}
		if math.IsNaN(f.Move) || !(spot > 0) {
			return EarningsMove{}, false
		}
		return EarningsMove{Date: next.ReportDate, When: next.TimeOfDay, Next: true, Expiry: f.Date, Move: f.Move, MovePct: f.Move / spot}, true
	}
	return EarningsMove{}, false
}

// MeanAbsMove is the mean absolute realized move (fraction); NaN for none.
func MeanAbsMove(moves []EarningsMove) float64 {
	if len(moves) == 0 {
		return math.NaN()
	}
	var s float64
	for _, m := range moves {
		s += math.Abs(m.MovePct)
	}
	return s / float64(len(moves))
}
