// Command chainwatch is a terminal UI for watching option chains on a
// points-metered market-data service. main builds the process's
// dependencies and runs the command line (package cmd); everything else
// lives in the packages README's Layout section names.
package main

import (
	"os"

	"chainwatch/cmd"
)

func main() {
	deps := cmd.Process(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	os.Exit(cmd.Execute(deps, os.Args[1:]))
}
