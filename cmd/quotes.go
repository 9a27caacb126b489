package cmd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
)

// QuotesOptions are `chainwatch quotes`' inputs: the symbols, its flags,
// which of them were given, and the process's streams, environment and
// clock.
type QuotesOptions struct {
	headless

	Symbols []string
	Date    string
	Events  bool
}

// NewCmdQuotes prints the watchlist page's rows for scripts: the same
// request (one underlying-quotes request for every symbol), the same rows
// (feed.QuoteRows), through the shared exporter. runF replaces quotesRun
// in tests of the flags.
func NewCmdQuotes(deps Deps, runF func(*QuotesOptions) error) *cobra.Command {
	f := &QuotesOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "quotes [SYMBOL...]",
		Short: "Print the quotes of several underlyings (the watchlist's rows)",
		Long: `quotes prints one row per symbol, as the watchlist page (W) shows them: last,
change and change %, bid and ask with sizes, volume, IV30 and its change, the
implied underlying's badge, and the next earnings report and ex-dividend date.
An aligned table, or --json, --csv, --jq or --template for scripts; the points
spent go to stderr.

Without symbols it prints the config file's watchlist (or the default one).
All the symbols are one underlying-quotes request: 4 points live, 8 delayed,
3 for a past --date. The next events are one calendar request more (15
points); --events=false leaves them out. A symbol the service does not know
is named on stderr; when it knows none of them, the exit status is 3.`,
		Example: `  chainwatch quotes SPY QQQ IWM --csv
  chainwatch quotes                      the config file's watchlist
  chainwatch quotes AAPL MSFT --json --events=false
  chainwatch quotes SPY --date 2026-11-18`,
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbols = args
			if runF != nil {
				return runF(f)
			}
			return quotesRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Date, "date", "", "a past day YYYY-MM-DD: its end-of-day quotes (historical); default today")
	fl.BoolVar(&f.Events, "events", true, "also fetch the next earnings and ex-dividend dates (one calendar request, 15 points)")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

// quotesRun checks the symbols, mode and day before anything is asked,
// fetches, and prints. Errors are one line on stderr with nothing on
// stdout: a caller's mistake exits 2, no known symbol 3, a failure 1.
func quotesRun(f *QuotesOptions) error {
	fc, mode, err := f.setup()
	if err != nil {
		return err
	}
	symbols, err := quoteSymbols(f, fc)
	if err != nil {
		return badInput(err)
	}
	now := f.Now()
	date, err := config.ParseDate(f.Date, now)
	if err != nil {
		return badInput(fmt.Errorf("--date: %w", err))
	}
	q := feed.Query{Mode: mode, Date: date}
	historical := q.Historical(now)
	plan := planOf(api.EndpointUnderlyingQuotes, mode, historical)
	if historical {
		plan.parts[0].Stored = func(ctx context.Context, c *api.Client) bool {
			return c.StoredAnswer(ctx, api.UnderlyingQuotesParams{Symbols: symbols, Date: date.String(), Mode: mode}, api.EndpointUnderlyingQuotes)
		}
	}
	if f.Events {
		plan.parts = append(plan.parts, costPart{Endpoint: api.EndpointCalendar, Mode: mode, Count: 1})
	}
	j := job{plan: plan, keys: quotesKeys, historical: historical, run: func(ctx context.Context, c *api.Client) (answer, error) {
		return runQuotes(ctx, f, c, q, symbols)
	}}
	return f.execute(fc, mode, j)
}

// runQuotes is one run: the quotes of every symbol in one request, then
// the next events of those the service knows.
func runQuotes(ctx context.Context, f *QuotesOptions, client *api.Client, q feed.Query, symbols []string) (answer, error) {
	src := feed.Source{Client: client, Now: f.Now}
	qm := src.Quotes(ctx, q, symbols)
	a := answer{Resps: []*api.Response{qm.Resp}}
	if qm.Err != nil && !api.IsNoData(qm.Err) {
		return a, serviceError(qm.Err, "the quotes")
	}
	out := quotesOutcome{Query: q, Day: feed.ShownDay(q, f.Now()), Quotes: qm}
	var found []string
	for _, r := range feed.QuoteRows(symbols, qm.Quotes, nil) {
		if r.Found {
			found = append(found, r.Symbol)
		} else {
			out.Missing = append(out.Missing, r.Symbol)
		}
	}
	switch {
	case len(found) == 0 && len(symbols) == 1:
		return a, noSuchSymbol(symbols[0])
	case len(found) == 0:
		return a, noData(fmt.Errorf("no such symbol: %s (the service knows none of them)", strings.Join(symbols, ", ")))
	}
	var next map[string]feed.NextEvents
	if f.Events {
		em := src.Events(ctx, q, found)
		out.Events = &em
		a.Resps = append(a.Resps, em.Resp)
		switch {
		case em.Err != nil && !api.IsNoData(em.Err):
			fmt.Fprintf(f.ErrOut, "chainwatch: warning: the next events are left out: %s\n", api.Describe(em.Err, "the request"))
		default:
			next = feed.Next(em.Events, q.Day(f.Now()))
		}
	}
	for _, r := range feed.WithPast(feed.QuoteRows(symbols, qm.Quotes, next), qm.Past) {
		if r.Found {
			out.Rows = append(out.Rows, r)
		}
	}
	if len(out.Missing) > 0 {
		fmt.Fprintf(f.ErrOut, "chainwatch: no such symbol: %s\n", strings.Join(out.Missing, ", "))
	}
	a.Export = quotesExport(out)
	a.Rows = quotesRowsText(out)
	return a, nil
}

// quoteSymbols are the arguments, checked by the symbol rule, once each;
// without any, the config file's watchlist, whose skipped entries are
// named on stderr with their lines.
func quoteSymbols(f *QuotesOptions, fc config.File) ([]string, error) {
	if len(f.Symbols) == 0 {
		for _, w := range fc.WatchlistWarnings() {
			fmt.Fprintf(f.ErrOut, "chainwatch: warning: %s\n", w)
		}
		list := fc.WatchlistSymbols()
		if len(list) == 0 {
			return nil, errors.New("the watchlist is empty: give symbols (chainwatch quotes SPY QQQ) or add some on the watchlist page (W)")
		}
		return list, nil
	}
	if len(f.Symbols) > config.MaxWatchlist {
		return nil, fmt.Errorf("%d symbols; quotes takes at most %d", len(f.Symbols), config.MaxWatchlist)
	}
	var out []string
	for _, a := range f.Symbols {
		sym, err := config.ParseSymbol(a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, sym) {
			out = append(out, sym)
		}
	}
	return out, nil
}
