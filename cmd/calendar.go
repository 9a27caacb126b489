package cmd

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// CalendarOptions are `chainwatch calendar`'s inputs.
type CalendarOptions struct {
	headless

	Symbols  []string
	From, To string
	Type     string
}

// The default window is the watch screen's (feed.Source.Calendar): the
// last reports for context, the next two ahead.
const (
	calendarBack  = 120
	calendarAhead = 200
)

// NewCmdCalendar prints earnings and dividends of one or more symbols, in
// one request (15 points) whatever their number.
func NewCmdCalendar(deps Deps, runF func(*CalendarOptions) error) *cobra.Command {
	f := &CalendarOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "calendar SYMBOL...",
		Short: "Print earnings reports and dividends of one or more symbols",
		Long: `calendar prints the earnings reports (date, before the open or after the close,
quarter, EPS estimate and actual) and dividends (ex-date, payment date, amount)
of the symbols, in date order, as a table, --json, --csv, --jq or --template.

The window is --from to --to (default 120 days back to 200 days ahead);
--type earnings or dividends keeps one kind. One request for all the symbols:
15 points in every mode.`,
		Example: `  chainwatch calendar AAPL MSFT NVDA
  chainwatch calendar AAPL --csv
  chainwatch calendar SPY QQQ --type dividends --from 2026-01-01 --json`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbols = args
			if runF != nil {
				return runF(f)
			}
			return calendarRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.From, "from", "", "first day, yyyy-mm-dd (default 120 days ago)")
	fl.StringVar(&f.To, "to", "", "last day, yyyy-mm-dd (default 200 days ahead)")
	fl.StringVar(&f.Type, "type", "all", "all, earnings or dividends")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

// calendarKeys are a row's fields: the service's names of both kinds,
// null where a kind has no such field, and event_type (the request's
// parameter name) telling which kind the row is.
var calendarKeys = []string{"underlying_symbol", "company_name", "event_type",
	"report_date", "time_of_day", "year", "quarter", "eps_estimate", "eps_actual",
	"ex_dividend_date", "payment_date", "dividend", "dividend_code"}

func calendarRun(f *CalendarOptions) error {
	fc, mode, err := f.setup()
	if err != nil {
		return err
	}
	var syms []string
	for _, arg := range f.Symbols {
		s, err := config.ParseSymbol(arg)
		if err != nil {
			return badInput(err)
		}
		if !slices.Contains(syms, s) {
			syms = append(syms, s)
		}
	}
	kind := api.EventType(strings.ToLower(strings.TrimSpace(f.Type)))
	if kind != api.EventsAll && kind != api.EventsEarnings && kind != api.EventsDividends {
		return badInput(fmt.Errorf("--type %q: want all, earnings or dividends", f.Type))
	}
	today := api.Today(f.Now())
	from, to := today.AddDays(-calendarBack), today.AddDays(calendarAhead)
	for _, d := range []struct {
		flag, arg string
		into      *api.Date
	}{{"--from", f.From, &from}, {"--to", f.To, &to}} {
		if strings.TrimSpace(d.arg) == "" {
			continue
		}
		if *d.into, err = api.ParseDate(strings.TrimSpace(d.arg)); err != nil {
			return badInput(fmt.Errorf("%s %q is not a date: use yyyy-mm-dd", d.flag, d.arg))
		}
	}
	if from > to {
		return badInput(fmt.Errorf("--from %s is after --to %s", from, to))
	}
	p := api.CalendarParams{Symbols: syms, EventType: kind, StartDate: from.String(), EndDate: to.String(), Mode: mode}
	j := job{plan: planOf(api.EndpointCalendar, mode, false), keys: calendarKeys,
		run: func(ctx context.Context, c *api.Client) (answer, error) {
			ev, resp, err := c.Calendar(ctx, p)
			a := answer{Resps: []*api.Response{resp}}
			what := "the calendar of " + strings.Join(syms, ", ")
			if err != nil && !api.IsNoData(err) {
				return a, serviceError(err, what)
			}
			if len(ev) == 0 {
				return a, noData(fmt.Errorf("%s: no earnings or dividends from %s to %s", what, from, to))
			}
			// Days away count as the screen's events pane counts them.
			a.Export = calendarExport(ev, market.ShownDay(0, mode, f.Now()))
			a.Rows = fmt.Sprintf("%d events from %s to %s", len(ev), from, to)
			return a, nil
		}}
	return f.execute(fc, mode, j)
}

// calendarExport is the events in date order, then by symbol.
func calendarExport(ev []api.CalendarEvent, today api.Date) Export {
	ev = slices.Clone(ev)
	slices.SortStableFunc(ev, func(a, b api.CalendarEvent) int {
		return cmp.Or(cmp.Compare(eventDate(a), eventDate(b)), cmp.Compare(a.Symbol(), b.Symbol()))
	})
	e := Export{Keys: calendarKeys}
	e.Table = Table{
		Head:    []string{"SYMBOL", "EVENT", "DATE", "DAYS", "WHEN", "QUARTER", "EPS EST", "EPS", "DIVIDEND", "PAYS"},
		Numeric: []bool{false, false, false, true, false, false, true, true, true, false},
	}
	for _, x := range ev {
		days := fmt.Sprintf("%+d", today.DaysUntil(eventDate(x)))
		switch x.Kind {
		case api.KindEarnings:
			r := x.Earnings
			e.Records = append(e.Records, []any{r.UnderlyingSymbol, r.CompanyName, string(api.EventsEarnings),
				r.ReportDate.String(), string(r.TimeOfDay), r.Year, r.Quarter, nullable(r.EPSEstimate), nullable(r.EPSActual),
				nil, nil, nil, nil})
			e.Table.Rows = append(e.Table.Rows, []string{r.UnderlyingSymbol, "earnings", r.ReportDate.String(), days,
				string(r.TimeOfDay), fmt.Sprintf("Q%d %d", r.Quarter, r.Year), fixed(r.EPSEstimate, 2, 1), fixed(r.EPSActual, 2, 1), "", ""})
		case api.KindDividend:
			r := x.Dividend
			e.Records = append(e.Records, []any{r.UnderlyingSymbol, r.CompanyName, string(api.EventsDividends),
				nil, nil, nil, nil, nil, nil,
				r.ExDividendDate.String(), dateOrNil(r.PaymentDate), nullable(r.Dividend), r.DividendCode})
			e.Table.Rows = append(e.Table.Rows, []string{r.UnderlyingSymbol, "ex-dividend", r.ExDividendDate.String(), days,
				"", "", "", "", fixed(r.Dividend, 4, 1), dateText(r.PaymentDate)})
		}
	}
	return e
}

// eventDate is the day an event is listed under: the report or the ex-date.
func eventDate(e api.CalendarEvent) api.Date {
	if e.Kind == api.KindDividend {
		return e.Dividend.ExDividendDate
	}
	return e.Earnings.ReportDate
}

func dateOrNil(d api.Date) any {
	if d == 0 {
		return nil
	}
	return d.String()
}

func dateText(d api.Date) string {
	if d == 0 {
		return ""
	}
	return d.String()
}
