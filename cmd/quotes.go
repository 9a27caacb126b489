package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
)

// QuotesOptions are `chainwatch quotes`' inputs: the symbols, its flags,
// which of them were given, and the process's streams, environment and
// clock.
type QuotesOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context

	Symbols    []string
	Export     exportFlags
	Mode       string
	ModeSet    bool
	Date       string
	Events     bool
	ConfigPath string
	ConfigSet  bool
	Service    serviceFlags
}

// NewCmdQuotes prints the watchlist page's rows for scripts: the same
// request (one underlying-quotes request for every symbol), the same rows
// (feed.QuoteRows), through the shared exporter. runF replaces quotesRun
// in tests of the flags.
func NewCmdQuotes(deps Deps, runF func(*QuotesOptions) error) *cobra.Command {
	f := &QuotesOptions{Getenv: deps.getenv, Now: deps.now}
	if f.Now == nil {
		f.Now = time.Now
	}
	cmd := &cobra.Command{
		Use:   "quotes [SYMBOL...]",
		Short: "Print the quotes of several underlyings (the watchlist's rows)",
		Long: `quotes prints one row per symbol, as the watchlist page (W) shows them: last,
change and change %, bid and ask with sizes, volume, IV30 and its change, the
implied underlying's badge, and the next earnings report and ex-dividend date.
An aligned table, or --json or --csv for scripts; the points spent go to stderr.

Without symbols it prints the config file's watchlist (or the default one).
All the symbols are one underlying-quotes request: 4 points live, 8 delayed,
3 for a past --date. The next events are one calendar request more (15
points); --events=false leaves them out. A symbol the service does not know
is named on stderr; when it knows none of them, the exit status is 3.`,
		Example: `  chainwatch quotes SPY QQQ IWM --csv
  chainwatch quotes                      the config file's watchlist
  chainwatch quotes AAPL MSFT --json --events=false
  chainwatch quotes SPY --date 2026-11-18`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Out, f.ErrOut, f.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			f.Symbols = args
			changed := cmd.Flags().Changed
			f.ModeSet, f.ConfigSet = changed("mode"), changed("config")
			if runF != nil {
				return runF(f)
			}
			return quotesRun(f)
		},
	}
	fl := cmd.Flags()
	addExportFlags(cmd, &f.Export)
	fl.StringVar(&f.Mode, "mode", "", "data path: live or delayed (default the config file's mode, else live)")
	fl.StringVar(&f.Date, "date", "", "a past day YYYY-MM-DD: its end-of-day quotes (historical); default today")
	fl.BoolVar(&f.Events, "events", true, "also fetch the next earnings and ex-dividend dates (one calendar request, 15 points)")
	fl.StringVar(&f.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addServiceFlags(cmd, &f.Service)
	return cmd
}

// quotesRun checks the symbols, mode and day before anything is asked,
// fetches, and prints. Errors are one line on stderr with nothing on
// stdout: a caller's mistake exits 2, no known symbol 3, a failure 1.
func quotesRun(f *QuotesOptions) error {
	fc, _, err := configFile(f.ConfigPath, f.ConfigSet, f.Getenv)
	if err != nil {
		return badInput(err)
	}
	symbols, err := quoteSymbols(f, fc)
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
	date, err := config.ParseDate(f.Date, f.Now())
	if err != nil {
		return badInput(fmt.Errorf("--date: %w", err))
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
		// Quotes from a simulated market must never pass for real ones.
		fmt.Fprintln(f.ErrOut, "chainwatch: no credentials: quoting the embedded sandbox's simulated market")
	}
	ctx, cancel := context.WithTimeout(f.Context, 2*time.Minute)
	defer cancel()
	src := feed.Source{Client: client, Now: f.Now}
	q := feed.Query{Mode: mode, Date: date}
	qm := src.Quotes(ctx, q, symbols)
	if qm.Err != nil && !api.IsNoData(qm.Err) {
		return errors.New(feed.Describe(qm.Err, "the request"))
	}
	out := quotesOutcome{Query: q, Day: feed.ShownDay(q, f.Now()), Quotes: qm}
	rows := feed.QuoteRows(symbols, qm.Quotes, nil)
	var found []string
	for _, r := range rows {
		if r.Found {
			found = append(found, r.Symbol)
		} else {
			out.Missing = append(out.Missing, r.Symbol)
		}
	}
	if len(found) == 0 {
		return noData(fmt.Errorf("no such symbol: %s (the service knows none of them)", strings.Join(symbols, ", ")))
	}
	var next map[string]feed.NextEvents
	if f.Events {
		em := src.Events(ctx, q, found)
		out.Events = &em
		switch {
		case em.Err != nil && !api.IsNoData(em.Err):
			fmt.Fprintf(f.ErrOut, "chainwatch: warning: the next events are left out: %s\n", feed.Describe(em.Err, "the request"))
		default:
			next = feed.Next(em.Events, q.Day(f.Now()))
		}
	}
	for _, r := range feed.QuoteRows(symbols, qm.Quotes, next) {
		if r.Found {
			out.Rows = append(out.Rows, r)
		}
	}
	if err := f.Export.format().Write(f.Out, quotesExport(out)); err != nil {
		return err
	}
	if len(out.Missing) > 0 {
		fmt.Fprintf(f.ErrOut, "chainwatch: no such symbol: %s\n", strings.Join(out.Missing, ", "))
	}
	fmt.Fprintln(f.ErrOut, quotesSummary(out))
	return nil
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
