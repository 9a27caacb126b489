package cmd

import (
	"fmt"
	"math"
	"strconv"

	"chainwatch/api"
	"chainwatch/scan"
)

// chainExport is the contracts as the exporter prints them: for scripts
// every field under the service's name (null where the service sent
// null); for a person a table of the ladder's columns, IV in percent.
func chainExport(opts []api.OptionData) Export {
	e := Export{Keys: chainKeys, Records: make([][]any, 0, len(opts))}
	e.Table = Table{
		Head:    []string{"OPTION", "STRIKE", "TYPE", "BID", "ASK", "BID SZ", "ASK SZ", "MID", "LAST", "VOLUME", "OI", "IV %", "DELTA", "GAMMA", "THETA", "VEGA"},
		Numeric: []bool{false, true, false, true, true, true, true, true, true, true, true, true, true, true, true, true},
	}
	for _, o := range opts {
		e.Records = append(e.Records, []any{o.Option, o.Root, o.Expiry.String(), o.Strike, string(o.OptionType),
			nullable(o.Bid), nullable(o.Ask), nullable(o.BidSize), nullable(o.AskSize), nullable(o.Mid),
			nullable(o.LastTradePrice), nullable(o.Volume), nullable(o.OpenInterest), nullable(o.IV),
			nullable(o.Delta), nullable(o.Gamma), nullable(o.Theta), nullable(o.Vega), nullable(o.Rho)})
		side := "call"
		if o.OptionType == api.Put {
			side = "put"
		}
		e.Table.Rows = append(e.Table.Rows, []string{o.Option, strconv.FormatFloat(o.Strike, 'f', -1, 64), side,
			fixed(o.Bid, 2, 1), fixed(o.Ask, 2, 1), count(o.BidSize), count(o.AskSize), fixed(o.Mid, 3, 1),
			fixed(o.LastTradePrice, 2, 1), count(o.Volume), count(o.OpenInterest), fixed(o.IV, 1, 100),
			fixed(o.Delta, 3, 1), fixed(o.Gamma, 4, 1), fixed(o.Theta, 3, 1), fixed(o.Vega, 3, 1)})
	}
	return e
}

// chainRowsText starts the summary: the expiry, its days to expiry and
// the underlying's price the strikes were chosen around.
func chainRowsText(sym string, opts []api.OptionData, day api.Date, spot float64) string {
	exp := opts[0].Expiry
	s := fmt.Sprintf("%d contracts of %s %s (%d DTE)", len(opts), sym, exp, day.DaysUntil(exp))
	if !math.IsNaN(spot) {
		s += fmt.Sprintf(", underlying %s", strconv.FormatFloat(spot, 'f', 2, 64))
	}
	return s
}

// fixed is f times scale with decimals places; "" (shown "-") when null.
func fixed(f api.Float, decimals int, scale float64) string {
	if !f.Valid {
		return ""
	}
	return strconv.FormatFloat(f.V*scale, 'f', decimals, 64)
}

// count is a size or volume with its thousands grouped.
func count(n api.Int) string {
	if !n.Valid {
		return ""
	}
	return scan.GroupDigits(n.V)
}
