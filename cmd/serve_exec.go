package cmd

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/serve"
)

// servedCommands are what an exec request may run: the headless commands
// that read data. The screen is the session itself; login, logout,
// sandbox and serve are the desk's box's to run, not a trader's.
var servedCommands = []string{"chain", "quotes", "trades", "taq", "calendar", "vol", "scan", "version", "help"}

// servedRefused are the flags that would point a command at another
// service or credentials, or read a file of the server's choosing: the
// served session is the server's, and its files are not the trader's.
var servedRefused = []string{"--config", "--auth-url", "--base-url", "--client-id", "--token-file", "--sandbox-clock", "--sandbox-speed"}

// exec runs an exec request's command line on the served session and
// returns its exit status, as the same command run on the box would.
func (d *desk) exec(ctx context.Context, _ serve.User, args []string, in io.Reader, out, errOut io.Writer) int {
	if msg := checkServed(args); msg != "" {
		fmt.Fprintln(errOut, "chainwatch serve: "+msg)
		return ExitInput
	}
	deps := Deps{in: in, out: out, errOut: errOut, getenv: d.getenv, now: d.base.Now, ctx: ctx,
		served: &servedClient{client: d.base.Client, mon: d.mon, line: strings.Join(args, " ")}}
	return Execute(deps, args)
}

// checkServed says why args may not run over ssh; "" when they may.
func checkServed(args []string) string {
	if !slices.Contains(servedCommands, args[0]) {
		return fmt.Sprintf("%q cannot run over ssh; the commands are %s (the screen: ssh without a command)",
			args[0], strings.Join(servedCommands, ", "))
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
