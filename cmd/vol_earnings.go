package cmd

import (
	"context"
	"fmt"
	"strconv"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/vol"
)

// volEarningsKeys are `vol --earnings`' row keys: the next report's
// implied move (kind "next", with the expiry whose straddle prices it)
// and the last reports' realized moves (kind "past"); move in points,
// move_percent in percent of the price before.
var volEarningsKeys = []string{"kind", "report_date", "time_of_day", "expiry", "move", "move_percent"}

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
		var moves []vol.EarningsMove
		next := nextReport(cal.Events, day)
		if next.ReportDate != 0 {
			if im, ok := vol.ImpliedMove(next, surf.Figures(), surf.Spot); ok {
				moves = append(moves, im)
			}
		}
		moves = append(moves, cal.Moves...)
		if len(moves) == 0 {
			return a, noData(fmt.Errorf("%s: no earnings move to show (no report known, or their closes are not stored: chainwatch history backfill %s --days 504)", q.Symbol, q.Symbol))
		}
		a.Export = earningsExport(moves)
		a.Rows = fmt.Sprintf("%d earnings of %s, %d realized moves averaging %s", len(moves), q.Symbol, len(cal.Moves), pct(vol.MeanAbsMove(cal.Moves), 1))
		if cal.Moves == nil && c.History() == nil {
			a.Rows += " (--no-history: no closes)"
		}
		return a, nil
	}}
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

// earningsExport is the moves as rows.
func earningsExport(moves []vol.EarningsMove) Export {
	e := Export{Keys: volEarningsKeys, Table: Table{
		Head:    []string{"KIND", "REPORT", "WHEN", "EXPIRY", "MOVE", "MOVE %"},
		Numeric: []bool{false, false, false, false, true, true},
	}}
	for _, m := range moves {
		kind, expiry, exp := "past", any(nil), ""
		if m.Next {
			kind, expiry, exp = "next", m.Expiry.String(), m.Expiry.String()
		}
		e.Records = append(e.Records, []any{kind, m.Date.String(), string(m.When), expiry, num(round(m.Move, 4)), num(round(m.MovePct*100, 4))})
		mv := signed(m.Move, 2)
		if m.Next {
			mv = "±" + strconv.FormatFloat(m.Move, 'f', 2, 64)
		}
		e.Table.Rows = append(e.Table.Rows, []string{kind, m.Date.String(), string(m.When), exp, mv, signed(m.MovePct*100, 2) + "%"})
	}
	return e
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
