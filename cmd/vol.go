package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
	"chainwatch/vol"
)

// VolOptions are `chainwatch vol`'s inputs: its symbol and flags, which
// of them were given, and the process's streams, environment and clock.
type VolOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context

	Symbol     string
	Date       string
	DateSet    bool
	Mode       string
	ModeSet    bool
	Export     exportFlags
	ConfigPath string
	ConfigSet  bool
	Service    serviceFlags
}

// NewCmdVol prints the vol page's table for scripts: one row per expiry
// with the same figures (chainwatch/vol), from one whole chain. runF
// replaces volRun in tests of the flags.
func NewCmdVol(deps Deps, runF func(*VolOptions) error) *cobra.Command {
	f := &VolOptions{Getenv: deps.getenv, Now: deps.now}
	if f.Now == nil {
		f.Now = time.Now
	}
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
the service sends an option's iv (0.2208 is 22.08 %); expected_move_percent and
the document's iv30 fields are in percent, as the service sends iv30.`,
		Example: `  chainwatch vol SPY
  chainwatch vol SPY --csv
  chainwatch vol AAPL --date 2026-11-18 --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInput(fmt.Errorf("vol takes one symbol, not %d arguments: chainwatch vol SPY", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Out, f.ErrOut, f.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			f.Symbol = args[0]
			changed := cmd.Flags().Changed
			f.DateSet, f.ModeSet, f.ConfigSet = changed("date"), changed("mode"), changed("config")
			if runF != nil {
				return runF(f)
			}
			return volRun(f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Date, "date", "", "a past day's end-of-day chain, yyyy-mm-dd (default today)")
	fl.StringVar(&f.Mode, "mode", "", "data path: live or delayed (default the config file's mode, else live)")
	addExportFlags(cmd, &f.Export)
	fl.StringVar(&f.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addServiceFlags(cmd, &f.Service)
	return cmd
}

// volRun checks the arguments, fetches the whole chain and prints every
// expiry's figures. Anything wrong is one line on stderr, nothing on
// stdout.
func volRun(f *VolOptions) error {
	sym, err := config.ParseSymbol(f.Symbol)
	if err != nil {
		return badInput(err)
	}
	now := f.Now()
	var date api.Date
	if f.DateSet {
		if date, err = parseDate(f.Date, now); err != nil {
			return badInput(err)
		}
	}
	// The config file is found and read as scan finds it.
	fc, _, err := scanConfigFile(&ScanOptions{ConfigPath: f.ConfigPath, ConfigSet: f.ConfigSet, Getenv: f.Getenv})
	if err != nil {
		return badInput(err)
	}
	mode := api.Live
	switch {
	case f.ModeSet:
		if mode, err = config.ParseMode(f.Mode); err != nil {
			return badInput(fmt.Errorf("--mode %w", err))
		}
	case fc.Mode != "":
		mode, _ = config.ParseMode(fc.Mode) // checked by config.Load
	}

	svc := f.Service
	svc.file = &fc.Service
	sess, err := resolveSession(svc, f.Getenv)
	if err != nil {
		return err
	}
	defer sess.close()
	client, err := api.NewClient(api.WithBaseURL(sess.baseURL), api.WithTokenSource(sess.tokens), api.WithMode(mode), api.WithClock(f.Now))
	if err != nil {
		return err
	}
	if sess.source == fromEmbeddedSandbox {
		// Figures from a simulated market must never pass for real ones.
		fmt.Fprintln(f.ErrOut, "chainwatch: no credentials: the embedded sandbox's simulated market")
	}
	q := feed.Query{Symbol: sym, Mode: mode, Date: date, Gen: 1}
	m := feed.Source{Client: client, Now: f.Now}.Chain(f.Context, q, 0)
	switch {
	case api.IsNoData(m.Err) || m.Err == nil && m.Chain == nil:
		return noData(fmt.Errorf("no such symbol: the service lists no options for %s", sym))
	case m.Err != nil:
		return errors.New(feed.Describe(m.Err, "the chain"))
	}
	day := feed.ShownDay(q, now)
	surf := vol.FromChain(m.Chain, day)
	if len(surf.Exps) == 0 {
		return noData(fmt.Errorf("%s lists no expiry on or after %s", sym, day))
	}
	e := volExport(&surf, surf.Figures(), m, mode)
	if err := f.Export.format().Write(f.Out, e); err != nil {
		return err
	}
	fmt.Fprintln(f.ErrOut, volSummary(len(surf.Exps), m.Resp))
	return nil
}

// volKeys are a row's keys (JSON) and the CSV header.
var volKeys = []string{
	"expiry", "dte", "atm_strike", "atm_iv", "expected_move", "expected_move_percent",
	"call_25d_iv", "put_25d_iv", "risk_reversal_25d", "butterfly_25d",
	"call_volume", "put_volume", "put_call_volume_ratio",
	"call_open_interest", "put_open_interest", "put_call_open_interest_ratio",
}

// volExport is the figures as the exporter prints them: JSON
// {symbol, date, mode, spot, iv30..., timestamp, points, rows}; CSV the
// rows; the table as the page shows them.
func volExport(s *vol.Surface, figs []vol.Figures, m feed.ChainMsg, mode api.Mode) Export {
	points := 0
	if m.Resp != nil {
		points = m.Resp.Cost
	}
	var ts any
	if m.Chain.Timestamp >= 0 && m.Chain.Timestamp != 0 {
		ts = m.Chain.Timestamp.String()
	}
	e := Export{
		Meta: []Field{
			{"symbol", s.Symbol}, {"date", s.Day.String()}, {"mode", mode}, {"spot", num(s.Spot)},
			{"iv30", num(s.IV30.Now)}, {"iv30_change", num(s.IV30.Change)}, {"iv30_change_percent", num(s.IV30.ChangePct)},
			{"iv30_prev_close", num(s.IV30.Prev())}, {"timestamp", ts}, {"points", points},
		},
		Keys: volKeys,
	}
	t := Table{
		Head:    []string{"EXPIRY", "DTE", "ATM", "ATM IV", "MOVE", "MOVE %", "RR25", "BF25", "P/C VOL", "P/C OI"},
		Numeric: []bool{false, true, true, true, true, true, true, true, true, true},
	}
	for i := range figs {
		f := &figs[i]
		e.Records = append(e.Records, []any{
			f.Date.String(), f.DTE, num(f.ATMStrike), num(f.ATMIV), num(f.Move), num(f.MovePct * 100),
			num(f.Call25), num(f.Put25), num(f.RR25), num(f.BF25),
			count(f.CallVolume), count(f.PutVolume), num(f.PCVolume),
			count(f.CallOI), count(f.PutOI), num(f.PCOI),
		})
		t.Rows = append(t.Rows, []string{
			f.Date.String(), strconv.Itoa(f.DTE), strike(f.ATMStrike), pct(f.ATMIV, 1), move(f.Move), pct(f.MovePct, 2),
			volPoints(f.RR25), volPoints(f.BF25), fixed(f.PCVolume, 2), fixed(f.PCOI, 2),
		})
	}
	e.Table = t
	return e
}

// num is v for JSON and CSV, nil (null, an empty cell) when unknown.
func num(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// count is a summed count, nil when none was reported.
func count(v int64) any {
	if v < 0 {
		return nil
	}
	return v
}

// The table's cells, as the vol page shows them; "" is a dash.

func fixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func pct(v float64, decimals int) string {
	if s := fixed(v*100, decimals); s != "" {
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
	if s := fixed(v, 2); s != "" {
		return "±" + s
	}
	return ""
}

// volPoints is a spread of IVs in vol points with its sign: "-1.7".
func volPoints(v float64) string {
	s := fixed(v*100, 1)
	switch {
	case s == "-0.0":
		return "0.0" // a spread that rounds to nothing has no sign
	case s != "" && !strings.HasPrefix(s, "-") && s != "0.0":
		s = "+" + s
	}
	return s
}

// volSummary is the stderr line after the table.
func volSummary(expiries int, resp *api.Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "chainwatch: %d expiries", expiries)
	if expiries == 1 {
		b.Reset()
		b.WriteString("chainwatch: 1 expiry")
	}
	if resp != nil {
		fmt.Fprintf(&b, ", %s points spent", scan.GroupDigits(int64(resp.Cost)))
		if left, ok := resp.PointsLeft.Get(); ok {
			fmt.Fprintf(&b, ", %s points left this month", scan.GroupDigits(left))
		}
	}
	return b.String()
}
