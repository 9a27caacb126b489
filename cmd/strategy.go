package cmd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/strategy"
)

// StrategyOptions are `chainwatch strategy`'s inputs.
type StrategyOptions struct {
	headless

	Legs    string
	PnL     bool
	Save    bool
	Natural bool
	Spots   int
	IVShift float64
	// Drift, when set (DriftSet), is the real-world growth a year in
	// percent that PoP assumes instead of the risk-neutral r - q.
	Drift    float64
	DriftSet bool
}

// NewCmdStrategy prints a strategy's legs and figures, the strategy
// page's, from one chain request. runF replaces strategyRun in tests of
// the flags.
func NewCmdStrategy(deps Deps, runF func(*StrategyOptions) error) *cobra.Command {
	f := &StrategyOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "strategy 'SYMBOL EXPIRY LEGS...'",
		Short: "Print a strategy's legs, net greeks, breakevens, max profit and loss (4 points)",
		Long: `strategy prints the strategy page for legs written in the leg syntax
(docs/strategies.md): each leg with its NBBO, mid, IV and greeks; the net row
with the net price at mid and at the natural (pay the ask, receive the bid) and
the position greeks (delta and gamma in shares, theta in dollars a day, vega in
dollars a vol point); then max profit and max loss at the first expiry
(unbounded said as such), the breakevens, and the probability of profit:
risk-neutral (lognormal at the legs' IVs, drifting at the chain's r - q), or at
the real-world drift --drift gives (percent a year).

Each leg is repriced on the chain's own model: American (Bjerksund-Stensland
2002) for equity and ETF options, European (Black-Scholes-Merton) for index
options, at the rate and dividend yield its expiry's quotes imply
(docs/pricing.md); so a leg at its own IV and today's spot is worth its mid.

With --pnl it prints instead the P&L in dollars over 21 underlying prices across
two expected moves, today, half-way and at the first expiry, the legs repriced
so on their IVs (--iv-shift adds vol points).

A leg the service does not list is refused with the nearest one it does
(exit status 2), as are legs on two underlyings, a quantity of 0 or over
10,000, and an expiry already past. It fetches one chain: 4 points live.`,
		Example: `  chainwatch strategy 'SPY 2026-12-18 +C700 -C710'
  chainwatch strategy 'SPY 2026-12-18 +P650 -P660 -C720 +C730' --json
  chainwatch strategy '+SPY261218C00700000 -SPY261218C00710000' --pnl --csv`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return badInput(errors.New("strategy takes the legs: chainwatch strategy 'SPY 2026-12-18 +C700 -C710'"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Legs = joinArgs(args)
			f.DriftSet = cmd.Flags().Changed("drift")
			if runF != nil {
				return runF(f)
			}
			return strategyRun(f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.PnL, "pnl", false, "print the P&L over underlying prices and dates instead")
	fl.BoolVar(&f.Save, "save", false, "save the strategy as a position, filled at mid (--natural: at the natural) or at each leg's @price")
	fl.BoolVar(&f.Natural, "natural", false, "with --save: fill at the natural (pay the ask, receive the bid)")
	fl.IntVar(&f.Spots, "spots", 21, "with --pnl: the number of underlying prices, 3 to 401")
	fl.Float64Var(&f.IVShift, "iv-shift", 0, "with --pnl: vol points added to every leg's IV (-1 is one point less)")
	fl.Float64Var(&f.Drift, "drift", 0, "the underlying's real-world drift in percent a year for the probability of profit (default: risk-neutral, the chain's r - q)")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

// joinArgs lets the legs be one quoted argument or several words.
func joinArgs(args []string) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}

// strategyRun checks the legs, then fetches their chain and prints.
func strategyRun(f *StrategyOptions) error {
	fc, cfgPath, err := f.config()
	if err != nil {
		return err
	}
	mode, err := f.dataMode(fc)
	if err != nil {
		return err
	}
	if f.Spots < 3 || f.Spots > 401 {
		return badInput(fmt.Errorf("--spots %d: want 3 to 401", f.Spots))
	}
	if math.IsNaN(f.IVShift) || math.Abs(f.IVShift) > 100 {
		return badInput(fmt.Errorf("--iv-shift %v: want -100 to 100 vol points", f.IVShift))
	}
	if f.DriftSet && !(math.Abs(f.Drift) <= 100) {
		return badInput(fmt.Errorf("--drift %v: want -100 to 100 percent a year", f.Drift))
	}
	st, err := strategy.Parse(f.Legs)
	if err != nil {
		return badInput(err)
	}
	var positions string
	if f.Save {
		if positions, err = f.positionsPath(cfgPath); err != nil {
			return err
		}
	}
	q := feed.Query{Symbol: st.Symbol, Mode: mode, Gen: 1}
	j := job{plan: planOf(api.EndpointOptionQuotes, mode, false), keys: strategyKeys,
		run: func(ctx context.Context, c *api.Client) (answer, error) {
			// Today is the service's, known only once execute has asked
			// it (a sandbox replaying a past day): checked here, before
			// anything is spent.
			if err := st.CheckDates(api.Today(f.Now())); err != nil {
				return answer{}, badInput(err)
			}
			a, mk, err := fetchLegs(ctx, c, f.Now, q, &st)
			if err != nil {
				return a, err
			}
			mk.Drift, mk.RealWorld = f.Drift/100, f.DriftSet
			fig := st.Analyze(&mk)
			if f.Save {
				if err := savePosition(f, positions, &st, &mk); err != nil {
					return a, err
				}
			}
			if f.PnL {
				a.Export = pnlExport(&st, &mk, &fig, f.Spots, f.IVShift/100)
				a.Rows = fmt.Sprintf("P&L of the %s on %s at %d prices", st.Name(), st.Symbol, f.Spots)
				return a, nil
			}
			a.Export = strategyExport(&st, &mk, &fig)
			a.Rows = fmt.Sprintf("%s on %s, spot %.2f", st.Name(), st.Symbol, mk.Spot)
			return a, nil
		}}
	if f.PnL {
		j.keys = nil // the dates are the answer's
	}
	return f.execute(fc, mode, j)
}

// fetchLegs fetches the chain of st's underlying and finds its legs in
// it: an unknown symbol is status 3, a leg not listed status 2.
func fetchLegs(ctx context.Context, c *api.Client, now func() time.Time, q feed.Query, st *strategy.Strategy) (answer, strategy.Market, error) {
	m := feed.Source{Client: c, Now: now}.Legs(ctx, q, st.Span(), true)
	a := answer{Resps: []*api.Response{m.Resp}}
	switch {
	case api.IsNoData(m.Err) || m.Err == nil && (m.Chain == nil || len(m.Chain.Options) == 0):
		return a, strategy.Market{}, noSuchSymbol(q.Symbol)
	case m.Err != nil:
		return a, strategy.Market{}, serviceError(m.Err, "the chain of "+q.Symbol)
	}
	mk, err := strategy.MarketOf(st, m.Chain, now())
	var nl *strategy.NotListedError
	if errors.As(err, &nl) {
		return a, mk, badInput(err)
	}
	return a, mk, err
}

// savePosition saves st filled as the flags say, as the next position.
func savePosition(f *StrategyOptions, path string, st *strategy.Strategy, mk *strategy.Market) error {
	fills, ok := strategy.Fills(st, mk, f.Natural)
	if !ok {
		return errors.New("not saved: a leg has no price to fill at; give it one with @price")
	}
	p, err := config.AddPosition(path, strategy.Saved(0, st, fills, f.Now()), 0)
	var bad *config.BadPositionsError
	switch {
	case errors.As(err, &bad):
		return badInput(err) // a local file that does not load
	case err != nil:
		return err
	}
	fmt.Fprintf(f.ErrOut, "chainwatch: saved as position %d in %s\n", p.ID, path)
	return nil
}
