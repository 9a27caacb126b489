package cmd

import (
	"fmt"
	"strings"

	"chainwatch/config"
)

// A backfill of a symbol the service does not know bought every day of
// it for nothing (60 points for 20 days of SPYY). The symbols are checked
// first: against the embedded sandbox's list, which costs nothing; on a
// service, by the answer for the plan's newest day, bought first: a
// symbol it does not list stops the backfill there (buy). Either way an
// unknown symbol is status 3 and nothing more is bought.

// unknownSymbolsError names the symbols the service does not list.
func unknownSymbolsError(unknown, known []string, spent string) error {
	msg := "no such symbol: " + strings.Join(unknown, ", ")
	if len(unknown) == 1 && known != nil {
		if near := config.NearestSymbol(unknown[0], known); near != "" {
			msg += "; did you mean " + near + "?"
		}
	}
	return noData(fmt.Errorf("history backfill: %s; %s (leave it out and run again)", msg, spent))
}

// checkSandboxSymbols refuses symbols the embedded sandbox does not list.
func checkSandboxSymbols(symbols []string) error {
	have := sandboxSymbols()
	var unknown []string
	for _, s := range symbols {
		if !have.Has(s) {
			unknown = append(unknown, s)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return unknownSymbolsError(unknown, have.Known, "nothing was bought, 0 points spent")
}
