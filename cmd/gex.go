package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/positioning"
)

// GexOptions are `chainwatch gex`'s inputs.
type GexOptions struct {
	headless

	Symbol  string
	Expiry  string
	DTE     int
	MaxDTE  int
	Date    string
	Summary bool
	Profile bool

	dteSet, maxDTESet bool
}

// NewCmdGex prints the positioning page for scripts: open interest,
// volume and dealer gamma exposure by strike, and the figures (max pain,
// walls, P/C OI, GEX, the zero-gamma level) from chainwatch/positioning,
// the page's own code. runF replaces gexRun in tests of the flags.
func NewCmdGex(deps Deps, runF func(*GexOptions) error) *cobra.Command {
	f := &GexOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "gex SYMBOL [--expiry DATE | --dte N | --max-dte N] [--summary | --profile]",
		Short: "Print open interest and dealer gamma, vanna and charm by strike, max pain, walls and the zero-gamma level (4 points)",
		Long: `gex prints where SYMBOL's open interest sits, a row per strike summed over the
expiries asked for (every root): call and put open interest, today's call and put
volume, and the dealers' exposures, calls positive and puts negative, dealers
taken as long the calls and short the puts the public holds:
  gex    gamma x open interest x 100 x spot² x 0.01: dollars per 1 % move
  vanna  vanna x open interest x 100 x spot: dollars of delta per vol point
  charm  charm x open interest x 100 x spot: dollars of delta per day
Gamma is the chain's; a contract with open interest and none gets the chain's
model's at the IV interpolated along its expiry's smile (gamma_estimated counts
them). Vanna and charm are the chain's model's: American for stock and ETF
options, European for index options, at the rate and dividend each expiry's
quotes imply.

The summary goes to stderr: max pain per expiry (the strike where the holders'
options are worth least at expiry), the call wall and put wall (the most call
open interest at or above spot, the most put open interest at or below it; the
gamma walls weigh them by GEX), the put/call open-interest ratio, GEX, vanna and
charm in total, and the zero-gamma level (the spot within 10 % where total GEX
changes sign, every contract's gamma priced again there). --summary prints it
instead of the rows, as one JSON object (--jq and --template see the object;
--csv has no place for it). --profile prints the curve the zero-gamma search
walks instead: total GEX at 200 spots over ±10 % and at spot itself.

The expiries: every one (default), --expiry DATE, the first at least --dte N
calendar days out (--dte 0: the nearest, 0DTE), or every one at most --max-dte N
days out. One request for those expiries: 4 points live, 8 delayed, 3 for a
past --date.`,
		Example: `  chainwatch gex SPX --max-dte 30 --json
  chainwatch gex SPY --dte 0
  chainwatch gex SPX --summary --jq '.zero_gamma'
  chainwatch gex SPX --dte 0 --profile --csv
  chainwatch gex QQQ --expiry 2026-12-18 --csv > qqq-dec.csv`,
		Args:              exactlyOneSymbol,
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbol = args[0]
			f.dteSet, f.maxDTESet = cmd.Flags().Changed("dte"), cmd.Flags().Changed("max-dte")
			if runF != nil {
				return runF(f)
			}
			return gexRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Expiry, "expiry", "", "one expiry, yyyy-mm-dd")
	fl.IntVar(&f.DTE, "dte", 0, "the first expiry at least N calendar days out (0: the nearest)")
	fl.IntVar(&f.MaxDTE, "max-dte", 0, "every expiry at most N calendar days out")
	fl.StringVar(&f.Date, "date", "", "a past trading day's end-of-day chain, yyyy-mm-dd (default today)")
	fl.BoolVar(&f.Summary, "summary", false, "print the summary as one JSON object instead of the rows")
	fl.BoolVar(&f.Profile, "profile", false, "print total GEX over spots within 10 % (the zero-gamma curve) instead of the rows")
	addHeadlessFlags(cmd, &f.headless)
	cmd.MarkFlagsMutuallyExclusive("expiry", "dte", "max-dte")
	cmd.MarkFlagsMutuallyExclusive("summary", "profile")
	return cmd
}

// gexRun checks the flags, then fetches the expiries asked for in one
// request and prints their positioning as every headless command prints
// (headless.execute).
func gexRun(f *GexOptions) error {
	fc, q, err := f.symbolQuery(f.Symbol, f.Date)
	if err != nil {
		return err
	}
	mode, now := q.Mode, f.Now()
	r, err := f.expiries()
	if err != nil {
		return badInput(err)
	}
	keys := gexKeys
	if f.Profile {
		keys = gexProfileKeys
	}
	if f.Summary {
		if f.Export.csv {
			return badInput(fmt.Errorf("--summary is one JSON object: --csv has no place for it; use --json, --jq or --template"))
		}
		if f.Export.json == "" && f.Export.jq == "" && f.Export.template == "" {
			f.Export.json = allFields
		}
		keys = gexSummaryKeys
	}
	historical := q.Historical(now)
	j := job{plan: planOf(api.EndpointOptionQuotes, mode, historical), keys: keys, historical: historical,
		run: func(ctx context.Context, c *api.Client) (answer, error) {
			return runGex(ctx, c, q, feed.ShownDay(q, f.Now()), r, f, f.Now())
		}}
	return f.execute(fc, mode, j)
}

