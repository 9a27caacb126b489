package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
)

// ChainOptions are `chainwatch chain`'s inputs.
type ChainOptions struct {
	headless

	Symbol  string
	Expiry  string
	DTE     int
	Strikes int
	Date    string
}

// dteWindow is how far past --dte's day the first request looks for an
// expiry: a week holds the next expiry of anything listed weekly, so one
// request (4 points) answers nearly always; a monthly-only underlying
// may need a second one for the rest of the chain.
const dteWindow = 7

// maxDTE bounds --dte: LEAPS run about three years out.
const maxDTE = 3660

// NewCmdChain prints one expiry's ladder for scripts: each contract with
// its quote, volume, open interest, IV and greeks. runF replaces chainRun
// in tests of the flags.
func NewCmdChain(deps Deps, runF func(*ChainOptions) error) *cobra.Command {
	f := &ChainOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "chain SYMBOL [--expiry DATE | --dte N] [--strikes N]",
		Short: "Print an expiry's option chain: quotes, volume, open interest, IV and greeks",
		Long: `chain prints one expiry of SYMBOL's option chain, a row per contract (calls and
puts by strike): bid, ask and their sizes, mid, last, volume, open interest, IV
and the greeks, as a table, --json, --csv, --jq or --template. Field names are
the service's (option_bid, iv, delta, ...); iv is a fraction (0.2208).

The expiry is --expiry DATE, or the first one at least --dte N calendar days
out (default 0: the nearest). --strikes N keeps the N strikes nearest the
underlying's price. --date D prints a past day's end-of-day chain.

One request: 4 points live, 8 delayed, 3 for a past day (--cost says).`,
		Example: `  chainwatch chain SPY --dte 0 --strikes 10
  chainwatch chain SPY --dte 30 --json | jq '.[] | select(.option_type == "P") | {strike, iv}'
  chainwatch chain AAPL --expiry 2026-12-18 --csv > aapl.csv
  chainwatch chain QQQ --dte 7 --jq 'map(select(.delta > 0.2 and .delta < 0.3)) | .[0].option'`,
		Args:              exactlyOneSymbol,
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbol = args[0]
			if runF != nil {
				return runF(f)
			}
			return chainRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Expiry, "expiry", "", "the expiry to print, yyyy-mm-dd")
	fl.IntVar(&f.DTE, "dte", 0, "the first expiry at least N calendar days out (0: the nearest)")
	fl.IntVar(&f.Strikes, "strikes", 0, "keep the N strikes nearest the underlying's price (0: every strike)")
	fl.StringVar(&f.Date, "date", "", "a past trading day's end-of-day chain, yyyy-mm-dd (default today)")
	addHeadlessFlags(cmd, &f.headless)
	cmd.MarkFlagsMutuallyExclusive("expiry", "dte")
	return cmd
}

// chainKeys are a row's fields, the service's names.
var chainKeys = []string{"option", "root", "expiry", "strike", "option_type",
	"option_bid", "option_ask", "option_bid_size", "option_ask_size", "option_mid",
	"option_last_trade_price", "option_volume", "open_interest", "iv",
	"delta", "gamma", "theta", "vega", "rho"}

// chainRun checks the flags, then prints the chain as every headless
// command prints (headless.execute).
func chainRun(f *ChainOptions) error {
	fc, mode, err := f.setup()
	if err != nil {
		return err
	}
	sym, err := config.ParseSymbol(f.Symbol)
	if err != nil {
		return badInput(err)
	}
	now := f.Now()
	date, err := config.ParseDate(f.Date, now)
	if err != nil {
		return badInput(fmt.Errorf("--date %w", err))
	}
	var expiry api.Date
	switch {
	case f.Expiry != "":
		if expiry, err = api.ParseDate(f.Expiry); err != nil {
			return badInput(fmt.Errorf("--expiry %q is not a date: use yyyy-mm-dd", f.Expiry))
		}
		if !market.IsTradingDay(expiry) {
			// Refused before the request: the service would charge for its 204.
			return badInput(fmt.Errorf("--expiry %s is %s, not a trading day: no option expires then", expiry, market.ClosedReason(expiry)))
		}
	case f.DTE < 0 || f.DTE > maxDTE:
		return badInput(fmt.Errorf("--dte %d: want 0 to %d calendar days", f.DTE, maxDTE))
	}
	if f.Strikes < 0 {
		return badInput(fmt.Errorf("--strikes %d: want a count of strikes, or 0 for all", f.Strikes))
	}
	q := feed.Query{Symbol: sym, Mode: mode, Date: date}
	historical := q.Historical(now)
	plan := planOf(api.EndpointOptionQuotes, mode, historical)
	if expiry == 0 {
		plan.note = fmt.Sprintf("twice that when no expiry lies within %d days of --dte's day (the rest of the chain is asked for)", dteWindow)
		plan.extra = plan.points()
	}
	j := job{plan: plan, keys: chainKeys, historical: historical,
		run: func(ctx context.Context, c *api.Client) (answer, error) {
			now := f.Now()
			return runChain(ctx, c, q, feed.ShownDay(q, now), market.FirstLiveDay(q.Date, now), expiry, f.DTE, f.Strikes)
		}}
	return f.execute(fc, mode, j)
}

