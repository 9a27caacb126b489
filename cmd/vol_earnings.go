package cmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/vol"
)

// volEarningsKeys are `vol --earnings`' row keys: the next report's
// implied moves (kind "next": move is the whole straddle of expiry, the
// first after the news, as straddle_move; event_move the report's own
// share, from the variance of before_expiry's and expiry's ATM IVs, see
// vol.Implied), the last reports' realized moves (kind "past"), and the
// last reports whose closes the store lacks (kind "missing", no move);
// moves in points, *_percent in percent of the price before.
var volEarningsKeys = []string{"kind", "report_date", "time_of_day", "expiry", "before_expiry", "move", "move_percent",
	"straddle_move", "straddle_move_percent", "event_move", "event_move_percent"}

// volEarningsJob is `chainwatch vol SYMBOL --earnings`: the whole chain
// for the implied move, the calendar (two years back) for the reports,
// and the closes around each past one from the store of past days.
func volEarningsJob(f *VolOptions, q feed.Query, plan costPlan, historical bool) job {
	return job{plan: plan, keys: volEarningsKeys, historical: historical, run: func(ctx context.Context, c *api.Client) (answer, error) {
		src := feed.Source{Client: c, Now: f.Now}
		m := src.Chain(ctx, q, 0)
		a := answer{Resps: []*api.Response{m.Resp}}
		switch {
		case api.IsNoData(m.Err) || m.Err == nil && m.Chain == nil:
			return a, noSuchSymbol(q.Symbol)
		case m.Err != nil:
			return a, serviceError(m.Err, "the chain of "+q.Symbol)
		}
		cal := src.Calendar(ctx, q)
		a.Resps = append(a.Resps, cal.Resp)
		if cal.Err != nil && !api.IsNoData(cal.Err) {
			return a, serviceError(cal.Err, "the calendar of "+q.Symbol)
		}
		day := feed.ShownDay(q, f.Now())
		surf := vol.FromChain(m.Chain, day)
		var next *vol.Implied
		if n := nextReport(cal.Events, day); n.ReportDate != 0 {
			if im, ok := vol.ImpliedMove(n, surf.Figures(), surf.Spot); ok {
				next = &im
			}
		}
		var missing []api.EarningsEvent
		if c.History() != nil {
			missing = vol.Missing(vol.PastReports(cal.Events, day, vol.LastReports), cal.Moves)
		}
		if next == nil && len(cal.Moves) == 0 && len(missing) == 0 {
			return a, noData(fmt.Errorf("%s: no earnings move to show (no report known, or their closes are not stored: chainwatch history backfill %s --days 504)", q.Symbol, q.Symbol))
		}
		a.Export = earningsExport(next, cal.Moves, missing)
		a.Rows = earningsText(q.Symbol, next, cal.Moves)
		switch {
		case cal.Moves == nil && c.History() == nil:
			a.Rows += " (--no-history: no closes)"
		case len(missing) > 0:
			a.Rows += "\n  " + missingText(q.Symbol, missing, day)
		}
		return a, nil
	}}
}

// earningsText is the summary: the next report's moves, the realized
// ones' mean.
func earningsText(symbol string, next *vol.Implied, moves []vol.EarningsMove) string {
	s := symbol + ": no realized earnings move"
	if len(moves) > 0 {
		s = fmt.Sprintf("%s: %s averaging %s", symbol, plural(len(moves), "realized earnings move"), pct(vol.MeanAbsMove(moves), 1))
	}
	if next != nil {
		s += fmt.Sprintf("; the %s report: straddle of %s ±%s, the report alone ±%s", next.Date, next.Expiry, pct(next.MovePct, 2), pct(next.EventPct, 2))
		if next.Before != 0 {
			s += " (over " + next.Before.String() + "'s variance)"
		}
	}
	return s
}

