package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/sandbox"
)

// newSandboxCmd runs the sandbox standalone. Its four stdout lines are for
// scripts (eval-able as shell assignments); everything else goes to stderr.
// They are the one place chainwatch prints a secret, because the user asked
// for it: the demo client's secret is new on every start.
func newSandboxCmd() *cobra.Command {
	var (
		listen   string
		tokenTTL time.Duration
	)
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the local sandbox of the market-data service",
		Long: `Run the sandbox: a local deployment of the market-data service and its
OAuth 2.0 / OpenID Connect token service, for trying chainwatch and for tests.

It prints four lines on stdout, for scripts:

  base_url=URL         the data endpoints ({base_url})
  auth_url=URL         the token service ({auth_url})
  client_id=ID         the confidential demo client
  client_secret=SECRET its secret, new on every start

and logs requests to stderr. Log in with the public client
(chainwatch login --auth-url URL --base-url URL) or fetch a token with the
demo client, e.g.:

  curl -u "$client_id:$client_secret" -d grant_type=client_credentials "$auth_url/connect/token"

It stops on Ctrl+C or SIGTERM.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			if host, _, err := net.SplitHostPort(listen); err == nil && !api.IsLoopbackHost(host) {
				log.Warn("listening beyond loopback: the sandbox speaks plain http, and chainwatch refuses plain http to any host but loopback", "listen", listen)
			}
			s, err := sandbox.Start(sandbox.Config{Addr: listen, Logger: log, AccessTokenTTL: tokenTTL})
			if err != nil {
				return fmt.Errorf("%w (choose another address with --listen, e.g. --listen 127.0.0.1:0 for any free port)", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "base_url=%s\nauth_url=%s\nclient_id=%s\nclient_secret=%s\n",
				s.BaseURL, s.AuthURL, sandbox.DemoClientID, s.DemoSecret)
			log.Info("to log in as a user: chainwatch login --auth-url " + s.AuthURL + " --base-url " + s.BaseURL)

			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			select {
			case <-ctx.Done():
				log.Info("stopping")
			case <-s.Done():
			}
			return s.Close()
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	cmd.Flags().DurationVar(&tokenTTL, "token-ttl", sandbox.DefaultAccessTokenTTL, "lifetime of access tokens; shorten it to watch clients renew them")
	return cmd
}
