package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"charm.land/bubbles/v2/progress"
	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/history"
	"chainwatch/scan"
	"chainwatch/theme"
)

// HistoryBackfillOptions are `chainwatch history backfill`'s inputs.
type HistoryBackfillOptions struct {
	headless

	In              io.Reader
	StdinIsTerminal bool
	// Progress draws a bar in place (a terminal) instead of a line a day.
	Progress bool

	Symbols []string
	Days    int
	Yes     bool
	Budget  int
}

// maxBackfillDays bounds --days: underlying quotes go back to 2011.
const maxBackfillDays = 252 * 16

// NewCmdHistoryBackfill buys the past days a store lacks. runF replaces
// historyBackfillRun in tests.
func NewCmdHistoryBackfill(deps Deps, runF func(*HistoryBackfillOptions) error) *cobra.Command {
	o := &HistoryBackfillOptions{headless: newHeadless(deps), In: deps.in, StdinIsTerminal: deps.stdinIsTerminal}
	cmd := &cobra.Command{
		Use:   "backfill SYMBOL... --days N",
		Short: "Buy the IV30 and closes of the last N sessions that the store lacks (3 points a day for all the symbols)",
		Long: `backfill fetches, for the N sessions before today, the underlying quotes (IV30,
close, OHLC, volume) of the symbols that the store of past days lacks: one
underlying-quotes request a day for all the symbols that day lacks, 3 points
each (historical). A year (--days 252) of any number of symbols up to 100 is
756 points, once; a second run spends 0.

It says what it will spend first, and asks before going past the budget (the
config file's [budget]: points_per_day, else its share of the month's points
left) unless --yes. A progress bar with the points spent and left shows on a
terminal, a line a day otherwise. Each day is saved as it arrives: after Ctrl-C
or a failure, running it again buys only what is still missing. Two backfills
at once take turns (the second waits, then buys nothing twice).`,
		Example: `  chainwatch history backfill SPY QQQ AAPL --days 252
  chainwatch history backfill --days 20 --yes     the config file's watchlist`,
		ValidArgsFunction: completeSymbols(deps),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.bind(cmd)
			o.Symbols = args
			o.Progress = isTerminal(o.ErrOut)
			if runF != nil {
				return runF(o)
			}
			return historyBackfillRun(o)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&o.Days, "days", 252, "how many sessions before today, 1 to 4032")
	fl.BoolVar(&o.Yes, "yes", false, "do not ask before going past the budget")
	fl.IntVar(&o.Budget, "budget", 0, "points the backfill may spend without asking (default: the config file's [budget])")
	fl.StringVar(&o.Mode, "mode", "", "data path: live or delayed (a past day costs the same on both)")
	fl.StringVar(&o.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	fl.BoolVar(&o.NoRecord, "no-record", false, "record nothing of this run (the flight recorder; `chainwatch record list`)")
	addServiceFlags(cmd, &o.Service)
	addClockFlags(cmd, &o.SandboxClock, &o.SandboxSpeed, "sandbox-clock", "sandbox-speed")
	return cmd
}

// historyBackfillRun checks the input, plans, says the cost, asks when
// past the budget, then buys day by day with a progress bar.
func historyBackfillRun(o *HistoryBackfillOptions) error {
	fc, mode, err := o.setup()
	if err != nil {
		return err
	}
	symbols, err := backfillSymbols(o, fc)
	if err != nil {
		return badInput(err)
	}
	if o.Days < 1 || o.Days > maxBackfillDays {
		return badInput(fmt.Errorf("--days %d: want 1 to %d sessions", o.Days, maxBackfillDays))
	}
	if o.Budget < 0 {
		return badInput(fmt.Errorf("--budget %d: want 0 or more points", o.Budget))
	}
	ctx, stop := signal.NotifyContext(o.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc := o.Service
	svc.file = &fc.Service
	svc.sandboxNow = o.Now
	sess, err := resolveSession(svc, o.Getenv)
	if err != nil {
		return err
	}
	defer sess.close()
	if sess.source == fromEmbeddedSandbox {
		if err := checkSandboxSymbols(symbols); err != nil {
			return err
		}
		// What is bought from a simulated market must never pass for real data.
		fmt.Fprintln(o.ErrOut, "chainwatch: no credentials: backfilling from the embedded sandbox's simulated market (kept apart from any real service's)")
	}
	path, err := config.HistoryPath(o.Getenv)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	store, err := history.Open(ctx, path, historyService(sess))
	if err != nil {
		return fmt.Errorf("backfill needs the store: %w", storeError(err))
	}
	defer closeHistory(store, o.ErrOut)
	// What it buys is recorded too, as every other command's answers.
	rec := openRecorder(o.Getenv, o.NoRecord, fc.Record, sess, o.ErrOut)
	defer closeRecorder(rec, o.ErrOut)
	opts := append(sess.clientOptions(mode, o.Now), api.WithHistory(store))
	client, err := api.NewClient(append(opts, withRecorder(rec)...)...)
	if err != nil {
		return err
	}
	left := pointsLeft(ctx, client)
	lock, busy, err := history.LockBackfill(path, false)
	if busy {
		fmt.Fprintln(o.ErrOut, "chainwatch: another backfill is running on this store; waiting for it (what it buys is not bought again)")
		lock, _, err = history.LockBackfill(path, true)
	}
	if err != nil {
		return err
	}
	defer lock.Unlock()
	plan, err := store.PlanBackfill(ctx, symbols, client.Today(), o.Days, mode)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, backfillCostLine(plan, symbols))
	if plan.Requests() == 0 {
		return nil
	}
	if err := o.confirm(plan.Points(), backfillBudget(o, fc, left)); err != nil {
		return err
	}
	return o.buy(ctx, client, store, plan, left)
}

// backfillSymbols are the arguments by the symbol rule, else the
// watchlist.
func backfillSymbols(o *HistoryBackfillOptions, fc config.File) ([]string, error) {
	q := &QuotesOptions{headless: o.headless, Symbols: o.Symbols}
	return quoteSymbols(q, fc)
}

// pointsLeft is the month's balance, from a request that costs nothing
// (the same one that tells the service's clock).
func pointsLeft(ctx context.Context, c *api.Client) api.Int {
	sctx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	_, resp, err := c.Exchanges(sctx, api.ReferenceParams{})
	if err != nil || resp == nil {
		return api.Int{}
	}
	return resp.PointsLeft
}

// backfillBudget is what the backfill may spend without asking: --budget,
// else the config file's points_per_day, else its share of the month's
// points left; -1 when none is known (then it asks for any spending).
func backfillBudget(o *HistoryBackfillOptions, fc config.File, left api.Int) int {
	if o.Budget > 0 {
		return o.Budget
	}
	b := budgetOf(fc)
	if b.PerDay > 0 {
		return b.PerDay
	}
	if n, ok := left.Get(); ok {
		return int(math.Floor(b.Share * float64(n)))
	}
	return -1
}

// backfillCostLine is said before anything is bought.
func backfillCostLine(p history.Plan, symbols []string) string {
	what := fmt.Sprintf("%s of %s", plural(len(p.Days), "session"), strings.Join(symbols, " "))
	if len(p.Days) > 0 {
		what += fmt.Sprintf(" (%s to %s)", p.Days[0], p.Days[len(p.Days)-1])
	}
	if p.Requests() == 0 {
		return "chainwatch: backfill: " + what + ": all stored already, 0 points"
	}
	return fmt.Sprintf("chainwatch: backfill: %s: %s to buy, one underlying-quotes request each (historical, %d points): %s points",
		what, plural(p.Requests(), "session"), api.Cost(api.EndpointUnderlyingQuotes, p.Mode, true), scan.GroupDigits(int64(p.Points())))
}

// confirm asks before spending past the budget, unless --yes; with no
// one to ask (stdin not a terminal) it refuses (exit status 2).
func (o *HistoryBackfillOptions) confirm(points, budget int) error {
	if o.Yes || budget >= 0 && points <= budget {
		return nil
	}
	over := "the budget is not known yet"
	if budget >= 0 {
		over = fmt.Sprintf("over the budget of %s points", scan.GroupDigits(int64(budget)))
	}
	if !o.StdinIsTerminal {
		return badInput(fmt.Errorf("backfill: %s points is %s; pass --yes to spend it, or --budget N", scan.GroupDigits(int64(points)), over))
	}
	fmt.Fprintf(o.ErrOut, "Spend %s points, %s? [y/N] ", scan.GroupDigits(int64(points)), over)
	line, _ := bufio.NewReader(o.In).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return badInput(errors.New("backfill: not confirmed; nothing was spent"))
	}
	return nil
}

