package cmd

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/vol"
)

// VolOptions are `chainwatch vol`'s inputs.
type VolOptions struct {
	headless

	Symbol   string
	Date     string
	Earnings bool
}

// NewCmdVol prints the vol page's table for scripts: one row per expiry
// with the same figures (chainwatch/vol), from one whole chain. runF
// replaces volRun in tests of the flags.
func NewCmdVol(deps Deps, runF func(*VolOptions) error) *cobra.Command {
	f := &VolOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "vol SYMBOL",
		Short: "Print each expiry's ATM IV, expected move, skew and put/call ratios (4 points)",
		Long: `vol prints the watch screen's vol page as a table, one row per expiry: days to
expiry, the ATM strike (nearest spot) and its IV (the mean of its call's and put's),
the expected move (the ATM straddle's mid) in points and as a percentage of spot,
the 25-delta risk reversal (call IV less put IV) and butterfly (their mean less
the ATM IV) from IVs interpolated in delta, and the put/call volume and open
interest ratios. An expiry without a two-sided market on its ATM call and put has
no ATM IV, move or butterfly (a dash; null in JSON, empty in CSV).

It fetches one whole chain: 4 points live, 8 delayed, 3 for a past --date.

--json and --csv keep IVs, the risk reversal and the butterfly as fractions, as
the service sends an option's iv (0.2208 is 22.08 %), the one unit of IV in
every command's JSON; expected_move_percent is in percent.`,
		Example: `  chainwatch vol SPY
  chainwatch vol SPY --csv
  chainwatch vol AAPL --date 2026-11-18 --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInput(fmt.Errorf("vol takes one symbol, not %d arguments: chainwatch vol SPY", len(args)))
			}
			return nil
		},
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.bind(cmd)
			f.Symbol = args[0]
			if runF != nil {
				return runF(f)
			}
			return volRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Date, "date", "", "a past day's end-of-day chain, yyyy-mm-dd (default today)")
	fl.BoolVar(&f.Earnings, "earnings", false, "print the earnings instead: the next report's implied move and the last 8 reports' realized moves (one calendar request more, 15 points; the closes from the store of past days)")
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

// volRun checks the arguments, then fetches the whole chain and prints
// every expiry's figures as every headless command prints
// (headless.execute).
func volRun(f *VolOptions) error {
	fc, q, err := f.symbolQuery(f.Symbol, f.Date)
	if err != nil {
		return err
	}
	sym, mode, now := q.Symbol, q.Mode, f.Now()
	historical := q.Historical(now)
	plan := planOf(api.EndpointOptionQuotes, mode, historical)
	if historical {
		plan.parts[0].Stored = func(ctx context.Context, c *api.Client) bool {
			return c.StoredAnswer(ctx, api.OptionQuotesParams{Symbol: sym, Date: q.Date.String(), Mode: mode}, api.EndpointOptionQuotes)
		}
	}
	if f.Earnings {
		plan.parts = append(plan.parts, costPart{Endpoint: api.EndpointCalendar, Mode: mode, Count: 1})
		return f.execute(fc, mode, volEarningsJob(f, q, plan, historical))
	}
	j := job{plan: plan, keys: volKeys, historical: historical,
		run: func(ctx context.Context, c *api.Client) (answer, error) {
			m := feed.Source{Client: c, Now: f.Now}.Chain(ctx, q, 0)
			a := answer{Resps: []*api.Response{m.Resp}}
			switch {
			case api.IsNoData(m.Err) || m.Err == nil && m.Chain == nil:
				return a, noSuchSymbol(sym)
			case m.Err != nil:
				return a, serviceError(m.Err, "the chain of "+sym)
			}
			day := feed.ShownDay(q, f.Now())
			surf := vol.FromChain(m.Chain, day)
			if len(surf.Exps) == 0 {
				return a, noData(fmt.Errorf("%s lists no expiry on or after %s", sym, day))
			}
			a.Export = volExport(surf.Figures())
			a.Rows = volRowsText(&surf) + pastText(m.Past)
			return a, nil
		}}
	return f.execute(fc, mode, j)
}

// volKeys are a row's keys (JSON) and the CSV header.
var volKeys = []string{
	"expiry", "dte", "atm_strike", "atm_iv", "expected_move", "expected_move_percent",
	"call_25d_iv", "put_25d_iv", "risk_reversal_25d", "butterfly_25d",
	"call_volume", "put_volume", "put_call_volume_ratio",
	"call_open_interest", "put_open_interest", "put_call_open_interest_ratio",
}

// volExport is the figures as the exporter prints them: a row per
// expiry; the table as the page shows them.
func volExport(figs []vol.Figures) Export {
	e := Export{Keys: volKeys}
	t := Table{
		Head:    []string{"EXPIRY", "DTE", "ATM", "ATM IV", "MOVE", "MOVE %", "RR25", "BF25", "P/C VOL", "P/C OI"},
		Numeric: []bool{false, true, true, true, true, true, true, true, true, true},
	}
	for i := range figs {
		f := &figs[i]
		e.Records = append(e.Records, []any{
			f.Date.String(), f.DTE, num(f.ATMStrike), num(iv(f.ATMIV)), num(round(f.Move, 6)), num(round(f.MovePct*100, 6)),
			num(iv(f.Call25)), num(iv(f.Put25)), num(iv(f.RR25)), num(iv(f.BF25)),
			volCount(f.CallVolume), volCount(f.PutVolume), num(round(f.PCVolume, 6)),
			volCount(f.CallOI), volCount(f.PutOI), num(round(f.PCOI, 6)),
		})
		t.Rows = append(t.Rows, []string{
			f.Date.String(), strconv.Itoa(f.DTE), strike(f.ATMStrike), pct(f.ATMIV, 1), move(f.Move), pct(f.MovePct, 2),
			volPoints(f.RR25), volPoints(f.BF25), fixedNum(f.PCVolume, 2), fixedNum(f.PCOI, 2),
		})
	}
	e.Table = t
	return e
}

// iv is an IV (or a spread of IVs) to the service's eight decimals: a
// mean or an interpolation of the service's values carries binary noise
// (0.12512769499999998) no reader wants.
func iv(v float64) float64 { return round(v, 8) }

// volCount is a summed count, nil when none was reported.
func volCount(v int64) any {
	if v < 0 {
		return nil
	}
	return v
}

// The table's cells, as the vol page shows them; "" is a dash.

func fixedNum(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func pct(v float64, decimals int) string {
	if s := fixedNum(v*100, decimals); s != "" {
		return s + "%"
	}
	return ""
}

func strike(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func move(v float64) string {
	if s := fixedNum(v, 2); s != "" {
		return "±" + s
	}
	return ""
}

// volPoints is a spread of IVs in vol points with its sign: "-1.7".
func volPoints(v float64) string {
	s := fixedNum(v*100, 1)
	switch {
	case s == "-0.0":
		return "0.0" // a spread that rounds to nothing has no sign
	case s != "" && !strings.HasPrefix(s, "-") && s != "0.0":
		s = "+" + s
	}
	return s
}

// volRowsText starts the summary: the expiries, the underlying's price
// and IV30 against its previous close (the page's header).
func volRowsText(s *vol.Surface) string {
	n := fmt.Sprintf("%d expiries", len(s.Exps))
	if len(s.Exps) == 1 {
		n = "1 expiry"
	}
	n += " of " + s.Symbol
	if !math.IsNaN(s.Spot) {
		n += ", spot " + strconv.FormatFloat(s.Spot, 'f', 2, 64)
	}
	if iv := fixedNum(s.IV30.Now, 2); iv != "" {
		n += ", IV30 " + iv
		if prev := fixedNum(s.IV30.Prev(), 2); prev != "" {
			n += " (previous close " + prev + ")"
		}
	}
	return n
}
