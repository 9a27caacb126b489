package cmd

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
)

// StatusOptions are `chainwatch status`'s inputs.
type StatusOptions struct {
	Out     io.Writer
	Getenv  func(string) string
	Context context.Context
	Service serviceFlags
}

// NewCmdStatus shows which service and credentials chainwatch would use,
// and proves they work: the same resolution the watch screen uses. runF
// replaces statusRun in tests of the flags.
func NewCmdStatus(deps Deps, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Getenv: deps.getenv}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show which service and credentials chainwatch uses, and check them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Out, opts.Context = cmd.OutOrStdout(), cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return statusRun(opts)
		},
	}
	addServiceFlags(cmd, &opts.Service)
	return cmd
}

func statusRun(opts *StatusOptions) error {
	s, err := resolveSession(opts.Service, opts.Getenv)
	if err != nil {
		return err
	}
	defer s.close()
	out := opts.Out
	fmt.Fprintf(out, "credentials: %s\n", s.source)
	if s.store != "" {
		fmt.Fprintf(out, "token file:  %s\n", s.store)
	}
	if s.source == fromEmbeddedSandbox {
		// Its port closes when this command ends: printing it would send
		// the user to an address that no longer answers.
		fmt.Fprintf(out, "service:     the embedded sandbox, started for this check and stopped after it (run `chainwatch sandbox` for one that stays up)\nclient_id:   %s\n", s.auth.ClientID)
	} else {
		fmt.Fprintf(out, "base_url:    %s\nauth_url:    %s\nclient_id:   %s\n", s.baseURL, s.auth.AuthURL, s.auth.ClientID)
	}
	ctx, cancel := context.WithTimeout(opts.Context, 30*time.Second)
	defer cancel()
	who, err := s.check(ctx)
	if err != nil {
		return fmt.Errorf("the credentials do not work: %w", err)
	}
	fmt.Fprintf(out, "signed in as: %s\n", who)
	return nil
}
