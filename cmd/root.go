// Package cmd is chainwatch's command line: one file per command, each
// built from the process's dependencies (Deps) so tests run the commands in
// process with their own input, environment and "browser". The root
// command is the watch screen.
package cmd

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/crash"
	"chainwatch/model"
)

// Execute runs the command line with deps and returns the exit code.
func Execute(deps Deps, args []string) int {
	root := NewCmdRoot(deps, nil)
	root.SetArgs(args)
	// cobra checks the arguments, required flags and flag groups (--json
	// with --csv) before a command runs: an error before any RunE started
	// is the command line's, exit status 2 like a bad flag.
	started := false
	var mark func(c *cobra.Command)
	mark = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error { started = true; return run(cmd, args) }
		}
		for _, sub := range c.Commands() {
			mark(sub)
		}
	}
	mark(root)
	ctx := deps.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	err := root.ExecuteContext(ctx)
	if err != nil && !started {
		return ExitInput
	}
	return exitCode(err)
}

// Process is the dependencies of the running process: its standard
// streams, environment, browser and terminal.
func Process(in io.Reader, out, errOut io.Writer, getenv func(string) string) Deps {
	panics := monitorRelay()
	return Deps{
		in: in, out: out, errOut: errOut,
		getenv: getenv, openBrowser: openBrowser, stdinIsTerminal: stdinIsTerminal(),
		runWatch: func(cfg model.Config) error { return runWatchTUI(cfg, getenv, panics) },
		panics:   panics,
	}
}

// Deps is everything the commands take from the process (the factory of
// gh's commands), injected so tests run the commands in process with their
// own input, environment and "browser".
type Deps struct {
	in          io.Reader
	out, errOut io.Writer
	getenv      func(string) string
	// openBrowser shows a URL to the user; see browser.go.
	openBrowser func(url string) error
	// stdinIsTerminal lets login also accept a pasted address when a
	// browser was opened: a user may still have signed in elsewhere.
	stdinIsTerminal bool
	// runWatch runs the watch screen until the user quits (runWatchTUI);
	// tests record the configuration instead of taking over a terminal.
	runWatch func(model.Config) error
	// now is the clock for --date's "today"; nil is time.Now.
	now func() time.Time
	// ctx ends the commands (an exec request's client gone); nil: never.
	ctx context.Context
	// served runs the headless commands on chainwatch serve's session
	// and monitor (an exec request) instead of one of their own.
	served *servedClient
	// panics takes the panics of the screen's monitor's goroutines to the
	// screen (runWatchTUI) or serve's log; nil: they are not recovered.
	panics *crash.Relay
}

// NewCmdRoot builds the command tree. The root command itself is the
// watch screen (root_watch.go), so a bare `chainwatch` shows a chain;
// runF replaces watchRun in tests of the flags.
func NewCmdRoot(deps Deps, runF func(*WatchOptions) error) *cobra.Command {
	opts := &WatchOptions{Getenv: deps.getenv, Now: deps.now, RunWatch: deps.runWatch, Panics: deps.panics}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root := &cobra.Command{
		Use:   "chainwatch [SYMBOL]",
		Short: "Watch option chains, greeks, IV and time and sales in the terminal",
		Long: `chainwatch watches option chains on a points-metered market-data service:
a live strike ladder with greeks and IV, a time-and-sales tape, the underlying
with its implied-price quality badge, an earnings and dividends calendar and a
scanner, spending the account's points wisely.

chainwatch SYMBOL (default SPY, or the config file's symbol) opens the watch
screen. It connects with, in this order: flags, the CHAINWATCH_* environment
variables, the config file ($XDG_CONFIG_HOME/chainwatch/config.toml), a stored
login (chainwatch login), else the embedded sandbox, a simulated market that
needs no account.`,
		Example: `  chainwatch                 SPY, live, on the sandbox or your account
  chainwatch qqq --mode delayed
  chainwatch aapl --date 2026-11-18   a past day's end-of-day chain`,
		Args: rootArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ErrOut, opts.Args, opts.Changed = cmd.ErrOrStderr(), args, cmd.Flags().Changed
			opts.CommandPath = cmd.CommandPath()
			opts.SuggestFor = func(arg string) []string {
				if cmd.SuggestionsMinimumDistance <= 0 {
					cmd.SuggestionsMinimumDistance = 2 // cobra's own default for unknown commands
				}
				return cmd.SuggestionsFor(arg)
			}
			if runF != nil {
				return runF(opts)
			}
			return watchRun(opts)
		},
		SilenceUsage:  true,
		SilenceErrors: false,
		Version:       version(),
	}
	root.SetIn(deps.in)
	root.SetOut(deps.out)
	root.SetErr(deps.errOut)
	root.SetVersionTemplate("chainwatch {{.Version}}\n")
	addWatchFlags(root, &opts.Flags)
	root.AddCommand(NewCmdVersion(), NewCmdSandbox(deps, nil), NewCmdLogin(deps, nil), NewCmdLogout(deps, nil),
		NewCmdStatus(deps, nil), NewCmdScan(deps, nil), NewCmdChain(deps, nil), NewCmdCalendar(deps, nil), NewCmdVol(deps, nil), NewCmdGex(deps, nil),
		NewCmdTrades(deps, nil), NewCmdTAQ(deps, nil), NewCmdQuotes(deps, nil), NewCmdHistory(deps, nil), NewCmdRecord(deps), NewCmdReplay(deps))
	root.AddCommand(NewCmdStrategy(deps, nil), NewCmdPositions(deps, nil), NewCmdServe(deps, nil))
	root.AddCommand(NewCmdAlerts(deps, nil), NewCmdMCP(deps, nil))
	root.ValidArgsFunction = completeSymbols(deps)
	strictCompletion(root)
	guardEchoes(root)
	return root
}

// NewCmdVersion prints the version; it has no options.
func NewCmdVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of chainwatch",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "chainwatch %s\n", version())
			return err
		},
	}
}

// version is api.Version (set with -ldflags "-X chainwatch/api.Version=v1.2.3"),
// else the module version from the build info, with the Go toolchain and platform.
func version() string {
	v := api.Version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("%s (%s %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