// buy runs the plan, drawing progress, and says what was spent; a
// Ctrl-C keeps what was bought and exits 130.
func (o *HistoryBackfillOptions) buy(ctx context.Context, c *api.Client, st *history.Store, plan history.Plan, left api.Int) error {
	bar := newBackfillBar(o.ErrOut, o.Progress, plan.Points(), left)
	// The newest session is bought first: a symbol its answer does not
	// list is one the service does not know, and nothing more is bought.
	bctx, stopBuying := context.WithCancel(ctx)
	defer stopBuying()
	var unknown []string
	spent, err := history.Backfill(bctx, c, st, plan, func(s history.Step) {
		bar.step(s)
		if s.Done == 1 && len(s.Unlisted) > 0 {
			unknown = s.Unlisted
			stopBuying()
		}
	})
	bar.done()
	if unknown != nil {
		st.Checkpoint()
		return unknownSymbolsError(unknown, nil, fmt.Sprintf("only %s was bought to find out (%s points spent)", plan.Missing[0], scan.GroupDigits(int64(spent))))
	}
	st.Checkpoint()
	after := fmt.Sprintf("%s points spent", scan.GroupDigits(int64(spent)))
	if n, ok := bar.left.Get(); ok {
		after += fmt.Sprintf(", %s left this month", scan.GroupDigits(n))
	}
	if err != nil {
		bar.closeKept(st, plan, spent)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(o.ErrOut, "chainwatch: backfill stopped after %d of %d sessions, %s; %s\n", bar.days, plan.Requests(), after, bar.kept(plan, spent))
		return interrupted(errors.New("backfill: interrupted"))
	case err != nil:
		return fmt.Errorf("%w; %s; %s", err, after, bar.kept(plan, spent))
	}
	fmt.Fprintf(o.ErrOut, "chainwatch: backfill: %s bought, %s; the store is %s (%s)\n", plural(plan.Requests(), "session"), after, byteSize(history.Size(st.Path())), st.Path())
	return nil
}

