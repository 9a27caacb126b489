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

// LastReports is how many past reports the realized moves look at (the
// store's RealizedMoves, the reports Missing names).
const LastReports = 8

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
// store's); a report whose two closes are not both known is left out
// (Missing names them). Never nil: nil is a caller's "no store".
func RealizedMoves(reports []api.EarningsEvent, closes map[api.Date]float64) []EarningsMove {
	out := make([]EarningsMove, 0, len(reports))
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

// Implied is the next report's move as the options price it, two ways.
// The straddle (the embedded move: Move, MovePct, Expiry) is the whole ATM
// straddle of the first expiry on or after the session that trades on the
// news: the report and every ordinary day to that expiry, all of it. The
// event move takes the ordinary days out: the expiry before the news
// (Before) prices ordinary days only, at its ATM IV σb; the one after at
// σa carries them and the report, so the report alone is the variance
// (σa² - σb²) Ta, Ta the years to the expiry after, the ordinary days
// taken at σb's rate. As a move, comparable with a straddle's price,
// that is spot x √(2/π) x √variance, the mean absolute move of a normal
// with that variance (an ATM straddle is worth about the same multiple of
// spot x σ√T). Event and EventPct are NaN without an expiry before the
// news with an ATM IV; 0 when the expiry after is no dearer than it.
type Implied struct {
	EarningsMove
	Before          api.Date
	Event, EventPct float64
}

// ImpliedMove is the next report's implied moves from the surface's
// figures; ok false without an expiry after the news or without a
// two-sided ATM market on it.
func ImpliedMove(next api.EarningsEvent, figs []Figures, spot float64) (Implied, bool) {
	_, after := ReportSessions(next.ReportDate, next.TimeOfDay)
	for i := range figs {
		f := &figs[i]
		if f.Date < after {
			continue
		}
		if math.IsNaN(f.Move) || !(spot > 0) {
			return Implied{}, false
		}
		im := Implied{EarningsMove: EarningsMove{Date: next.ReportDate, When: next.TimeOfDay, Next: true, Expiry: f.Date, Move: f.Move, MovePct: f.Move / spot},
			Event: math.NaN(), EventPct: math.NaN()}
		for j := i - 1; j >= 0; j-- {
			if b := &figs[j]; !math.IsNaN(b.ATMIV) && b.ATMIV > 0 && !math.IsNaN(f.ATMIV) {
				im.Before = b.Date
				im.EventPct = EventMove(b.ATMIV, f.ATMIV, float64(f.DTE)/market.DaysPerYear)
				im.Event = im.EventPct * spot
				break
			}
		}
		return im, true
	}
	return Implied{}, false
}

// EventMove is the move (a fraction of spot) of an event that lifts the
// ATM IV from before (the expiry before it) to after (the first after
// it, t years out): √(2/π) x √((after² - before²) t), 0 when after is no
// higher.
func EventMove(before, after, t float64) float64 {
	v := (after*after - before*before) * t
	if !(v > 0) {
		return 0
	}
	return math.Sqrt(2/math.Pi) * math.Sqrt(v)
}

// Missing are the reports among reports (PastReports) that moves (the
// realized ones found) lack: their closes are not in the store.
func Missing(reports []api.EarningsEvent, moves []EarningsMove) []api.EarningsEvent {
	var out []api.EarningsEvent
	for _, r := range reports {
		if !slices.ContainsFunc(moves, func(m EarningsMove) bool { return m.Date == r.ReportDate && !m.Next }) {
			out = append(out, r)
		}
	}
	return out
}

// BackfillDays is the --days a `history backfill` needs on today to
// store the closes around every one of reports: the sessions from the
// one before the oldest report's news to the last before today.
func BackfillDays(reports []api.EarningsEvent, today api.Date) int {
	oldest := today
	for _, r := range reports {
		if b, _ := ReportSessions(r.ReportDate, r.TimeOfDay); b < oldest {
			oldest = b
		}
	}
	n := 0
	for d := market.PrevTradingDay(today); d >= oldest; d = market.PrevTradingDay(d) {
		n++
	}
	return n
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
