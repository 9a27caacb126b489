package cmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/scan"
)

// TAQOptions are `chainwatch taq`'s inputs.
type TAQOptions struct {
	headless

	Symbol string
	Since  string
	Until  string
	Quotes string
	Limit  int
	Date   string
}

// taqModes are --quotes' words for the endpoint's modes.
var taqModes = map[string]api.TAQMode{"nbbo": api.NBBOChanges, "all": api.AllQuotes, "on-nbbo": api.QuotesOnNBBO}

// NewCmdTAQ prints one contract's (or stock's) trades and quotes in time
// order for scripts. runF replaces taqRun in tests of the flags.
func NewCmdTAQ(deps Deps, runF func(*TAQOptions) error) *cobra.Command {
	f := &TAQOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "taq OSI --since HH:MM [--until HH:MM]",
		Short: "Print a contract's trades and NBBO changes (15 points a page live, 30 delayed)",
		Long: `taq prints the trades and quotes of one option (an OSI symbol; an underlying
is refused: its options' trades are chainwatch trades SYMBOL) in time order from --since (Eastern) to --until (default the end of the day): an
aligned table, or --json or --csv. Each record is a trade (size, price) or a
quote (bid and ask with sizes and exchange), with the NBBO of its moment.

--quotes picks the quotes: nbbo (default) only those that change the NBBO, all
every exchange's quote, on-nbbo those at the NBBO. Pages of up to 10,000 records
cost 15 points each live, 30 delayed; --limit caps the records. Live and delayed
data need the data-provider subscription (OPRA for options); a past day
(--date) does not.`,
		Example: `  chainwatch taq SPY261120C00700000 --date 2026-11-20 --since 10:00 --until 10:05
  chainwatch taq SPY261120P00695000 --date 2026-11-20 --since 15:55 --quotes all --csv`,
		Args: exactlyOneSymbol,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbol = args[0]
			if runF != nil {
				return runF(f)
			}
			return taqRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Since, "since", "", "first time of day, HH:MM Eastern (required)")
	fl.StringVar(&f.Until, "until", "", "last time of day, HH:MM Eastern (default the end of the day)")
	fl.StringVar(&f.Quotes, "quotes", "nbbo", "which quotes: nbbo (changes of the NBBO), all, on-nbbo")
	fl.IntVar(&f.Limit, "limit", 10000, "at most N records (each 10,000 is a page of points)")
	fl.StringVar(&f.Date, "date", "", "a past day, yyyy-mm-dd (default today's session, or the last one when the market is closed)")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

func taqRun(f *TAQOptions) error {
	fc, dataMode, err := f.setup()
	if err != nil {
		return err
	}
	q, err := parseTradesQuery(f.Symbol, dataMode, f.Date, f.Since, f.Now())
	if err != nil {
		return err
	}
	if !q.isOSI {
		return badInput(fmt.Errorf("taq %s: taq wants an OSI option symbol such as %s261120C00600000; an underlying's option trades are chainwatch trades %s",
			q.symbol, q.symbol, q.symbol))
	}
	until := api.TimeOfDay(api.DayMillis - 1)
	if f.Until != "" {
		if until, err = config.ParseClock(f.Until); err != nil {
			return badInput(fmt.Errorf("--until %w", err))
		}
	}
	mode, ok := taqModes[strings.ToLower(strings.TrimSpace(f.Quotes))]
	switch {
	case !q.sinceSet:
		return badInput(fmt.Errorf("--since is required: the first time of day, HH:MM Eastern"))
	case until < q.since:
		return badInput(fmt.Errorf("--until %s is before --since %s", clockText(until), clockText(q.since)))
	case !ok:
		return badInput(fmt.Errorf("--quotes %q: want nbbo, all or on-nbbo", f.Quotes))
	case f.Limit <= 0:
		return badInput(fmt.Errorf("--limit %d: ask for at least one record", f.Limit))
	}
	historical := api.IsHistorical(q.day, api.Today(f.Now()))
	plan := planOf(api.EndpointTradesAndQuotes, q.mode, historical)
	plan.parts[0].Count = pagesFor(f.Limit, config.TAQPageLimit)
	plan.note = fmt.Sprintf("at most: a page holds up to %s records, and a window with fewer takes fewer pages", scan.GroupDigits(config.TAQPageLimit))
	j := job{plan: plan, historical: historical, run: func(ctx context.Context, client *api.Client) (answer, error) {
		var a answer
		var res tradesResult
		var recs []api.TAQRecord
		q := q.onServiceDay(f.Now())
		p := api.TradesAndQuotesParams{Symbol: q.symbol, Date: q.day.String(), MinTime: q.since.String(), MaxTime: until.String(),
			TAQMode: mode, Mode: q.mode}
		onPage := func(r *api.Response) { res.add(r); a.Resps = append(a.Resps, r) }
		for r, err := range client.TradesAndQuotesAll(ctx, p, f.Limit, onPage) {
			if err != nil {
				return a, tradesError(err, q)
			}
			recs = append(recs, r)
		}
		if len(recs) == 0 {
			return a, noData(fmt.Errorf("no trades or quotes of %s on %s from %s to %s (%d points spent)", q.symbol, q.day,
				clockText(q.since), clockText(until), res.points))
		}
		trades := 0
		for i := range recs {
			if recs[i].Kind == api.KindTrade {
				trades++
			}
		}
		a.Export = taqExport(recs, fetchExchanges(ctx, client, q.mode))
		a.Rows = fmt.Sprintf("%s records of %s on %s (%s trades, %s quotes)",
			scan.GroupDigits(int64(len(recs))), q.symbol, q.day, scan.GroupDigits(int64(trades)), scan.GroupDigits(int64(len(recs)-trades)))
		if len(recs) >= f.Limit {
			a.Rows += fmt.Sprintf(" (stopped at --limit %d)", f.Limit)
		}
		return a, nil
	}}
	return f.execute(fc, q.mode, j)
}

