package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"chainwatch/config"
	"chainwatch/feed"
)

// MCPOptions are `chainwatch mcp`'s inputs: the service and config flags
// the headless commands have, and the session's cap.
type MCPOptions struct {
	headless
	In        io.Reader
	MaxPoints int
	MaxSet    bool
}

// NewCmdMCP is `chainwatch mcp`: the headless commands as the tools of a
// Model Context Protocol server on stdin and stdout, for an AI agent,
// within a cap of points. runF replaces mcpRun in tests of the flags.
func NewCmdMCP(deps Deps, runF func(*MCPOptions) error) *cobra.Command {
	o := &MCPOptions{headless: newHeadless(deps), In: deps.in}
	cmd := &cobra.Command{
		Use:   "mcp [--max-points N]",
		Short: "Serve the headless commands to an AI agent as MCP tools, within a cap of points",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout (newline-delimited
JSON-RPC), for an agent client to start: a tool per headless command (chain,
quotes, vol, gex, trades, taq, calendar, scan, strategy, positions), each with
the command's own flags as its JSON input. A call runs the command as the
command line would and answers its --json rows, then the points it spent and
what is left; a refusal is a tool error with the command's message and exit
status, and the server goes on.

--max-points N caps what the session may spend (default a quarter of the day's
budget, as the screen works it out from [budget] in the config file): a call is
charged the most it may spend before anything is sent, and refused past the cap.
Every call is logged on stderr with its cost. Over ssh, chainwatch serve runs it
for an authorized key: ssh HOST -- mcp (docs/mcp.md).`,
		Example: `  chainwatch mcp --max-points 200
  chainwatch mcp --sandbox-clock 2026-11-24T11:00:00-05:00`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd)
			o.MaxSet = cmd.Flags().Changed("max-points")
			if runF != nil {
				return runF(o)
			}
			return mcpRun(o)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&o.MaxPoints, "max-points", 0, "points the session may spend in all (default a quarter of the day's budget)")
	fl.StringVar(&o.Mode, "mode", "", "data path of the calls that do not choose: live or delayed (default the config file's mode, else live)")
	fl.StringVar(&o.ConfigPath, "config", "", "config file (default $XDG_CONFIG_HOME/chainwatch/config.toml)")
	addServiceFlags(cmd, &o.Service)
	fl.BoolVar(&o.NoHistory, "no-history", false, "run without the store of past days: ask the service for every past day and keep nothing")
	fl.BoolVar(&o.NoRecord, "no-record", false, "record nothing of this run (the flight recorder; `chainwatch record list`)")
	addClockFlags(cmd, &o.SandboxClock, &o.SandboxSpeed, "sandbox-clock", "sandbox-speed")
	return cmd
}

// mcpRun opens the session as a headless command does, then serves the
// tools on it until the client closes stdin.
func mcpRun(o *MCPOptions) error {
	if o.MaxSet && o.MaxPoints <= 0 {
		return badInput(fmt.Errorf("--max-points %d: want the points the session may spend, above 0", o.MaxPoints))
	}
	fc, cfgPath, err := o.config()
	if err != nil {
		return err
	}
	if o.served != nil {
		return servedMCP(o)
	}
	mode, err := o.dataMode(fc)
	if err != nil {
		return err
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	ctx := o.Context
	client, sess, done, err := o.connect(fc, mode)
	if err != nil {
		return err
	}
	defer done()
	now := serviceClock(ctx, client)
	// The screen's budget from [budget] (no screen flags here), of which
	// the default cap is a share.
	set := watchSettings{budget: feed.DefaultBudget()}
	set.resolveBudget(&WatchOptions{Changed: func(string) bool { return false }}, &fc)
	budget := set.budget
	mon := feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: now},
		Clock: feed.RealClock{NowFunc: now}, Budget: budget})
	defer mon.Close()
	day := func(t time.Time) (int, int) { return dayBudget(mon, budget.PerDay, t) }
	s := &mcpSession{client: client, mon: mon, getenv: o.Getenv, log: slog.New(slog.NewTextHandler(o.ErrOut, nil)),
		cap: newMCPCap(o.MaxPoints, o.MaxSet, day, now)}
	if cfgPath != "" {
		s.positions = config.PositionsPath(cfgPath) // as the command's own (positionsPath)
	}
	if o.ConfigSet {
		s.extra = append(s.extra, "--config="+cfgPath)
	}
	if o.ModeSet {
		s.mode = string(mode)
	}
	if sess.source == fromEmbeddedSandbox {
		s.log.Info("no credentials: answering from the embedded sandbox's simulated market")
	}
	return serveMCP(ctx, s, o.In, o.Out)
}

// servedMCP is `ssh HOST -- mcp`: the tools on the desk's client and
// monitor, each call charged to the desk's day and the key's share as its
// command is, and to the session's cap; the key's positions; a call is
// refused what serve refuses its command line (checkServed).
func servedMCP(o *MCPOptions) error {
	sc := o.served
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	log := slog.New(slog.NewTextHandler(o.ErrOut, nil))
	cp := newMCPCap(o.MaxPoints, o.MaxSet, sc.day, sc.client.Now)
	cp.desk = sc.charge
	s := &mcpSession{client: sc.client, mon: sc.mon, cap: cp, getenv: o.Getenv, positions: sc.positions,
		check: checkServed, log: log}
	if sc.log != nil {
		// The server's log hears each call too: the desk's points.
		s.log = slog.New(slog.NewMultiHandler(log.Handler(), sc.log.Handler()))
	}
	if o.ModeSet {
		s.mode = o.Mode
	}
	return serveMCP(ctx, s, o.In, o.Out)
}

// serveMCP serves s on in and out until the client closes in (or ctx
// ends): a stream that is not JSON-RPC ends it with an error.
func serveMCP(ctx context.Context, s *mcpSession, in io.Reader, out io.Writer) error {
	_, limit := s.cap.status()
	s.log.Info("mcp serving", "tools", len(mcpTools), "cap", limit)
	err := newMCPServer(s).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		err = nil // the client closed the session
	}
	s.log.Info("mcp stopped", "session", s.cap.describe())
	if err != nil {
		return fmt.Errorf("mcp: the session ended: %w", err)
	}
	return nil
}

// nopWriteCloser leaves closing the stream to its owner.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
