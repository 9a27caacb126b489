package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// newStatusCmd shows which service and credentials chainwatch would use,
// and proves they work: the same resolution the watch screen uses.
func newStatusCmd(deps cliDeps) *cobra.Command {
	var f serviceFlags
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show which service and credentials chainwatch uses, and check them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := resolveSession(f, deps.getenv)
			if err != nil {
				return err
			}
			defer s.close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "credentials: %s\n", s.source)
			if s.store != "" {
				fmt.Fprintf(out, "token file:  %s\n", s.store)
			}
			fmt.Fprintf(out, "base_url:    %s\nauth_url:    %s\nclient_id:   %s\n", s.baseURL, s.auth.AuthURL, s.auth.ClientID)
			ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
			defer cancel()
			who, err := s.check(ctx)
			if err != nil {
				return fmt.Errorf("the credentials do not work: %w", err)
			}
			fmt.Fprintf(out, "signed in as: %s\n", who)
			return nil
		},
	}
	addServiceFlags(cmd, &f)
	return cmd
}
