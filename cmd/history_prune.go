package cmd

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/history"
)

// HistoryPruneOptions are `chainwatch history prune`'s inputs.
type HistoryPruneOptions struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Context     context.Context

	Before string
}

// NewCmdHistoryPrune deletes the store's days before a date and gives the
// space back. runF replaces historyPruneRun in tests.
func NewCmdHistoryPrune(deps Deps, runF func(*HistoryPruneOptions) error) *cobra.Command {
	o := &HistoryPruneOptions{Getenv: deps.getenv}
	cmd := &cobra.Command{
		Use:     "prune --before DATE",
		Short:   "Delete the store's days before DATE (of every service) and shrink the file",
		Example: `  chainwatch history prune --before 2025-01-01`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Out, o.ErrOut, o.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			if runF != nil {
				return runF(o)
			}
			return historyPruneRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Before, "before", "", "delete every day before this one, YYYY-MM-DD (required)")
	_ = cmd.MarkFlagRequired("before")
	return cmd
}

func historyPruneRun(o *HistoryPruneOptions) error {
	before, err := api.ParseDate(o.Before)
	if err != nil || !before.Valid() {
		return badInput(fmt.Errorf("--before %q: want a date YYYY-MM-DD", o.Before))
	}
	path, err := config.HistoryPath(o.Getenv)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := history.Open(ctx, path, "")
	if err != nil {
		return fmt.Errorf("%s%s", historyProblem(err), moveAsideHint(err))
	}
	defer st.Close()
	was := history.Size(path)
	start := time.Now()
	n, err := st.Prune(ctx, before)
	if err != nil {
		return fmt.Errorf("history: pruning %s: %w", path, err)
	}
	fmt.Fprintf(o.Out, "%s: deleted %s before %s; %s, was %s (%s)\n", path, plural(int(n), "stored answer"), before,
		byteSize(history.Size(path)), byteSize(was), time.Since(start).Round(time.Millisecond))
	return nil
}
