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
	"chainwatch/feed"
	"chainwatch/scan"
)

// headless is what every command that prints for scripts shares: the
// process's streams and clock, the output flags, the data path, the config
// file, the service, --cost and --watch. A command embeds it in its
// options, builds a job and hands it to execute, which does the rest the
// same way for all of them: check the output flags before anything is
// spent, say the cost when asked, open the session, run once or on an
// interval, print through the one exporter, and map the error to its exit
// status.
type headless struct {
	Out, ErrOut io.Writer
	Getenv      func(string) string
	Now         func() time.Time
	Context     context.Context

	Export       exportFlags
	Mode         string
	ModeSet      bool
	ConfigPath   string
	ConfigSet    bool
	Service      serviceFlags
	Cost         bool
	Watch        time.Duration
	WatchSet     bool // --watch was given (--watch 0 is refused, not "no watch")
	SandboxClock string
	SandboxSpeed float64
	NoHistory    bool   // --no-history: every past day is asked of the service, nothing is kept
	NoRecord     bool   // --no-record: the flight recorder keeps nothing of this run
	Replay       string // --replay MOMENT: answer from the recording as at it

	// sandboxNow is --sandbox-clock's clock (nil: the real one), read by
	// config before anything asks what day it is.
	sandboxNow func() time.Time
	replayAt   time.Time       // --replay's moment; zero: the service
	served     *servedClient   // chainwatch serve's session (serve_exec.go); nil: the command's own
	flagErr    error           // a flag refused by bind, said before anything else
	known      func() []string // the user's symbols, for "did you mean" (set by config)
}

func newHeadless(deps Deps) headless {
	h := headless{Getenv: deps.getenv, Now: deps.now, served: deps.served}
	if h.Now == nil {
		h.Now = time.Now
	}
	return h
}

// addHeadlessFlags adds the shared flags after the command's own.
func addHeadlessFlags(cmd *cobra.Command, h *headless) {
	fl := cmd.Flags()
	addExportFlags(cmd, &h.Export)
	fl.BoolVar(&h.Cost, "cost", false, "print what the command would spend in points, and spend nothing")
	fl.DurationVar(&h.Watch, "watch", 0, "run again every DURATION (e.g. 30s, 5m) until interrupted, within the point budget; paused while the market is closed")
	fl.StringVar(&h.Mode, "mode", "", "data path: live or delayed (default the config file's mode, else live)")
	fl.StringVar(&h.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addServiceFlags(cmd, &h.Service)
	fl.BoolVar(&h.NoHistory, "no-history", false, "run without the store of past days: ask the service for every past day and keep nothing")
	fl.BoolVar(&h.NoRecord, "no-record", false, "record nothing of this run (the flight recorder; `chainwatch record list`)")
	fl.StringVar(&h.Replay, "replay", "", "answer from the recording as at MOMENT (e.g. 2026-11-24T10:00:20-05:00): the last answer at or before it, 0 points, nothing sent")
	addClockFlags(cmd, &h.SandboxClock, &h.SandboxSpeed, "sandbox-clock", "sandbox-speed")
}

// bind takes what only the running command knows: its streams, context
// and which flags were given.
func (h *headless) bind(cmd *cobra.Command) {
	h.Out, h.ErrOut, h.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
	changed := cmd.Flags().Changed
	h.ModeSet, h.ConfigSet, h.WatchSet = changed("mode"), changed("config"), changed("watch")
	h.flagErr = checkURLFlags(cmd)
}

// checkURLFlags refuses a service URL given as a flag (exit status 2),
// whether or not the command goes on to connect: `alerts --base-url
// ftp://x` listed the rules and exited 0.
func checkURLFlags(cmd *cobra.Command) error {
	for _, name := range []string{"auth-url", "base-url"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			if err := api.CheckServiceURL(f.Value.String(), "--"+name); err != nil {
				return badInput(err)
			}
		}
	}
	return nil
}