// missingText names the past reports whose closes the store lacks, and
// the backfill that stores them.
func missingText(symbol string, missing []api.EarningsEvent, day api.Date) string {
	dates := make([]string, len(missing))
	for i, r := range missing {
		dates[i] = r.ReportDate.String()
	}
	return fmt.Sprintf("%s lack stored closes (%s), so have no realized move: chainwatch history backfill %s --days %d",
		plural(len(missing), "report"), strings.Join(dates, ", "), symbol, min(vol.BackfillDays(missing, day), maxBackfillDays))
}

// nextReport is the first earnings report on or after day.
func nextReport(events []api.CalendarEvent, day api.Date) api.EarningsEvent {
	var next api.EarningsEvent
	for _, e := range events {
		if e.Kind == api.KindEarnings && e.Earnings.ReportDate >= day && (next.ReportDate == 0 || e.Earnings.ReportDate < next.ReportDate) {
			next = e.Earnings
		}
	}
	return next
}

// earningsExport is the next report's moves, the realized ones and the
// reports missing, as rows.
func earningsExport(next *vol.Implied, moves []vol.EarningsMove, missing []api.EarningsEvent) Export {
	e := Export{Keys: volEarningsKeys, Table: Table{
		Head:    []string{"KIND", "REPORT", "WHEN", "EXPIRY", "BEFORE", "MOVE", "MOVE %", "EVENT", "EVENT %"},
		Numeric: []bool{false, false, false, false, false, true, true, true, true},
	}}
	if m := next; m != nil {
		before, bs := any(nil), ""
		if m.Before != 0 {
			before, bs = m.Before.String(), m.Before.String()
		}
		mv, mp := num(round(m.Move, 4)), num(round(m.MovePct*100, 4))
		e.Records = append(e.Records, []any{"next", m.Date.String(), string(m.When), m.Expiry.String(), before, mv, mp, mv, mp,
			num(round(m.Event, 4)), num(round(m.EventPct*100, 4))})
		e.Table.Rows = append(e.Table.Rows, []string{"next", m.Date.String(), string(m.When), m.Expiry.String(), bs,
			"±" + strconv.FormatFloat(m.Move, 'f', 2, 64), unsignedFixed(m.MovePct*100, 2, "%"), orDash(unsignedFixed(m.Event, 2)), orDash(unsignedFixed(m.EventPct*100, 2, "%"))})
	}
	for _, m := range moves {
		e.Records = append(e.Records, []any{"past", m.Date.String(), string(m.When), nil, nil, num(round(m.Move, 4)), num(round(m.MovePct*100, 4)), nil, nil, nil, nil})
		e.Table.Rows = append(e.Table.Rows, []string{"past", m.Date.String(), string(m.When), "", "", signed(m.Move, 2), signed(m.MovePct*100, 2) + "%", "", ""})
	}
	for _, r := range missing {
		e.Records = append(e.Records, []any{"missing", r.ReportDate.String(), string(r.TimeOfDay), nil, nil, nil, nil, nil, nil, nil, nil})
		e.Table.Rows = append(e.Table.Rows, []string{"missing", r.ReportDate.String(), string(r.TimeOfDay), "", "", "no closes", "", "", ""})
	}
	return e
}

// unsignedFixed is v with decimals, "±" before it and unit after; ""
// for NaN.
func unsignedFixed(v float64, decimals int, unit ...string) string {
	if s := fixedNum(v, decimals); s != "" {
		return "±" + s + strings.Join(unit, "")
	}
	return ""
}

// pastText ends vol's summary with the symbol against its stored year.
func pastText(p *vol.Past) string {
	if p == nil {
		return ""
	}
	s := ", IV rank " + fixedNum(p.IVRank, 0) + ", IV percentile " + fixedNum(p.IVPercentile, 0) +
		", HV10/20/30 " + pct(p.HV10, 1) + "/" + pct(p.HV20, 1) + "/" + pct(p.HV30, 1)
	if v := fixedNum(p.IVHV, 2); v != "" {
		s += ", IV30/HV30 " + v
	}
	return s + " (from history)"
}
