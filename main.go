// Command chainwatch is a terminal UI for watching option chains on a
// points-metered market-data service.
//
// main.go holds the command line and its wiring only; the client of the
// service is package api.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"chainwatch/api"
)

func main() {
	deps := cliDeps{
		in: os.Stdin, out: os.Stdout, errOut: os.Stderr,
		getenv: os.Getenv, openBrowser: openBrowser, stdinIsTerminal: stdinIsTerminal(),
	}
	if err := newRootCmd(deps).Execute(); err != nil {
		os.Exit(1)
	}
}

// cliDeps is everything the commands take from the process, injected so
// tests run the commands in process with their own input, environment and
// "browser".
type cliDeps struct {
	in          io.Reader
	out, errOut io.Writer
	getenv      func(string) string
	// openBrowser shows a URL to the user; see browser.go.
	openBrowser func(url string) error
	// stdinIsTerminal lets login also accept a pasted address when a
	// browser was opened: a user may still have signed in elsewhere.
	stdinIsTerminal bool
}

// newRootCmd builds the command tree.
func newRootCmd(deps cliDeps) *cobra.Command {
	root := &cobra.Command{
		Use:   "chainwatch",
		Short: "Watch option chains, greeks, IV and time and sales in the terminal",
		Long: `chainwatch watches option chains on a points-metered market-data service:
a live strike ladder with greeks and IV, a time-and-sales tape, the underlying
with its implied-price quality badge, an earnings and dividends calendar and a
scanner, spending the account's points wisely.`,
		SilenceUsage:  true,
		SilenceErrors: false,
		Version:       version(),
	}
	root.SetIn(deps.in)
	root.SetOut(deps.out)
	root.SetErr(deps.errOut)
	root.SetVersionTemplate("chainwatch {{.Version}}\n")
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version of chainwatch",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "chainwatch %s\n", version())
			return err
		},
	})
	root.AddCommand(newSandboxCmd(), newLoginCmd(deps), newLogoutCmd(deps), newStatusCmd(deps))
	return root
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