// expiries is the range the flags ask for.
func (f *GexOptions) expiries() (positioning.Range, error) {
	switch {
	case f.Expiry != "":
		d, err := api.ParseDate(f.Expiry)
		if err != nil {
			return positioning.Range{}, fmt.Errorf("--expiry %q is not a date: use yyyy-mm-dd", f.Expiry)
		}
		if !market.IsTradingDay(d) {
			// Refused before the request: the service would charge for its 204.
			return positioning.Range{}, fmt.Errorf("--expiry %s is %s, not a trading day: no option expires then", d, market.ClosedReason(d))
		}
		return positioning.Range{Kind: positioning.OnDate, Date: d}, nil
	case f.dteSet:
		if f.DTE < 0 || f.DTE > maxDTE {
			return positioning.Range{}, fmt.Errorf("--dte %d: want 0 to %d calendar days", f.DTE, maxDTE)
		}
		return positioning.Range{Kind: positioning.FirstFrom, Days: f.DTE}, nil
	case f.maxDTESet:
		if f.MaxDTE < 0 || f.MaxDTE > maxDTE {
			return positioning.Range{}, fmt.Errorf("--max-dte %d: want 0 to %d calendar days", f.MaxDTE, maxDTE)
		}
		return positioning.Range{Kind: positioning.WithinDays, Days: f.MaxDTE}, nil
	}
	return positioning.Range{Kind: positioning.AllExpiries}, nil
}

// runGex asks for the expiries r may take in one request (the service
// charges a chain the same whatever its size, and fewer expiries are
// fewer bytes) and computes their figures, the data's time at for a
// snapshot without one.
func runGex(ctx context.Context, c *api.Client, q feed.Query, day api.Date, r positioning.Range, f *GexOptions, at time.Time) (answer, error) {
	// From the first live expiry: on a weekend Friday's has settled.
	p := api.OptionQuotesParams{Symbol: q.Symbol, Date: day.String(), Mode: q.Mode, MinExpiry: market.FirstLiveDay(q.Date, at).String()}
	what := q.Symbol
	switch r.Kind {
	case positioning.OnDate:
		p.MinExpiry, p.MaxExpiry = r.Date.String(), r.Date.String()
		what += " --expiry " + r.Date.String()
	case positioning.WithinDays:
		p.MaxExpiry = day.AddDays(r.Days).String()
		what += fmt.Sprintf(" --max-dte %d", r.Days)
	case positioning.FirstFrom:
		p.MinExpiry = day.AddDays(r.Days).String()
		what += fmt.Sprintf(" --dte %d", r.Days)
	}
	snap, resp, err := c.OptionAndUnderlyingQuotes(ctx, p)
	a := answer{Resps: []*api.Response{resp}}
	if err != nil && !api.IsNoData(err) {
		return a, serviceError(err, "the chain of "+what)
	}
	if snap == nil || len(snap.Options) == 0 {
		if r.Kind == positioning.AllExpiries {
			return a, noSuchSymbol(q.Symbol)
		}
		return a, noData(fmt.Errorf("%s: no expiry in that range on %s; is %s a listed symbol?", what, day, q.Symbol))
	}
	ch := positioning.FromSnapshot(snap, day, at)
	if r.Kind != positioning.OnDate { // an expiry asked for by its date is shown, settled or not
		ch.From(market.FirstLiveDay(q.Date, at))
	}
	sel := r.Select(ch)
	if len(sel) == 0 {
		return a, noData(fmt.Errorf("%s: no expiry in that range on or after %s", what, day))
	}
	g := gexResult{chain: ch, r: r, figs: positioning.Compute(ch, sel)}
	curve := positioning.NewCurve(ch, sel)
	g.flip = curve.ZeroGamma(ch.Spot, positioning.ZeroGammaGrid)
	switch {
	case f.Summary:
		a.Export = g.summaryExport()
		a.Rows = "the positioning summary of " + g.what()
		return a, nil
	case f.Profile:
		a.Export = g.profileExport(curve)
		a.Rows = g.profileText()
		return a, nil
	}
	a.Export = g.rowsExport()
	a.Rows = g.summaryText()
	return a, nil
}
