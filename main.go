// Command chainwatch is a terminal UI for watching option chains on a
// points-metered market-data service. main builds the process's
// dependencies and runs the command line (package cmd); everything else
// lives in the packages docs/architecture.md's Layout section names.
package main

import (
	"os"

	"chainwatch/cmd"
)

func main() {
	// A --jq run's own process (cmd/export_jq.go): nothing else starts.
	if code, ok := cmd.RunScriptChild(); ok {
		os.Exit(code)
	}
	deps := cmd.Process(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	os.Exit(cmd.Execute(deps, os.Args[1:]))
}
