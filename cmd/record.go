package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/record"
	"chainwatch/scan"
	"chainwatch/text"
)

// RecordOptions are `chainwatch record list`'s and `record prune`'s
// inputs: where the recording is (from the environment) and the flags.
type RecordOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context

	Export  exportFlags
	Before  string
	Date    string
	Parquet string
}

// NewCmdRecord holds the flight recorder's commands.
func NewCmdRecord(deps Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record",
		Short: "The flight recorder: list, prune and export what was recorded",
		Long: `Every answer chainwatch receives from the service (the screen's, a headless
command's, serve's desk's) is recorded by day under
$XDG_DATA_HOME/chainwatch/record (CHAINWATCH_RECORD names another folder),
compressed, a body identical to one already kept stored once. Recording costs no
request and no point. --no-record on any command, or enabled = false in the
config file's [record] table, turns it off; max_size there (default 2GB) caps it,
removing the oldest days first.

Any headless data command answers as at a recorded moment with --replay.`,
		Example: `  chainwatch record list
  chainwatch record prune --before 2026-11-01
  chainwatch chain SPY --replay 2026-11-24T10:00:20-05:00 --json`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newCmdRecordList(deps), newCmdRecordPrune(deps), newCmdRecordExport(deps))
	return cmd
}

func newRecordOptions(deps Deps) *RecordOptions {
	o := &RecordOptions{Getenv: deps.getenv, Now: deps.now}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

func (o *RecordOptions) bind(cmd *cobra.Command) {
	o.Out, o.ErrOut, o.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
}

func newCmdRecordList(deps Deps) *cobra.Command {
	var o *RecordOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the recorded days: symbols, answers, bytes and the span of times",
		Long: `list says of each recorded day which symbols it holds, how many answers, its
size on disk, the first and last answer's time (the service's) and where the
answers came from: "sandbox" for a sandbox's simulated market, else the
service's URL. A damaged or cut-off segment is named on stderr; its other
answers still count and replay.`,
		Example: `  chainwatch record list
  chainwatch record list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd)
			return recordListRun(o)
		},
	}
	o = newRecordOptions(deps)
	addExportFlags(cmd, &o.Export)
	return cmd
}

// recordKeys are record list's fields.
var recordKeys = []string{"date", "symbols", "answers", "bytes", "first", "last", "sources"}

func recordListRun(o *RecordOptions) error {
	format := o.Export.format()
	if err := format.Check(recordKeys); err != nil {
		return err
	}
	dir, err := config.RecordDir(o.Getenv)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	days, err := record.List(dir)
	if err != nil {
		return err
	}
	e := Export{Keys: recordKeys, Table: Table{Head: []string{"DATE", "SYMBOLS", "ANSWERS", "SIZE", "FIRST", "LAST", "SOURCE"},
		Numeric: []bool{false, false, true, true, false, false, false}, Max: []int{0, 40}}}
	answers := 0
	for _, d := range days {
		for _, p := range d.Problems {
			fmt.Fprintf(o.ErrOut, "chainwatch: warning: recording of %s: %s\n", d.Date, text.OneLine(p, 0))
		}
		first, last := d.First.In(api.Eastern), d.Last.In(api.Eastern)
		e.Records = append(e.Records, []any{d.Date, d.Symbols, d.Answers, d.Bytes, first.Format(time.RFC3339), last.Format(time.RFC3339), d.Sources})
		e.Table.Rows = append(e.Table.Rows, []string{d.Date, strings.Join(d.Symbols, " "), fmt.Sprint(d.Answers), byteSize(d.Bytes),
			first.Format("15:04:05"), last.Format("15:04:05"), strings.Join(d.Sources, " ")})
		answers += d.Answers
	}
	if err := format.WriteContext(o.Context, o.Out, e); err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s, %s recorded in %s\n", plural(len(days), "day"), plural(answers, "answer"), dir)
	return nil
}

func newCmdRecordPrune(deps Deps) *cobra.Command {
	var o *RecordOptions
	cmd := &cobra.Command{
		Use:     "prune --before DATE",
		Short:   "Delete the recorded days before DATE",
		Example: `  chainwatch record prune --before 2026-11-01`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd)
			return recordPruneRun(o)
		},
	}
	o = newRecordOptions(deps)
	cmd.Flags().StringVar(&o.Before, "before", "", "delete every recorded day before this one, YYYY-MM-DD (required)")
	_ = cmd.MarkFlagRequired("before")
	return cmd
}

func recordPruneRun(o *RecordOptions) error {
	before, err := api.ParseDate(o.Before)
	if err != nil || !before.Valid() {
		return badInput(fmt.Errorf("--before %s: want a date YYYY-MM-DD", text.Quote(o.Before)))
	}
	dir, err := config.RecordDir(o.Getenv)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	gone, err := record.Prune(dir, before)
	for _, d := range gone {
		fmt.Fprintf(o.Out, "deleted %s\n", d)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s deleted from %s\n", plural(len(gone), "recorded day"), dir)
	return nil
}

func newCmdRecordExport(deps Deps) *cobra.Command {
	var o *RecordOptions
	cmd := &cobra.Command{
		Use:   "export --date D --parquet DIR",
		Short: "Write a recorded day's chains and trades as Parquet for DuckDB, Polars or ClickHouse",
		Long: `export writes the recorded day's chain snapshots (a row per contract per answer,
with the answer's time) and option trades (each once) as Hive-partitioned Parquet
under DIR: chains/date=D/symbol=S/part-0.parquet and trades/date=D/symbol=S/
part-0.parquet. docs/recorder.md has the schema.`,
		Example: `  chainwatch record export --date 2026-11-24 --parquet ./lake
  duckdb -c "select symbol, count(*) from read_parquet('lake/chains/*/*/*.parquet', hive_partitioning=true) group by 1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd)
			return recordExportRun(o)
		},
	}
	o = newRecordOptions(deps)
	cmd.Flags().StringVar(&o.Date, "date", "", "the recorded day, YYYY-MM-DD (required)")
	cmd.Flags().StringVar(&o.Parquet, "parquet", "", "the folder to write the Parquet files under (required)")
	_ = cmd.MarkFlagRequired("date")
	_ = cmd.MarkFlagRequired("parquet")
	return cmd
}

