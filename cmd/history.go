package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/config"
	"chainwatch/history"
	"chainwatch/scan"
)

// HistoryOptions are `chainwatch history`'s inputs: where the store is
// (from the environment) and --move-aside.
type HistoryOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context

	MoveAside bool
}

// NewCmdHistory reports the store of past days and holds its two
// subcommands, prune and backfill. runF replaces historyRun in tests.
func NewCmdHistory(deps Deps, runF func(*HistoryOptions) error) *cobra.Command {
	o := &HistoryOptions{Getenv: deps.getenv, Now: deps.now}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Report the store of past days (what was bought once and is answered from it at 0 points)",
		Long: `history reports the local store of past days: every answer to a request for a
day before today (the service's today) is kept in it when it is bought, and the
same request is answered from it afterwards at 0 points ("from history").

It lives in $XDG_DATA_HOME/chainwatch/history.db (~/.local/share/chainwatch):
market data bought with points, worth keeping and backing up, which is what the
data directory is for. CHAINWATCH_HISTORY names another file; --no-history on
any command runs without it.

A file there that is not a chainwatch store (corrupt, or another program's) is
never changed or deleted: every command reports it and runs without history
until --move-aside renames it (to history.db.bad-DATE-TIME) and a new store is
made.`,
		Example: `  chainwatch history
  chainwatch history backfill SPY QQQ AAPL --days 252
  chainwatch history prune --before 2025-01-01
  chainwatch history --move-aside`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out, o.ErrOut, o.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			if runF != nil {
				return runF(o)
			}
			return historyRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.MoveAside, "move-aside", false, "rename a store that cannot be used (corrupt, another program's) to history.db.bad-DATE-TIME; nothing is deleted")
	cmd.AddCommand(NewCmdHistoryPrune(deps, nil), NewCmdHistoryBackfill(deps, nil))
	return cmd
}

// historyRun prints the store's path, size and contents, or moves a bad
// one aside when asked.
func historyRun(o *HistoryOptions) error {
	path, err := config.HistoryPath(o.Getenv)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if o.MoveAside {
		return moveAside(ctx, o, path)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(o.Out, "%s: no store yet (nothing bought for a past day); 0 bytes\n", path)
		return nil
	}
	st, err := history.Open(ctx, path, "")
	if err != nil {
		return storeError(err)
	}
	defer st.Close()
	sum, err := st.Summary(ctx)
	if err != nil {
		return fmt.Errorf("history: %s: %w", path, err)
	}
	fmt.Fprintf(o.Out, "%s: %s\n", path, byteSize(sum.Bytes))
	if len(sum.Services) == 0 {
		fmt.Fprintln(o.Out, "  empty")
	}
	for _, s := range sum.Services {
		fmt.Fprintf(o.Out, "  %s\n", s.Name)
		if s.QuoteDays > 0 {
			fmt.Fprintf(o.Out, "    quotes: %s symbol-days of %s, %s to %s\n", scan.GroupDigits(int64(s.QuoteDays)), plural(s.Symbols, "symbol"), s.First, s.Last)
		}
		if s.Answers > 0 {
			fmt.Fprintf(o.Out, "    other answers: %s (%s, %s stored), %s to %s\n", scan.GroupDigits(int64(s.Answers)), byteSize(s.AnswerBytes), byteSize(s.AnswersPacked), s.AnswerFirst, s.AnswerLast)
		}
	}
	return nil
}

// moveAside renames a store that cannot be used; a good one is kept.
func moveAside(ctx context.Context, o *HistoryOptions, path string) error {
	st, err := history.Open(ctx, path, "")
	var bad *history.BadFileError
	switch {
	case err == nil:
		st.Close()
		return badInput(fmt.Errorf("--move-aside: %s is a good chainwatch store; it is kept (chainwatch history prune shrinks it)", path))
	case !errors.As(err, &bad):
		return fmt.Errorf("%s", historyProblem(err))
	}
	to, err := history.MoveAside(path, o.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "moved %s to %s; a new store is made on the next run\n", path, to)
	return nil
}

// byteSize is a size for a person: 1.2 MB.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
