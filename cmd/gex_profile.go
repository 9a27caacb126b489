package cmd

import (
	"fmt"
	"math"
	"strconv"

	"chainwatch/positioning"
)

// gexProfileKeys are --profile's row keys: a spot and the total GEX there
// in dollars per 1 % move; at_spot marks the chain's own spot.
var gexProfileKeys = []string{"spot", "gex", "at_spot"}

// profileExport is the curve the zero-gamma search walks, a row a spot:
// ZeroGammaGrid spots over ±10 % and spot itself, whose GEX is the total
// the summary states (the contracts' own gamma there).
func (g *gexResult) profileExport(cv *positioning.Curve) Export {
	spots, gex := cv.Profile(g.chain.Spot, positioning.ZeroGammaGrid)
	e := Export{Keys: gexProfileKeys, Records: make([][]any, 0, len(spots))}
	e.Table = Table{Head: []string{"SPOT", "GEX $", "AT"}, Numeric: []bool{true, true, false}}
	for i, s := range spots {
		at := s == g.chain.Spot
		e.Records = append(e.Records, []any{round(s, 4), cents(gex[i]), at})
		mark := ""
		if at {
			mark = "spot"
		}
		e.Table.Rows = append(e.Table.Rows, []string{strconv.FormatFloat(s, 'f', 2, 64), gexText(gex[i]), mark})
	}
	return e
}

// profileText is --profile's stderr: what was priced, the total GEX at
// spot and the level where the curve crosses zero.
func (g *gexResult) profileText() string {
	if math.IsNaN(g.chain.Spot) {
		return g.what() + ": no spot, so no profile"
	}
	return fmt.Sprintf("GEX of %s over spots within %d %% of %s, per 1 %% move: %s at spot; zero gamma %s; %s; %s",
		g.what(), int(positioning.ZeroGammaRange*100), strconv.FormatFloat(g.chain.Spot, 'f', 2, 64),
		gexText(g.figs.GEX), flipText(g.flip), g.model(), positioning.Dealers)
}

// model names how the chain's figures that are not the service's are
// priced.
func (g *gexResult) model() string {
	if g.chain.American {
		return "American (Bjerksund-Stensland 2002) at each expiry's implied rate and dividend yield; vanna, charm and the curve's shape Black-Scholes-Merton's"
	}
	return "European (Black-Scholes-Merton) at each expiry's implied rate and dividend yield"
}

// carryJSON is one expiry's rate and dividend yield in --summary.
type carryJSON struct {
	Expiry   string  `json:"expiry"`
	Root     string  `json:"root"`
	Rate     float64 `json:"rate"`
	Dividend float64 `json:"dividend_yield"`
	Borrowed bool    `json:"borrowed"`
}

// carry is the range's expiries' carry: borrowed when the expiry's quotes
// could not tell and a neighbour's stands in.
func (g *gexResult) carry() []carryJSON {
	out := make([]carryJSON, 0, len(g.figs.Expiries))
	for _, i := range g.figs.Expiries {
		e := &g.chain.Exps[i]
		out = append(out, carryJSON{Expiry: e.Date.String(), Root: e.Root, Rate: round(e.Carry.R, 6), Dividend: round(e.Carry.Q, 6), Borrowed: e.Borrowed})
	}
	return out
}