func recordExportRun(o *RecordOptions) error {
	day, err := api.ParseDate(o.Date)
	if err != nil || !day.Valid() {
		return badInput(fmt.Errorf("--date %s: want a recorded day YYYY-MM-DD", text.Quote(o.Date)))
	}
	dir, err := config.RecordDir(o.Getenv)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	d, err := record.OpenDay(dir, day)
	if errors.Is(err, record.ErrNoDay) {
		return noData(fmt.Errorf("%w; chainwatch record list shows the recorded days", err))
	}
	if err != nil {
		return err
	}
	defer d.Close()
	for _, p := range d.Problems {
		fmt.Fprintf(o.ErrOut, "chainwatch: warning: recording of %s: %s\n", day, text.OneLine(p, 0))
	}
	got, err := record.Export(d, o.Parquet)
	if err != nil {
		return err
	}
	for _, f := range got.Files {
		fmt.Fprintln(o.Out, f)
	}
	if got.Skipped > 0 {
		fmt.Fprintf(o.ErrOut, "chainwatch: warning: %s skipped (damaged or not decodable)\n", plural(got.Skipped, "answer"))
	}
	if len(got.Files) == 0 {
		return noData(fmt.Errorf("%s holds no chain or trades answer to export", day))
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: %s chain rows and %s trades of %s written under %s\n",
		scan.GroupDigits(int64(got.Chains)), scan.GroupDigits(int64(got.Trades)), day, o.Parquet)
	return nil
}
