package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/serve"
	"chainwatch/text"
)

// servedCommands are what an exec request may run: the headless commands
// that read data. The screen is the session itself; login, logout,
// sandbox and serve are the desk's box's to run, not a trader's.
// mcp serves the same commands to an agent, on the same charge.
var servedCommands = []string{"chain", "quotes", "trades", "taq", "calendar", "vol", "gex", "scan", "strategy", "positions", "mcp", "version", "help"}

// servedRefused are the flags that would point a command at another
// service or credentials, or read a file of the server's choosing: the
// served session is the server's, and its files are not the trader's.
var servedRefused = []string{"--config", "--auth-url", "--base-url", "--client-id", "--token-file", "--sandbox-clock", "--sandbox-speed"}

// exec runs an exec request's command line on the served session and
// returns its exit status, as the same command run on the box would.
func (d *desk) exec(ctx context.Context, u serve.User, args []string, in io.Reader, out, errOut io.Writer) int {
	defer d.recordUsage(u, serve.UsageCommand, d.commandRealTime(args))()
	if msg := checkServed(args); msg != "" {
		fmt.Fprintln(errOut, "chainwatch serve: "+msg)
		return ExitInput
	}
	charge := func(p costPlan) (func(int), error) { return d.ledger.Charge(u, p.points()) }
	served := &servedClient{client: d.base.Client, mon: d.mon, line: strings.Join(args, " "), charge: charge,
		day: d.day, log: d.log.With("key", u.Name)}
	if dir := d.state.In(u.Name).Dir(); dir != "" {
		served.positions = config.PositionsPath(filepath.Join(dir, keyConfig)) // the key's, as its screen's (keyState)
	}
	deps := Deps{in: in, out: out, errOut: errOut, getenv: d.getenv, now: d.base.Now, ctx: ctx, served: served}
	return Execute(deps, args)
}

// positionsPath is the positions file a command reads and saves to: the
// one beside the config file at cfgPath, or over ssh the key's own (a
// trader's positions are nobody else's, and not the server's).
func (h *headless) positionsPath(cfgPath string) (string, error) {
	switch {
	case h.served == nil:
		return config.PositionsPath(cfgPath), nil
	case h.served.positions == "":
		return "", badInput(errors.New("positions are off: the server keeps no state directory for this key"))
	}
	return h.served.positions, nil
}

// checkServed says why args may not run over ssh; "" when they may.
func checkServed(args []string) string {
	if !slices.Contains(servedCommands, args[0]) {
		return fmt.Sprintf("%s cannot run over ssh; the commands are %s (the screen: ssh without a command)",
			text.Quote(args[0]), strings.Join(servedCommands, ", "))
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		for _, f := range servedRefused {
			if a == f || strings.HasPrefix(a, f+"=") {
				return f + " is the server's to set, not a session's"
			}
		}
	}
	return ""
}

// monitor is the served monitor; nil when the command has its own.
func (s *servedClient) monitor() *feed.Monitor {
	if s == nil {
		return nil
	}
	return s.mon
}

// commandLine names a --watch job: the same command line in two sessions
// is one job, its runs shared.
func (s *servedClient) commandLine() string {
	if s == nil {
		return ""
	}
	return s.line
}

// book spends a command's responses in the served budget.
func (s *servedClient) book(resps []*api.Response) {
	if s == nil {
		return
	}
	for _, r := range resps {
		s.mon.Outside(r)
	}
}

// spend charges a one-shot run's plan (less what the store of past days
// holds) before it is sent; settle books what it spent. A refusal is the
// caller's to act on, as a budget backfill refuses: exit status 2.
func (s *servedClient) spend(ctx context.Context, plan *costPlan) (settle func(spent int), err error) {
	if s == nil || s.charge == nil {
		return func(int) {}, nil
	}
	plan.probe(ctx, s.client)
	settle, err = s.charge(*plan)
	return settle, badInput(err)
}