// runChain asks for the expiry (or the first one at least dte days after
// day, and never before live, the screen's first live expiry: on a
// Saturday Monday's, not Friday's that stopped trading) and keeps the
// strikes nearest the money.
func runChain(ctx context.Context, c *api.Client, q feed.Query, day, live, expiry api.Date, dte, strikes int) (answer, error) {
	var a answer
	ask := func(lo, hi api.Date) (*api.SymbolWithOptions, error) {
		p := api.OptionQuotesParams{Symbol: q.Symbol, Date: day.String(), Mode: q.Mode, MinExpiry: lo.String()}
		if hi != 0 {
			p.MaxExpiry = hi.String()
		}
		snap, resp, err := c.OptionAndUnderlyingQuotes(ctx, p)
		a.Resps = append(a.Resps, resp)
		if api.IsNoData(err) {
			return nil, nil
		}
		return snap, err
	}
	what := q.Symbol + " " + expiry.String()
	var snap *api.SymbolWithOptions
	var err error
	if expiry != 0 {
		snap, err = ask(expiry, expiry)
	} else {
		what = fmt.Sprintf("%s --dte %d", q.Symbol, dte)
		lo := max(day.AddDays(dte), live)
		if snap, err = ask(lo, lo.AddDays(dteWindow)); err == nil && (snap == nil || len(snap.Options) == 0) {
			// The rest of the chain, from day on: the same price as from lo,
			// and nothing at all is the screen's "no such symbol".
			if snap, err = ask(day, 0); err == nil && snap == nil {
				return a, noSuchSymbol(q.Symbol)
			}
			if snap != nil {
				snap.Options = slices.DeleteFunc(snap.Options, func(o api.OptionData) bool { return o.Expiry < lo })
			}
		}
	}
	if err != nil {
		return a, serviceError(err, what)
	}
	if snap == nil || len(snap.Options) == 0 {
		if expiry != 0 {
			return a, noData(fmt.Errorf("%s: no contract expires then (or it expired before %s); is %s a listed symbol?", what, day, q.Symbol))
		}
		return a, noData(fmt.Errorf("%s: no expiry on or after %s", what, max(day.AddDays(dte), live)))
	}
	opts := firstExpiry(snap.Options)
	spot := snap.Underlying.Spot()
	opts = nearestStrikes(opts, spot, strikes)
	a.Export = chainExport(opts)
	a.Rows = chainRowsText(q.Symbol, opts, day, spot)
	return a, nil
}

// firstExpiry is the contracts of the earliest expiry in opts, by strike,
// calls before puts, the underlying's own root first.
func firstExpiry(opts []api.OptionData) []api.OptionData {
	first := opts[0].Expiry
	for _, o := range opts {
		first = min(first, o.Expiry)
	}
	var out []api.OptionData
	for _, o := range opts {
		if o.Expiry == first {
			out = append(out, o)
		}
	}
	slices.SortStableFunc(out, func(a, b api.OptionData) int {
		switch {
		case a.Strike != b.Strike:
			return cmp.Compare(a.Strike, b.Strike)
		case a.Root != b.Root:
			return cmp.Compare(a.Root, b.Root)
		case a.OptionType != b.OptionType:
			return cmp.Compare(a.OptionType, b.OptionType) // C before P
		}
		return 0
	})
	return out
}

// nearestStrikes keeps the n strikes nearest spot (every contract at
// them); all of opts when n is 0 or spot is unknown.
func nearestStrikes(opts []api.OptionData, spot float64, n int) []api.OptionData {
	var strikes []float64
	for _, o := range opts {
		if len(strikes) == 0 || strikes[len(strikes)-1] != o.Strike {
			strikes = append(strikes, o.Strike)
		}
	}
	if n == 0 || n >= len(strikes) || math.IsNaN(spot) {
		return opts
	}
	// Grow a window from the strike nearest spot, one strike at a time
	// towards whichever neighbour is nearer: the n strikes nearest spot
	// are always consecutive, and a centred window is not them (spot
	// 701.79 with n=2 is 701 and 702, not 702 and 703).
	dist := func(i int) float64 { return math.Abs(strikes[i] - spot) }
	lo := 0
	for i := range strikes {
		if dist(i) < dist(lo) {
			lo = i
		}
	}
	hi := lo + 1 // keep strikes[lo:hi]
	for hi-lo < n {
		switch {
		case lo == 0:
			hi++
		case hi == len(strikes):
			lo--
		case dist(lo-1) <= dist(hi):
			lo--
		default:
			hi++
		}
	}
	keep := strikes[lo:hi]
	out := opts[:0:0]
	for _, o := range opts {
		if o.Strike >= keep[0] && o.Strike <= keep[n-1] {
			out = append(out, o)
		}
	}
	return out
}

// exactlyOneSymbol is cobra.ExactArgs(1) with words a trader reads.
func exactlyOneSymbol(_ *cobra.Command, args []string) error {
	switch len(args) {
	case 1:
		return nil
	case 0:
		return badInput(errors.New("give a symbol, e.g. SPY"))
	}
	return badInput(fmt.Errorf("one symbol at a time: got %d (%v); to choose JSON fields write --json=field,field", len(args), args))
}