// backfillBar is the progress: a bar with the points spent and left,
// redrawn in place on a terminal; a plain line a day to a pipe.
type backfillBar struct {
	w        io.Writer
	terminal bool
	bar      progress.Model
	total    int
	left     api.Int
	days     int
	start    time.Time
	// keptPoints are the points of the days saved (a day is told to step
	// only once the store kept it).
	keptPoints int
}

// closeKept closes the store of a backfill that stopped: closing tries
// once more to save what waits unsaved, so the day bought last is then
// either kept after all (counted here) or lost for good (said here, as
// closeHistory would, for closing again says nothing).
func (b *backfillBar) closeKept(st *history.Store, plan history.Plan, spent int) {
	if err := st.Close(); err != nil {
		fmt.Fprintf(b.w, "chainwatch: warning: %v\n", err)
		return
	}
	if st.Unsaved() == nil && spent > b.keptPoints && b.days < len(plan.Missing) {
		b.days++
		b.keptPoints = spent
	}
}

// kept says, after a backfill that stopped, what the store holds of what
// was bought and what was paid for but lost (a full disk fails the
// saving of a day the service already charged).
func (b *backfillBar) kept(plan history.Plan, spent int) string {
	s := "the store keeps none of it"
	switch {
	case b.days == 1:
		s = fmt.Sprintf("the store keeps 1 session (%s)", plan.Missing[0])
	case b.days > 1 && b.days <= len(plan.Missing):
		s = fmt.Sprintf("the store keeps %s (%s back to %s)", plural(b.days, "session"), plan.Missing[0], plan.Missing[b.days-1])
	}
	if lost := spent - b.keptPoints; lost > 0 && b.days < len(plan.Missing) {
		s += fmt.Sprintf("; %s was bought (%d points) but not kept", plan.Missing[b.days], lost)
	}
	return s + ": run it again to buy the rest"
}

func newBackfillBar(w io.Writer, terminal bool, total int, left api.Int) *backfillBar {
	p := theme.Dark()
	return &backfillBar{w: w, terminal: terminal, total: total, left: left, start: time.Now(),
		bar: progress.New(progress.WithWidth(30), progress.WithColors(p.Accent, p.Good), progress.WithoutPercentage())}
}

func (b *backfillBar) step(s history.Step) {
	b.days = s.Done
	b.keptPoints += s.Cost
	if s.PointsLeft.Valid {
		b.left = s.PointsLeft
	}
	left := "-"
	if n, ok := b.left.Get(); ok {
		left = scan.GroupDigits(n)
	}
	if !b.terminal {
		fmt.Fprintf(b.w, "%s %d/%d %d points, %s spent, %s left\n", s.Day, s.Done, s.Of, s.Cost, scan.GroupDigits(int64(s.Spent)), left)
		return
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s %d/%d %s · %s of %s points · %s left",
		b.bar.ViewAs(float64(s.Done)/float64(max(s.Of, 1))), s.Done, s.Of, s.Day,
		scan.GroupDigits(int64(s.Spent)), scan.GroupDigits(int64(b.total)), left)
}

func (b *backfillBar) done() {
	if b.terminal && b.days > 0 {
		fmt.Fprintln(b.w)
	}
}
