package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/history"
	"chainwatch/scan"
	"chainwatch/text"
)

// HistoryPruneOptions are `chainwatch history prune`'s inputs.
type HistoryPruneOptions struct {
	Out, ErrOut     io.Writer
	In              io.Reader
	StdinIsTerminal bool
	Getenv          func(string) string
	Now             func() time.Time
	Context         context.Context

	Before string
	Yes    bool
}

// pruneKeepsDays are the calendar days a prune leaves alone without
// asking: a year of sessions, what iv_rank, iv_percentile and the HVs
// are worked out from.
const pruneKeepsDays = 366

// NewCmdHistoryPrune deletes the store's days before a date and gives the
// space back. runF replaces historyPruneRun in tests.
func NewCmdHistoryPrune(deps Deps, runF func(*HistoryPruneOptions) error) *cobra.Command {
	o := &HistoryPruneOptions{Getenv: deps.getenv, Now: deps.now, In: deps.in, StdinIsTerminal: deps.stdinIsTerminal}
	if o.Now == nil {
		o.Now = time.Now
	}
	cmd := &cobra.Command{
		Use:   "prune --before DATE",
		Short: "Delete the store's days before DATE (of every service) and shrink the file",
		Long: `prune deletes every stored answer of a day before DATE, of every service, and
gives the space back. DATE may not be after today. A prune that reaches into
the last year (what iv_rank, iv_percentile and the HVs are worked out from)
says how much of it would go and asks first, unless --yes.`,
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
	cmd.Flags().StringVar(&o.Before, "before", "", "delete every day before this one, YYYY-MM-DD (required; today at the latest)")
	cmd.Flags().BoolVar(&o.Yes, "yes", false, "do not ask before deleting days of the last year")
	_ = cmd.MarkFlagRequired("before")
	return cmd
}

func historyPruneRun(o *HistoryPruneOptions) error {
	before, err := api.ParseDate(o.Before)
	if err != nil || !before.Valid() {
		return badInput(fmt.Errorf("--before %s: want a date YYYY-MM-DD", text.Quote(o.Before)))
	}
	today := api.Today(o.Now())
	if before > today {
		return badInput(fmt.Errorf("--before %s: a day after today (%s); the store holds past days only, and --before %s would delete them all", before, today, today))
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
		return storeError(err)
	}
	defer st.Close()
	if err := o.confirm(ctx, st, before, today.AddDays(-pruneKeepsDays)); err != nil {
		return err
	}
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

// confirm asks before a prune that deletes days since since, unless
// --yes; with no one to ask it refuses (exit status 2).
func (o *HistoryPruneOptions) confirm(ctx context.Context, st *history.Store, before, since api.Date) error {
	if o.Yes || before <= since {
		return nil
	}
	all, recent, err := st.CountBefore(ctx, before, since)
	if err != nil {
		return fmt.Errorf("history: %s: %w", st.Path(), err)
	}
	if recent == 0 {
		return nil
	}
	what := fmt.Sprintf("%s stored answers before %s, %s of them of the last year (since %s)",
		scan.GroupDigits(all), before, scan.GroupDigits(recent), since)
	if !o.StdinIsTerminal {
		return badInput(fmt.Errorf("prune: this deletes %s; pass --yes to delete them", what))
	}
	fmt.Fprintf(o.ErrOut, "Delete %s? [y/N] ", what)
	line, _ := bufio.NewReader(o.In).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return badInput(errors.New("prune: not confirmed; nothing was deleted"))
	}
	return nil
}
