package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/scan"
	"chainwatch/text"
)

// ScanOptions are `chainwatch scan`'s inputs: its flags, which of them
// were given, and the process's streams, environment and clock.
type ScanOptions struct {
	headless

	Formulas []string
	Sort     string
	Name     string
	All      bool
	AllSet   bool // --all was given, as true or false
	List     bool
}

// NewCmdScan is the scanner for scripts: the same scan, checks and errors
// as the modal (scan.Run, scan.DescribeError), with the rows on stdout as
// a table, JSON or CSV, and what it cost on stderr. runF replaces scanRun
// in tests of the flags.
func NewCmdScan(deps Deps, runF func(*ScanOptions) error) *cobra.Command {
	f := &ScanOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "scan --formula EXPR [--formula EXPR ...] | --name SAVED",
		Short: "Run a custom scan (30 to 250 points) and print the rows",
		Long: `scan runs a custom scan of the market-data service, the same scan as the
watch screen's scanner, and prints the matching symbols: an aligned table, or
--json or --csv for scripts. Rows, points spent and points left go to stderr.

Each --formula is one field of the scan: a boolean formula filters rows (iv30 > 40)
and is not printed, since it holds on every row; any other is a column (iv30).
--name runs a scan saved in the config file or a preset (--list shows them);
--formula adds fields to it. --sort KEY orders the
rows by the formula or display name KEY (descending unless KEY:asc), in place
of the scan's own order.

A scan costs 30 points live and 50 delayed for the top 20 rows; --all returns
every row for 150 or 250, and says so on stderr before it is sent; --all=false
runs a saved scan with all_results = true for its top 20 only. Formulas are
checked against the service's field list first, so a typo costs nothing.`,
		Example: `  chainwatch scan --formula 'iv30 > 40' --formula iv30 --sort iv30
  chainwatch scan --name "High IV" --json
  chainwatch scan --formula 'days_to_earnings <= 7' --formula earnings_date --sort earnings_date:asc --csv
  chainwatch scan --list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd)
			f.AllSet = cmd.Flags().Changed("all")
			if runF != nil {
				return runF(f)
			}
			return scanRun(f)
		},
	}
	fl := cmd.Flags()
	// A StringArray, not a StringSlice: formulas contain commas (min(a, b)).
	fl.StringArrayVar(&f.Formulas, "formula", nil, "a formula: a filter (iv30 > 40) or a column (iv30); repeat for more")
	fl.StringVar(&f.Sort, "sort", "", "order rows by KEY, a formula or display name of the scan: KEY[:asc|:desc] (default desc)")
	fl.StringVar(&f.Name, "name", "", "run a saved scan or preset by name (chainwatch scan --list shows them)")
	fl.BoolVar(&f.All, "all", false, "every matching row, not the top 20 (150 points live, 250 delayed); --all=false overrides a saved scan's all_results")
	fl.BoolVar(&f.List, "list", false, "list the saved scans and presets with their formulas, and run nothing")
	addHeadlessFlags(cmd, &f.headless)
	for _, other := range []string{"formula", "name", "sort", "all", "json", "csv", "jq", "template", "cost", "watch"} {
		cmd.MarkFlagsMutuallyExclusive("list", other)
	}
	return cmd
}

// scanRun resolves the scan, then runs it as every headless command runs
// (headless.execute). Anything wrong is one line on stderr with nothing on
// stdout, so a script never parses half an answer.
func scanRun(f *ScanOptions) error {
	fc, path, err := f.config()
	if err != nil {
		return err
	}
	saved := scan.FromSavedAll(fc.SavedScans())
	if f.List {
		return printScanList(f.Out, path, saved)
	}
	mode, err := f.dataMode(fc)
	if err != nil {
		return err
	}
	s, err := scanFromFlags(f, saved)
	if err != nil {
		return badInput(err)
	}
	ep := api.EndpointScan
	if s.AllResults {
		ep = api.EndpointScanAllResults
	}
	j := job{plan: planOf(ep, mode, false), run: func(ctx context.Context, client *api.Client) (answer, error) {
		return runScan(ctx, f, client, s, mode)
	}}
	return f.execute(fc, mode, j)
}

// runScan is one run: the field list (free) to check the formulas, then
// the scan.
func runScan(ctx context.Context, f *ScanOptions, client *api.Client, s scan.Scan, mode api.Mode) (answer, error) {
	// Without the field list the service checks the formulas (a 400
	// costs nothing either, only a round trip).
	var g *api.Grammar
	if md, _, err := client.ScannerMetadata(ctx, api.ReferenceParams{Mode: mode}); err == nil {
		g = api.NewGrammar(md.Fields)
	} else {
		msg, _ := scan.DescribeError(err, s)
		fmt.Fprintf(f.ErrOut, "chainwatch: warning: cannot read the scanner's field list (%s); the service will check the formulas\n", msg)
	}
	if s.AllResults {
		// Scripts asked for the cost before it is spent; there is no one to
		// confirm it, so it is said, not asked.
		fmt.Fprintf(f.ErrOut, "chainwatch: --all: this scan returns every matching row and costs %d points (%s)\n", s.Cost(mode), mode)
	}
	out, err := scan.Run(ctx, client, g, s, mode, f.Now())
	if err != nil {
		msg, field := scan.DescribeError(err, s)
		if field >= 0 {
			return answer{}, badInput(errors.New(msg)) // a formula the service refused
		}
		return answer{}, errors.New(msg)
	}
	return answer{Export: scanExport(out), Rows: scanRowsText(out), Resps: []*api.Response{out.Resp}}, nil
}

// scanFromFlags builds the scan to run: --name's, plus each --formula,
// with --all and --sort applied. --all, when given, says what the run
// returns either way: --all=false runs a saved scan that keeps
// all_results = true for the top 20 at the lower cost.
func scanFromFlags(f *ScanOptions, saved []scan.Scan) (scan.Scan, error) {
	var s scan.Scan
	if name := strings.TrimSpace(f.Name); name != "" {
		var ok bool
		if s, ok = scan.Find(saved, name); !ok {
			return s, fmt.Errorf("--name %s: no saved scan or preset has that name; there are: %s", text.Quote(name), scanNames(saved))
		}
	} else if f.Name != "" {
		return s, errors.New("--name needs the name of a saved scan or preset (chainwatch scan --list shows them)")
	}
	for i, src := range f.Formulas {
		if strings.TrimSpace(src) == "" {
			return s, fmt.Errorf("--formula number %d is empty: give an expression such as 'iv30 > 40'", i+1)
		}
		s.Fields = append(s.Fields, api.ScanFieldParam{Formula: src})
	}
	if len(s.Fields) == 0 {
		return s, errors.New("no scan to run: give a formula with --formula 'iv30 > 40' (repeat --formula for more fields), or a saved scan or preset with --name (chainwatch scan --list shows them)")
	}
	if f.AllSet {
		s.AllResults = f.All
	}
	if f.Sort != "" {
		if err := applySort(&s, f.Sort); err != nil {
			return s, err
		}
	}
	return s, nil
}

// applySort makes KEY[:asc|:desc] the scan's only sort. The service sorts
// by the sorted fields in the scan's order, so --sort, which says "this
// order", replaces the scan's own rather than adding a tie-breaker.
func applySort(s *scan.Scan, arg string) error {
	key, dir := arg, api.SortDesc
	if i := strings.LastIndexByte(arg, ':'); i >= 0 {
		switch d := api.SortOrder(strings.ToLower(strings.TrimSpace(arg[i+1:]))); d {
		case api.SortAsc, api.SortDesc:
			key, dir = arg[:i], d
		}
	}
	key = strings.TrimSpace(key)
	idx := -1
	for _, exact := range []bool{true, false} {
		for i, fp := range s.Fields {
			for _, name := range []string{fp.Key(), strings.TrimSpace(fp.Formula), fp.DisplayName} {
				if name != "" && (name == key || !exact && strings.EqualFold(name, key)) {
					idx = i
					break
				}
			}
			if idx >= 0 {
				break
			}
		}
		if idx >= 0 {
			break
		}
	}
	if idx < 0 {
		var keys []string
		for _, fp := range s.Fields {
			keys = append(keys, fmt.Sprintf("%q", fp.Key()))
		}
		return fmt.Errorf("--sort %q: no formula or display name of the scan is %q; sort by one of %s, or add it with --formula %q",
			arg, key, strings.Join(keys, ", "), key)
	}
	for i := range s.Fields {
		s.Fields[i].Sort = api.SortNone
	}
	s.Fields[idx].Sort = dir
	return nil
}

// scanNames lists every name --name accepts, saved scans first.
func scanNames(saved []scan.Scan) string {
	var names []string
	for _, list := range [][]scan.Scan{saved, scan.Presets()} {
		for _, s := range list {
			names = append(names, fmt.Sprintf("%q", s.Name))
		}
	}
	return strings.Join(names, ", ")
}