// config loads the config file of --config, else the default one if it
// exists (configFile), and returns it with its path ("" when there is
// none); a broken one is the caller's to fix (exit status 2).
// Every command calls it first, so it also sets the embedded sandbox's
// clock (--sandbox-clock): "today", a date's checks and the session's
// hours must be the simulated market's from the start.
func (h *headless) config() (config.File, string, error) {
	if h.flagErr != nil {
		return config.File{}, "", h.flagErr
	}
	clock, err := sandboxClock("--sandbox-clock", h.SandboxClock, "--sandbox-speed", h.SandboxSpeed)
	if err != nil {
		return config.File{}, "", err
	}
	if clock != nil {
		h.Now, h.sandboxNow = clock, clock
	}
	if h.Replay != "" {
		// The command's "today", dates and session are the moment's.
		at, err := parseMoment(h.Replay)
		if err != nil {
			return config.File{}, "", badInput(err)
		}
		h.replayAt, h.Now = at, func() time.Time { return at }
	}
	fc, path, _, err := configFile(h.ConfigPath, h.ConfigSet, h.Getenv)
	h.known = func() []string { return userSymbols(fc, h.Getenv) }
	return fc, path, badInput(err)
}

// noSuchSymbol says the service does not know sym: status 3, in the
// one wording (config.NoSuchSymbol, the screen's); once adds the nearest
// of the user's symbols, which a command's run does not have.
func noSuchSymbol(sym string) error { return noData(unknownSymbolError{Symbol: sym}) }

type unknownSymbolError struct {
	Symbol string
	known  []string
}

func (e unknownSymbolError) Error() string { return config.NoSuchSymbol(e.Symbol, e.known) }

// setup is what every command does first: the config file, then the data
// path it and --mode ask for.
func (h *headless) setup() (config.File, api.Mode, error) {
	fc, _, err := h.config()
	if err != nil {
		return fc, "", err
	}
	mode, err := h.dataMode(fc)
	return fc, mode, err
}

// symbolQuery is setup, then the command's symbol and --date as the
// query it asks about; a bad symbol or date is bad input (exit 2).
func (h *headless) symbolQuery(symbol, date string) (config.File, feed.Query, error) {
	fc, mode, err := h.setup()
	if err != nil {
		return fc, feed.Query{}, err
	}
	sym, err := config.ParseSymbol(symbol)
	if err != nil {
		return fc, feed.Query{}, badInput(err)
	}
	day, err := parseDate(date, h.Now())
	if err != nil {
		return fc, feed.Query{}, badInput(err)
	}
	return fc, feed.Query{Symbol: sym, Mode: mode, Date: day, Gen: 1}, nil
}

// dataMode is --mode, else the config file's mode, else live.
func (h *headless) dataMode(fc config.File) (api.Mode, error) {
	switch {
	case h.ModeSet:
		m, err := config.ParseMode(h.Mode)
		if err != nil {
			return m, badInput(fmt.Errorf("--mode %w", err))
		}
		return m, nil
	case fc.Mode != "":
		return config.ParseMode(fc.Mode) // checked by config.Load
	}
	return api.Live, nil
}

// job is one headless command's work.
type job struct {
	// plan is what one run spends, said by --cost and before --watch.
	plan costPlan
	// keys are the rows' fields when known before the run (so that
	// --json=field is checked before anything is spent); nil when they
	// depend on the answer (a scan's formulas).
	keys []string
	// historical: the answer never changes, so --watch is refused.
	historical bool
	// run asks the service and returns its answer.
	run func(ctx context.Context, c *api.Client) (answer, error)
}

// answer is one run's rows, what the summary says of them, and the
// responses it took (their cost and the month's balance).
type answer struct {
	Export Export
	Rows   string // the summary's start, e.g. "41 contracts of SPY 2026-11-27"
	Resps  []*api.Response
}

