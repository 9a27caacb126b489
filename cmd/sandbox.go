package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/sandbox"
	"chainwatch/sandbox/faults"
	"chainwatch/sandbox/quota"
	"chainwatch/text"
)

// SandboxOptions are `chainwatch sandbox`'s inputs.
type SandboxOptions struct {
	Out, ErrOut  io.Writer
	Context      context.Context
	Listen       string
	TokenTTL     time.Duration
	Plan         string
	PerSecond    float64
	Faults       string
	Entitlements string
	ClientSecret string // "" also from the environment (envSandboxSecret)
	// ClientSecretFile holds the secret instead (sandbox_secret.go).
	ClientSecretFile string
	// PrintCredentials is a file for the four lines instead of stdout.
	PrintCredentials string
	State            string
	Clock            string
	Speed            float64
	Getenv           func(string) string
}

// envSandboxSecret fixes the sandbox's demo client secret, as
// --client-secret does, without putting it in the process list.
const envSandboxSecret = "CHAINWATCH_SANDBOX_CLIENT_SECRET"

// NewCmdSandbox runs the sandbox standalone; runF replaces sandboxRun in
// tests of the flags. Its four stdout lines are for
// scripts (eval-able as shell assignments); everything else goes to stderr.
// They are the one place chainwatch prints a secret, because the user asked
// for it: the demo client's secret is new on every start.
func NewCmdSandbox(deps Deps, runF func(*SandboxOptions) error) *cobra.Command {
	opts := &SandboxOptions{Getenv: deps.getenv}
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the local sandbox of the market-data service",
		Long: `Run the sandbox: a local deployment of the market-data service and its
OAuth 2.0 / OpenID Connect token service, for trying chainwatch and for tests.

It prints four lines on stdout, for scripts, or writes them to the file
--print-credentials names (0600: they hold the secret):

  base_url=URL         the data endpoints ({base_url})
  auth_url=URL         the token service ({auth_url})
  client_id=ID         the confidential demo client
  client_secret=SECRET its secret: new on every start, unless fixed by
                       --client-secret-file (or --client-secret, or
                       ` + envSandboxSecret + `) or kept under --state

and logs requests to stderr. Log in with the public client
(chainwatch login --auth-url URL --base-url URL) or fetch a token with the
demo client, e.g.:

  curl -u "$client_id:$client_secret" -d grant_type=client_credentials "$auth_url/connect/token"

Points and limits: every client gets the --plan allowance (trial: 500
points a day; standard: 1,250,000 and professional: 4,000,000 a month) and
at most --rate requests a second (0: no limit); either answers 429 with
Retry-After when exceeded.

Entitlements: --entitlements lists the data-provider subscriptions every
client holds, a comma list of consolidated_tape, utp and opra, or none.
Without one, live and delayed quotes come with its fields null and live and
delayed time and sales answer 400, as in production.

Faults, for resilience testing (off by default): --faults RATE[:KIND,...]
gives each data request the probability RATE (0 < RATE <= 1) of meeting one
of the kinds, chosen uniformly (all of them when none is named):

  500       500 Internal Server Error
  503       503 Service Unavailable with Retry-After: 1
  429       429 Too Many Requests with Retry-After: 1
  slow      the answer comes 3 seconds late
  truncate  the body stops halfway and the connection closes
  reset     the connection is reset without an answer
  token     the access token is revoked and the request answered 401

e.g. --faults 0.05 or --faults 0.1:500,503,slow.

Identity across restarts: with --client-secret-file FILE the demo
client's secret is the one in FILE (the secret alone, or the client_secret=
line of a file --print-credentials wrote; a file others can read is
refused) on every start, so a chainwatch that was using the sandbox
fetches a new token by itself after a restart on the same --listen
address. --state DIR also keeps the signing keys, the logins with their
refresh tokens and the access tokens in DIR (a private file), so nothing a
client holds stops working.

Clock: --clock 2026-11-24T11:30:00-05:00 runs the simulated market from
that instant (an open market at any hour), --speed N N times as fast.
Every answer's Date header and every time in a token follow this clock.

It stops on Ctrl+C or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Out, opts.ErrOut, opts.Context = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return sandboxRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Listen, "listen", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	cmd.Flags().DurationVar(&opts.TokenTTL, "token-ttl", sandbox.DefaultAccessTokenTTL, "lifetime of access tokens; shorten it to watch clients renew them")
	cmd.Flags().StringVar(&opts.Plan, "plan", "professional", "points plan of every client: "+strings.Join(quota.PlanNames(), ", "))
	cmd.Flags().Float64Var(&opts.PerSecond, "rate", sandbox.DefaultPerSecond, "requests per second per client; 0 for no limit")
	cmd.Flags().StringVar(&opts.Faults, "faults", "", "inject faults: RATE or RATE:KIND,... with kinds 500, 503, 429, slow, truncate, reset, token (off by default)")
	cmd.Flags().StringVar(&opts.ClientSecret, "client-secret", "", "fix the demo client's secret (16 to 128 printable characters; env "+envSandboxSecret+"); --client-secret-file keeps it out of the process list")
	cmd.Flags().StringVar(&opts.ClientSecretFile, "client-secret-file", "", "fix the demo client's secret to the one in this file, which only you may read")
	cmd.Flags().StringVar(&opts.PrintCredentials, "print-credentials", "", "write the four lines to this file (made 0600) instead of stdout")
	cmd.Flags().StringVar(&opts.State, "state", "", "keep keys, secret, logins and tokens in this directory across restarts")
	addClockFlags(cmd, &opts.Clock, &opts.Speed, "clock", "speed")
	cmd.Flags().StringVar(&opts.Entitlements, "entitlements", "consolidated_tape,utp,opra", "subscriptions of every client: a comma list of consolidated_tape, utp, opra, or none")
	return cmd
}

func sandboxRun(o *SandboxOptions) error {
	if o.TokenTTL <= 0 {
		return usageError{fmt.Errorf("--token-ttl %s: want a positive duration, e.g. 5m or 1h", o.TokenTTL)}
	}
	cfg, err := sandboxConfig(o.Plan, o.PerSecond, o.Faults, o.Entitlements)
	if err != nil {
		return badInput(err)
	}
	if err := checkListen(o.Listen); err != nil {
		return badInput(err)
	}
	log := slog.New(slog.NewTextHandler(o.ErrOut, nil))
	if host, _, err := net.SplitHostPort(o.Listen); err == nil && !api.IsLoopbackHost(host) {
		log.Warn("listening beyond loopback: the sandbox speaks plain http, and chainwatch refuses plain http to any host but loopback", "listen", o.Listen)
	}
	cfg.Addr, cfg.Logger, cfg.AccessTokenTTL, cfg.StateDir = o.Listen, log, o.TokenTTL, o.State
	if cfg.DemoSecret, err = sandboxSecret(o); err != nil {
		return err
	}
	if o.PrintCredentials != "" {
		if err := checkCredentialsPath(o.PrintCredentials); err != nil {
			return err
		}
	}
	if cfg.Now, err = sandboxClock("--clock", o.Clock, "--speed", o.Speed); err != nil {
		return err
	}
	if cfg.Faults.Enabled() {
		log.Warn("fault injection is on", "faults", cfg.Faults.String())
	}
	s, err := sandbox.Start(cfg)
	if err != nil {
		var oe *net.OpError
		if errors.As(err, &oe) && oe.Op == "listen" {
			return fmt.Errorf("%w (choose another address with --listen, e.g. --listen 127.0.0.1:0 for any free port)", err)
		}
		return err
	}
	if o.PrintCredentials == "" {
		fmt.Fprint(o.Out, credentialsText(s))
	} else if err := writeCredentials(o.PrintCredentials, s); err != nil {
		return errors.Join(err, s.Close())
	} else {
		log.Info("credentials written", "file", o.PrintCredentials)
	}
	log.Info("to log in as a user: chainwatch login --auth-url " + s.AuthURL + " --base-url " + s.BaseURL)

	ctx, stop := signal.NotifyContext(o.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
		log.Info("stopping")
	case <-s.Done():
	}
	return s.Close()
}

// checkListen refuses a --listen that no listener can take (no port, a
// port out of range) before anything starts: the caller's mistake, exit
// status 2, where an address in use is the machine's (exit status 1).
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil && port == "" {
		err = errors.New("no port")
	}
	if err == nil {
		_, err = net.LookupPort("tcp", port) // a number in range, or a service name
	}
	if err != nil {
		var ae *net.AddrError
		var de *net.DNSError
		switch {
		case errors.As(err, &ae):
			err = errors.New(ae.Err)
		case errors.As(err, &de):
			err = errors.New(de.Err)
		}
		return fmt.Errorf("--listen %s: %v; want HOST:PORT, e.g. 127.0.0.1:8080 or 127.0.0.1:0 for any free port", text.Quote(addr), err)
	}
	return nil
}

// sandboxConfig checks the data flags before anything starts, so a typo is
// one clear line rather than a sandbox that behaves unexpectedly.
func sandboxConfig(plan string, perSecond float64, faultSpec, entitlements string) (sandbox.Config, error) {
	var cfg sandbox.Config
	p, ok := quota.PlanByName(plan)
	if !ok {
		return cfg, fmt.Errorf("--plan %s: want one of %s", text.Quote(plan), strings.Join(quota.PlanNames(), ", "))
	}
	cfg.Plan = p
	switch {
	case math.IsNaN(perSecond) || math.IsInf(perSecond, 0) || perSecond < 0:
		return cfg, fmt.Errorf("--rate %v: want a number of requests per second >= 0 (0 for no limit)", perSecond)
	case perSecond == 0:
		cfg.PerSecond = -1 // the sandbox's unlimited
	default:
		cfg.PerSecond = perSecond
	}
	f, err := faults.Parse(faultSpec)
	if err != nil {
		return cfg, fmt.Errorf("--faults: %s", strings.TrimPrefix(err.Error(), "faults: "))
	}
	cfg.Faults = f
	if cfg.Entitlements, err = sandbox.ParseEntitlements(entitlements); err != nil {
		return cfg, fmt.Errorf("--entitlements: %w", err)
	}
	return cfg, nil
}

// addClockFlags adds the sandbox clock's two flags under the names given
// (the sandbox command's --clock/--speed, the screen's --sandbox-clock/
// --sandbox-speed).
func addClockFlags(cmd *cobra.Command, clock *string, speed *float64, clockName, speedName string) {
	cmd.Flags().StringVar(clock, clockName, "", "run the simulated market from this instant (RFC 3339, e.g. 2026-11-24T11:30:00-05:00)")
	cmd.Flags().Float64Var(speed, speedName, 1, "with --"+clockName+": how many times as fast as real time the clock runs")
}

// sandboxClock is the sandbox clock the flags ask for; nil (the real
// clock) when clock is empty.
// sandboxClockEnd is the first day past the sandbox's calendar.
const sandboxClockEnd = api.Date(21000101)

func sandboxClock(clockFlag, clock, speedFlag string, speed float64) (func() time.Time, error) {
	if math.IsNaN(speed) || speed <= 0 || speed > 10000 {
		return nil, usageError{fmt.Errorf("%s %v: want a speed above 0 and at most 10000", speedFlag, speed)}
	}
	if clock == "" {
		if speed != 1 {
			return nil, usageError{fmt.Errorf("%s needs %s", speedFlag, clockFlag)}
		}
		return nil, nil
	}
	start, err := time.Parse(time.RFC3339, clock)
	if err != nil {
		return nil, usageError{fmt.Errorf("%s %s: want an instant as 2026-11-24T11:30:00-05:00", clockFlag, text.Quote(clock))}
	}
	// The service's data and calendar span these days: a clock outside
	// them has no market to simulate (and signs no valid token).
	if d := api.Today(start); d < api.EarliestDate || d >= sandboxClockEnd {
		return nil, usageError{fmt.Errorf("%s %s: want an instant from %s to %s", clockFlag, text.Quote(clock), api.EarliestDate, sandboxClockEnd.AddDays(-1))}
	}
	return sandbox.Clock(start, speed), nil
}
