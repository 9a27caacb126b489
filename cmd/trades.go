package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/scan"
	"chainwatch/tas"
)

// TradesOptions are `chainwatch trades`'s inputs.
type TradesOptions struct {
	headless

	Symbol   string
	Since    string
	MinSize  int64
	Limit    int
	Date     string
	BlockMin int64
}

// NewCmdTrades prints time and sales for scripts: one contract's trades
// with the IV and greeks of each (option-trades-with-greeks), or every
// option trade of an underlying (option-trades), each with where it
// printed against the NBBO. runF replaces tradesRun in tests of the flags.
func NewCmdTrades(deps Deps, runF func(*TradesOptions) error) *cobra.Command {
	f := &TradesOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "trades SYMBOL|OSI [--since HH:MM] [--min-size N]",
		Short: "Print option trades with their side (15 points a page live, 30 delayed)",
		Long: `trades prints option time and sales: an aligned table, or --json, --csv, --jq
or --template for scripts. The summary (volume at the bid, mid and ask,
premium, the largest trade, blocks and multi-exchange sweeps) and the points
spent go to stderr.

For an OSI option symbol (SPY261120C00600000) it prints that contract's trades of
the day with the IV, delta and greeks at each trade and the underlying's price;
for an underlying (SPY) every trade of its options, from the last quarter of an
hour unless --since says otherwise. Each trade's side is where it printed
against the NBBO: Below Bid, On Bid, Mid Market, On Ask, Above Ask, Crossed
Market or No Market.

Pages of up to 10,000 trades cost 15 points each live, 30 delayed, 15 for a
past day; --limit caps the trades (and so the pages) asked for. Live and
delayed time and sales need the OPRA data-provider subscription; a past day
(--date) does not.`,
		Example: `  chainwatch trades SPY --csv
  chainwatch trades SPY261120C00700000 --date 2026-11-20 --since 10:00 --json
  chainwatch trades QQQ --min-size 100 --date 2026-11-18`,
		Args:              exactlyOneSymbol,
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbol = args[0]
			if runF != nil {
				return runF(f)
			}
			return tradesRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Since, "since", "", "first time of day to print, HH:MM Eastern (default: the day's first for an OSI, the last 15 minutes for an underlying)")
	fl.Int64Var(&f.MinSize, "min-size", 0, "only trades of at least N contracts")
	fl.IntVar(&f.Limit, "limit", 10000, "at most N trades (each 10,000 is a page of points)")
	fl.StringVar(&f.Date, "date", "", "a past day, yyyy-mm-dd (default today's session, or the last one when the market is closed)")
	fl.Int64Var(&f.BlockMin, "block-size", config.DefaultBlockSize, "trades of at least N contracts count as blocks in the summary")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

// tradesQuery is what a trades or taq run asks, checked before any
// request: a caller's mistake costs nothing.
type tradesQuery struct {
	symbol   string // canonical: an upper-case underlying or an OSI symbol
	osi      api.OSI
	isOSI    bool
	mode     api.Mode
	day      api.Date
	since    api.TimeOfDay
	sinceSet bool
	dated    bool // --date given: day is that day, not the session's
}

// onServiceDay is q with its day taken again when a run starts, by the
// clock that follows the service (headless.execute): without --date it is
// the service's session, which a replaying sandbox sets.
func (q tradesQuery) onServiceDay(now time.Time) tradesQuery {
	if !q.dated {
		q.day = feed.ShownDay(feed.Query{Mode: q.mode}, now)
	}
	return q
}

// parseTradesQuery reads the symbol, --date and --since.
func parseTradesQuery(symbol string, mode api.Mode, date, since string, now time.Time) (tradesQuery, error) {
	q := tradesQuery{mode: mode}
	var err error
	if o, err := api.ParseOSI(symbol); err == nil {
		q.osi, q.isOSI, q.symbol = o, true, o.String()
	} else if q.symbol, err = config.ParseSymbol(strings.TrimSpace(symbol)); err != nil {
		return q, badInput(fmt.Errorf("%w, or an OSI option symbol such as SPY261120C00600000", err))
	}
	d, err := config.ParseDate(date, now)
	if err != nil {
		return q, badInput(fmt.Errorf("--date %w", err))
	}
	q.day, q.dated = feed.ShownDay(feed.Query{Mode: q.mode, Date: d}, now), d != 0
	if since != "" {
		if q.since, err = config.ParseClock(since); err != nil {
			return q, badInput(fmt.Errorf("--since %w", err))
		}
		q.sinceSet = true
	}
	return q, nil
}

// pagesFor is how many pages of up to pageSize records limit records
// take at most: what --cost says a run may spend.
func pagesFor(limit, pageSize int) int { return max((limit+pageSize-1)/pageSize, 1) }