// cost is the points the run spent.
func (a answer) cost() int {
	n := 0
	for _, r := range a.Resps {
		if r != nil {
			n += r.Cost
		}
	}
	return n
}

// summary is the stderr line after a run: what came back, the points
// spent and the month's balance after the last response that told it.
func (a answer) summary() string {
	var left api.Int
	for _, r := range a.Resps {
		if r != nil && r.PointsLeft.Valid {
			left = r.PointsLeft
		}
	}
	s := "chainwatch: " + a.Rows + ", " + spent(a.cost(), left)
	if n := a.fromHistory(); n > 0 {
		s += fmt.Sprintf(" (%d of %s from history, 0 points)", n, plural(len(a.Resps), "answer"))
	}
	if n := a.fromRecording(); n > 0 {
		s += fmt.Sprintf(" (%d of %s from the recording, 0 points)", n, plural(len(a.Resps), "answer"))
	}
	return s
}

// fromHistory counts the answers the store of past days gave.
func (a answer) fromHistory() int {
	n := 0
	for _, r := range a.Resps {
		if r != nil && r.FromHistory {
			n++
		}
	}
	return n
}

// fromRecording counts the answers the flight recorder gave (--replay).
func (a answer) fromRecording() int {
	n := 0
	for _, r := range a.Resps {
		if r != nil && r.FromRecording {
			n++
		}
	}
	return n
}

// runTimeout bounds one run: a script must not hang on a dead service.
const runTimeout = 2 * time.Minute

// execute runs j as the flags say; see headless.
func (h *headless) execute(fc config.File, mode api.Mode, j job) error {
	format := h.Export.format()
	if err := format.Check(j.keys); err != nil {
		return err
	}
	if err := h.checkWatch(j); err != nil {
		return err
	}
	if h.Cost && !j.plan.probes() {
		_, err := fmt.Fprintln(h.Out, j.plan.describe(h.Watch))
		return err
	}
	if h.served == nil && !h.WatchSet {
		defer oneShotGC(h.Getenv)()
		h.Service.oneShot = true
	}
	if !h.replayAt.IsZero() {
		return h.executeReplay(format, fc, mode, j)
	}
	if h.served != nil {
		h.Now = h.served.client.Now
		return h.run(h.served.client, mode, format, fc, j)
	}
	client, sess, done, err := h.connect(fc, mode)
	if err != nil {
		return err
	}
	defer done()
	if h.Cost {
		// Which of the plan's past days the store holds: nothing is sent.
		j.plan.probe(h.Context, client)
		_, err := fmt.Fprintln(h.Out, j.plan.describe(h.Watch))
		return err
	}
	if sess.source == fromEmbeddedSandbox {
		// Rows from a simulated market must never pass for real ones.
		fmt.Fprintln(h.ErrOut, "chainwatch: no credentials: answering from the embedded sandbox's simulated market")
	}
	h.Now = serviceClock(h.Context, client)
	return h.run(client, mode, format, fc, j)
}

// connect opens the command's session (the embedded sandbox without
// credentials), its store of past days and its recorder, and the client
// over them; done closes them in turn. Every headless command and `mcp`
// open their client here.
func (h *headless) connect(fc config.File, mode api.Mode) (client *api.Client, sess *session, done func(), err error) {
	svc := h.Service
	svc.file = &fc.Service
	// The embedded sandbox runs on this command's clock (--sandbox-clock,
	// else the process's), so its answers' Date agrees with it.
	svc.sandboxNow = h.Now
	sess, err = resolveSession(svc, h.Getenv)
	if err != nil {
		return nil, nil, nil, err
	}
	if h.sandboxNow != nil && sess.source != fromEmbeddedSandbox {
		sess.close()
		return nil, nil, nil, badInput(fmt.Errorf("--sandbox-clock sets the embedded sandbox's clock, but chainwatch is using %s", sess.source))
	}
	store := openHistory(h.Context, h.Getenv, h.NoHistory, sess, h.ErrOut)
	rec := openRecorder(h.Getenv, h.NoRecord, fc.Record, sess, h.ErrOut)
	done = func() {
		closeRecorder(rec, h.ErrOut)
		closeHistory(store, h.ErrOut)
		sess.close()
	}
	opts := append(sess.clientOptions(mode, h.Now), withRecorder(rec)...)
	client, err = api.NewClient(append(opts, withHistory(store)...)...)
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return client, sess, done, nil
}