// taqExport is a taq run as the exporter prints it: one record a row,
// kind first; the fields of another kind are null. Keys are the
// service's field names.
func taqExport(recs []api.TAQRecord, names exchangeNames) Export {
	e := Export{
		Keys: []string{"kind", "time", "sequence_number", "size", "price", "flag", "bid", "bid_size", "ask", "ask_size",
			"exchange_id", "exchange", "condition_id", "nbbo_bid", "nbbo_bid_size", "nbbo_ask", "nbbo_ask_size", "underlying_bid", "underlying_ask"},
		Table: Table{
			Head:    []string{"TIME", "KIND", "EXCH", "SIZE", "PRICE", "BID", "ASK", "NBBO"},
			Numeric: []bool{false, false, false, true, true, false, false, false},
		},
	}
	f := func(v api.Float) any { return nullable(v) }
	for i := range recs {
		rec := &recs[i]
		if rec.Kind == api.KindTrade {
			t := &rec.Trade
			e.Records = append(e.Records, []any{rec.Kind.String(), t.Time.String(), t.SequenceNumber, t.Size, f(t.Price), int(t.Flag),
				nil, nil, nil, nil, t.ExchangeID, names.value(t.ExchangeID), t.ConditionID,
				f(t.NBBOBid), nullable(t.NBBOBidSize), f(t.NBBOAsk), nullable(t.NBBOAskSize), nil, nil})
			e.Table.Rows = append(e.Table.Rows, []string{t.Time.String(), "trade", names.text(t.ExchangeID),
				strconv.FormatInt(t.Size, 10), priceText(api.OrNaN(t.Price)), "", "", nbboText(t.NBBOBid, t.NBBOAsk, t.NBBOBidSize, t.NBBOAskSize)})
			continue
		}
		qt := &rec.Quote
		var ub, ua any
		if rec.Kind == api.KindOptionQuote {
			ub, ua = f(qt.UnderlyingBid), f(qt.UnderlyingAsk)
		}
		e.Records = append(e.Records, []any{rec.Kind.String(), qt.Time.String(), qt.SequenceNumber, nil, nil, int(qt.Flag),
			f(qt.Bid), nullable(qt.BidSize), f(qt.Ask), nullable(qt.AskSize), qt.ExchangeID, names.value(qt.ExchangeID), qt.ConditionID,
			f(qt.NBBOBid), nullable(qt.NBBOBidSize), f(qt.NBBOAsk), nullable(qt.NBBOAskSize), ub, ua})
		e.Table.Rows = append(e.Table.Rows, []string{qt.Time.String(), "quote", names.text(qt.ExchangeID), "", "",
			sizedText(qt.Bid, qt.BidSize), sizedText(qt.Ask, qt.AskSize), nbboText(qt.NBBOBid, qt.NBBOAsk, qt.NBBOBidSize, qt.NBBOAskSize)})
	}
	return e
}

// sizedText is "1.20 x 45".
func sizedText(p api.Float, s api.Int) string {
	if !p.Valid {
		return ""
	}
	out := priceText(p.V)
	if s.Valid {
		out += " x " + strconv.FormatInt(s.V, 10)
	}
	return out
}

// nbboText is "1.20 x 45 / 1.25 x 30".
func nbboText(bid, ask api.Float, bs, as api.Int) string {
	if !bid.Valid && !ask.Valid {
		return ""
	}
	return sizedText(bid, bs) + " / " + sizedText(ask, as)
}
