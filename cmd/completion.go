package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"chainwatch/config"
	"chainwatch/text"
)

// Shell completion is cobra's `chainwatch completion bash|zsh|fish|
// powershell`; a symbol argument completes from what the user watches:
// the config file's symbol and watchlist, then the recent symbols, as the
// symbol prompt offers them. Nothing is asked of the service: completion
// must be instant and free.

// completeSymbols completes a symbol argument (every one of a command
// that takes several).
func completeSymbols(deps Deps) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		prefix := strings.ToUpper(strings.TrimSpace(toComplete))
		var out []string
		for _, s := range knownSymbols(deps, cmd) {
			if strings.HasPrefix(s, prefix) && !slices.Contains(out, s) && !slices.Contains(upper(args), s) {
				out = append(out, s)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// knownSymbols are the symbols the user has: the config file's symbol
// and watchlist (the default list when it has none), then the recent
// list, most recent first.
func knownSymbols(deps Deps, cmd *cobra.Command) []string {
	var list []string
	path, explicit := "", false
	if f := cmd.Flags().Lookup("config"); f != nil && f.Changed {
		path, explicit = f.Value.String(), true
	}
	fc, _, _, err := configFile(path, explicit, deps.getenv)
	if err != nil {
		fc = config.File{Watchlist: &list} // no symbol, no watchlist: only the recent ones
	}
	return userSymbols(fc, deps.getenv)
}

// userSymbols are fc's symbol and watchlist, then the recent list: the
// completions, and the words "did you mean" picks from.
func userSymbols(fc config.File, getenv func(string) string) []string {
	list := append([]string{fc.Symbol}, fc.WatchlistSymbols()...)
	recent, _ := config.OpenState(getenv).Recent()
	list = append(list, recent...)
	return slices.DeleteFunc(upper(list), func(s string) bool { return s == "" })
}

func upper(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToUpper(strings.TrimSpace(s))
	}
	return out
}

// strictCompletion makes `chainwatch completion SHELL` refuse a shell it
// has no script for (exit status 2): cobra's completion command is not
// runnable, so `completion tcsh` printed its help and exited 0, as if a
// script had been written.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sub := range c.Commands() {
			shells = append(shells, sub.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return badInput(fmt.Errorf("completion %s: no completion script for that shell; want one of %s",
				text.Quote(args[0]), strings.Join(shells, ", ")))
		}
	}
}