// tradesRun checks the flags, then pages through the trades and prints
// them as every headless command prints (headless.execute).
func tradesRun(f *TradesOptions) error {
	fc, mode, err := f.setup()
	if err != nil {
		return err
	}
	q, err := parseTradesQuery(f.Symbol, mode, f.Date, f.Since, f.Now())
	if err != nil {
		return err
	}
	switch {
	case f.MinSize < 0:
		return badInput(fmt.Errorf("--min-size %d: a size is 0 or more contracts", f.MinSize))
	case f.Limit <= 0:
		return badInput(fmt.Errorf("--limit %d: ask for at least one trade", f.Limit))
	}
	if err := config.CheckBlockSize(f.BlockMin); err != nil {
		return badInput(fmt.Errorf("--block-size %w", err))
	}
	historical := api.IsHistorical(q.day, api.Today(f.Now()))
	ep, pageSize := api.EndpointOptionTrades, config.TapePageLimit
	if q.isOSI {
		ep, pageSize = api.EndpointTradesWithGreeks, config.ContractPageLimit
	}
	plan := planOf(ep, mode, historical)
	plan.parts[0].Count = pagesFor(f.Limit, pageSize)
	plan.note = fmt.Sprintf("at most: a page holds up to %s trades, and a window with fewer takes fewer pages", scan.GroupDigits(int64(pageSize)))
	j := job{plan: plan, historical: historical, run: func(ctx context.Context, c *api.Client) (answer, error) {
		return runTrades(ctx, f, c, q)
	}}
	return f.execute(fc, mode, j)
}

// runTrades is one run: every page of the window, then its summary.
func runTrades(ctx context.Context, f *TradesOptions, client *api.Client, q tradesQuery) (answer, error) {
	var a answer
	var res tradesResult
	onPage := func(r *api.Response) { res.add(r); a.Resps = append(a.Resps, r) }
	q = q.onServiceDay(f.Now())
	if !q.isOSI && !q.sinceSet {
		q.since = feed.TapeStart(feed.Query{Mode: q.mode}, q.day, f.Now())
	}
	if err := emptyWindow(q); err != nil {
		return a, err
	}
	if q.isOSI {
		p := feed.GreeksParams(q.osi, q.day, q.mode, 0, q.since, config.ContractPageLimit)
		if f.MinSize > 0 {
			p.MinSize = api.Ptr(f.MinSize)
		}
		for g, err := range client.OptionTradesWithGreeksAll(ctx, p, f.Limit, onPage) {
			if err != nil {
				return a, tradesError(err, q)
			}
			res.trades = append(res.trades, tas.FromGreeks(&g))
		}
	} else {
		p := api.OptionTradesParams{Symbol: q.symbol, Date: q.day.String(), MinTime: q.since.String(), Mode: q.mode}
		if f.MinSize > 0 {
			p.MinSize = api.Ptr(f.MinSize)
		}
		for o, err := range client.OptionTradesAll(ctx, p, f.Limit, onPage) {
			if err != nil {
				return a, tradesError(err, q)
			}
			t := tas.FromOptionTrade(&o)
			t.Key = optionKey(&o)
			res.trades = append(res.trades, t)
			res.contracts = append(res.contracts, o)
		}
	}
	if len(res.trades) == 0 {
		return a, noData(fmt.Errorf("no trades of %s on %s from %s%s (%d points spent)", q.symbol, q.day,
			clockText(q.since), minSizeText(f.MinSize), res.points))
	}
	sum := tas.Summarize(res.trades, f.BlockMin)
	a.Export = tradesExport(q, &res, fetchExchanges(ctx, client, q.mode))
	a.Rows = tradesRowsText(q, &res, &sum, f.Limit)
	return a, nil
}

// emptyWindow refuses, before any request, a window that can hold no
// trade: a day without a session, or one starting at or after the day's
// close (13:00 on an early close). The service would charge a page for it.
func emptyWindow(q tradesQuery) error {
	if !market.IsTradingDay(q.day) {
		return noData(fmt.Errorf("no trades of %s on %s: %s, no session (0 points spent)", q.symbol, q.day, market.ClosedReason(q.day)))
	}
	if end := market.SessionClose(q.day); q.since >= end {
		return noData(fmt.Errorf("no trades of %s on %s from %s: the session closed at %s (0 points spent)", q.symbol, q.day, clockText(q.since), clockText(end)))
	}
	return nil
}

// tradesError words a failed request: the missing subscription says what
// still works, the rest as every command words the service's errors.
func tradesError(err error, q tradesQuery) error {
	switch {
	case api.IsNoData(err):
		return noData(fmt.Errorf("no trades of %s on %s", q.symbol, q.day))
	case feed.NotEntitled(err):
		return errors.New(feed.NotEntitledText("live and delayed trades") + " (--date " + market.PrevTradingDay(q.day).String() + ")")
	}
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return badInput(err)
	}
	return errors.New(api.Describe(err, "the trades request"))
}

func minSizeText(n int64) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" of at least %d contracts", n)
}

// clockText is a time of day as the flags take it: 09:45, 09:45:30.
func clockText(t api.TimeOfDay) string {
	s := t.String()[:8]
	return strings.TrimSuffix(s, ":00")
}