// run is j on client, once or --watch.
func (h *headless) run(client *api.Client, mode api.Mode, format Format, fc config.File, j job) error {
	if h.Watch > 0 {
		return h.watch(client, mode, format, fc, j)
	}
	settle, err := h.served.spend(h.Context, &j.plan) // the desk's day and the key's share, before it is sent
	if err != nil {
		return err
	}
	a, err := h.once(client, j)
	h.served.book(a.Resps) // a --watch run is booked by the monitor as a job
	settle(a.cost())
	if err != nil {
		return err
	}
	if err := format.WriteContext(h.Context, h.Out, a.Export); err != nil {
		return err
	}
	fmt.Fprintln(h.ErrOut, a.summary())
	return nil
}

// syncTimeout bounds the wait for the service's clock; past it the
// client's own clock is used and the data request reports the trouble.
const syncTimeout = 10 * time.Second

// serviceClock asks the service for its clock (a request that costs no
// points) and returns the clock that follows it: "today", the session and
// the pauses are the service's (the HTTP Date header of its answers), so a
// standalone `chainwatch sandbox --clock` replaying a past day works as the
// embedded one does. A failure leaves the client's own clock.
func serviceClock(ctx context.Context, client *api.Client) func() time.Time {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	_ = client.SyncClock(ctx)
	return client.Now
}

// once is one run, bounded in time. A run that fails after the service
// charged for part of it says what it spent: points are the user's money,
// and an empty answer (a 204) is charged too.
func (h *headless) once(client *api.Client, j job) (answer, error) {
	ctx, cancel := context.WithTimeout(h.Context, runTimeout)
	defer cancel()
	a, err := j.run(ctx, client)
	if us := (unknownSymbolError{}); errors.As(err, &us) && h.known != nil {
		us.known = h.known()
		err = noData(us)
	}
	if n := a.cost(); err != nil && n > 0 && !strings.Contains(err.Error(), "points spent") {
		err = spentError{err, n}
	}
	return a, err
}

// spentError is a failed run's error with the points it spent.
type spentError struct {
	error
	points int
}

func (e spentError) Error() string {
	return fmt.Sprintf("%s (%s points spent)", e.error.Error(), scan.GroupDigits(int64(e.points)))
}

func (e spentError) Unwrap() error { return e.error }

// serviceError is a failed request in the one wording of api.Describe,
// with its exit status: 3 for an answer with no data (an unknown symbol,
// nothing in the window), 2 for a request the client refused to send,
// else 1.
func serviceError(err error, what string) error {
	var ve *api.ValidationError
	switch {
	case err == nil:
		return nil
	case api.IsNoData(err):
		return noData(fmt.Errorf("%s: the service has no data for it", what))
	case api.IsNotRecorded(err):
		return noData(fmt.Errorf("%s: %w", what, err))
	case errors.As(err, &ve):
		return badInput(fmt.Errorf("%s: %w", what, err))
	}
	return fmt.Errorf("%s: %s", what, api.Describe(err, what))
}

// spent is the end of a summary line: the points a run cost and the
// month's balance after it, when the service said.
func spent(cost int, left api.Int) string {
	s := fmt.Sprintf("%s points spent", scan.GroupDigits(int64(cost)))
	if n, ok := left.Get(); ok {
		s += fmt.Sprintf(", %s points left this month", scan.GroupDigits(n))
	}
	return s
}
