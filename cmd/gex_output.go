package cmd

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"chainwatch/positioning"
	"chainwatch/scan"
)

// gexKeys are a row's keys (JSON) and the CSV header: GEX in dollars per
// 1 % move of the underlying, vanna in dollars of delta per volatility
// point, charm in dollars of delta per day (gexUnits).
var gexKeys = []string{"strike", "call_open_interest", "put_open_interest", "call_volume", "put_volume",
	"call_gex", "put_gex", "gex", "call_vanna", "put_vanna", "vanna", "call_charm", "put_charm", "charm"}

// gexSummaryKeys are the keys of --summary's object.
var gexSummaryKeys = []string{"symbol", "day", "as_of", "spot", "range", "expiries", "max_pain",
	"call_wall", "put_wall", "gamma_call_wall", "gamma_put_wall",
	"call_open_interest", "put_open_interest", "put_call_open_interest_ratio",
	"call_volume", "put_volume", "call_gex", "put_gex", "gex", "call_vanna", "put_vanna", "vanna",
	"call_charm", "put_charm", "charm", "gamma_estimated", "gex_estimated", "gamma_missing",
	"zero_gamma", "zero_gamma_note", "units", "model", "carry", "dealers"}

// gexUnits are what each exposure's dollars are per, as --summary states
// them.
var gexUnits = map[string]string{
	"gex":   "dollars per 1 % move of the underlying: gamma x open interest x 100 x spot² x 0.01",
	"vanna": "dollars of delta per volatility point: vanna x open interest x 100 x spot",
	"charm": "dollars of delta per calendar day: charm x open interest x 100 x spot",
}

// gexResult is one run's figures.
type gexResult struct {
	chain *positioning.Chain
	r     positioning.Range
	figs  positioning.Figures
	flip  positioning.Flip
}

// painJSON is one expiry's max pain in --summary.
type painJSON struct {
	Expiry string `json:"expiry"`
	Root   string `json:"root"`
	Strike any    `json:"strike"`
}

// rowsExport is a row per strike for scripts, and the table a person
// reads (GEX in whole dollars, signed).
func (g *gexResult) rowsExport() Export {
	e := Export{Keys: gexKeys, Records: make([][]any, 0, len(g.figs.Rows))}
	e.Table = Table{
		Head:    []string{"STRIKE", "CALL OI", "PUT OI", "CALL VOL", "PUT VOL", "CALL GEX $", "PUT GEX $", "GEX $", "VANNA $/VOL", "CHARM $/DAY"},
		Numeric: []bool{true, true, true, true, true, true, true, true, true, true},
	}
	for i := range g.figs.Rows {
		r := &g.figs.Rows[i]
		vanna, charm := r.CallVanna+r.PutVanna, r.CallCharm+r.PutCharm
		e.Records = append(e.Records, []any{r.Strike, r.CallOI, r.PutOI, r.CallVolume, r.PutVolume,
			cents(r.CallGEX), cents(r.PutGEX), cents(r.GEX()),
			cents(r.CallVanna), cents(r.PutVanna), cents(vanna), cents(r.CallCharm), cents(r.PutCharm), cents(charm)})
		e.Table.Rows = append(e.Table.Rows, []string{strike(r.Strike), scan.GroupDigits(r.CallOI), scan.GroupDigits(r.PutOI),
			scan.GroupDigits(r.CallVolume), scan.GroupDigits(r.PutVolume), gexText(r.CallGEX), gexText(r.PutGEX), gexText(r.GEX()),
			gexText(vanna), gexText(charm)})
	}
	return e
}

// summaryExport is --summary's one object.
func (g *gexResult) summaryExport() Export {
	f, c := &g.figs, g.chain
	exps := make([]string, 0, len(f.Expiries))
	pains := make([]painJSON, 0, len(f.MaxPain))
	for _, i := range f.Expiries {
		if d := c.Exps[i].Date.String(); len(exps) == 0 || exps[len(exps)-1] != d {
			exps = append(exps, d)
		}
	}
	for _, p := range f.MaxPain {
		pains = append(pains, painJSON{Expiry: p.Date.String(), Root: p.Root, Strike: num(p.Strike)})
	}
	rec := []any{c.Symbol, c.Day.String(), c.AsOf.Format("15:04:05"), num(c.Spot), g.r.Label(), exps, pains,
		num(f.CallWall), num(f.PutWall), num(f.GammaCallWall), num(f.GammaPutWall), f.CallOI, f.PutOI, num(round(f.PCOI, 6)),
		f.CallVolume, f.PutVolume, cents(f.CallGEX), cents(f.PutGEX), cents(f.GEX),
		cents(f.CallVanna), cents(f.PutVanna), cents(f.Vanna), cents(f.CallCharm), cents(f.PutCharm), cents(f.Charm),
		f.GammaEstimated, cents(f.EstimatedGEX), f.GammaMissing,
		num(round(g.flip.Level, 2)), nilIfEmpty(flipNote(g.flip)), gexUnits, g.model(), g.carry(), positioning.Dealers}
	return Export{Keys: gexSummaryKeys, Records: [][]any{rec}, Object: true}
}

// flipNote says why there is no zero-gamma level; "" when there is one.
func flipNote(f positioning.Flip) string {
	pct := strconv.Itoa(int(positioning.ZeroGammaRange*100)) + " %"
	switch {
	case !math.IsNaN(f.Level):
		return ""
	case f.Sign > 0:
		return "GEX stays positive within " + pct + " of spot"
	case f.Sign < 0:
		return "GEX stays negative within " + pct + " of spot"
	}
	return "no open interest with an IV to price"
}

// what names the run: the symbol, the range and its expiries.
func (g *gexResult) what() string {
	f, c := &g.figs, g.chain
	first, last := c.Exps[f.Expiries[0]].Date, c.Exps[f.Expiries[len(f.Expiries)-1]].Date
	n := 0
	for i, x := range f.Expiries {
		if i == 0 || c.Exps[x].Date != c.Exps[f.Expiries[i-1]].Date {
			n++
		}
	}
	s := fmt.Sprintf("%s, %s: ", c.Symbol, g.r.Label())
	if n == 1 {
		return s + "the " + first.String() + " expiry"
	}
	return s + fmt.Sprintf("%d expiries %s to %s", n, first, last)
}

// summaryText is the stderr summary of a run that printed rows: what was
// summed, then the figures, a line each.
func (g *gexResult) summaryText() string {
	f, c := &g.figs, g.chain
	var b strings.Builder
	fmt.Fprintf(&b, "%d strikes of %s", len(f.Rows), g.what())
	if !math.IsNaN(c.Spot) {
		fmt.Fprintf(&b, ", spot %s at %s", strconv.FormatFloat(c.Spot, 'f', 2, 64), c.AsOf.Format("15:04:05"))
	}
	b.WriteString("\n  max pain:")
	for i, p := range f.MaxPain {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s %s", p.Date, p.Root, orDash(strike(p.Strike)))
	}
	fmt.Fprintf(&b, "\n  call wall %s, put wall %s, put/call OI %s (calls %s, puts %s)",
		orDash(strike(f.CallWall)), orDash(strike(f.PutWall)), orDash(fixedNum(f.PCOI, 2)), scan.GroupDigits(f.CallOI), scan.GroupDigits(f.PutOI))
	fmt.Fprintf(&b, "\n  gamma walls: call %s, put %s", orDash(strike(f.GammaCallWall)), orDash(strike(f.GammaPutWall)))
	fmt.Fprintf(&b, "\n  GEX %s per 1 %% move (calls %s, puts %s); zero gamma %s; %s",
		gexText(f.GEX), gexText(f.CallGEX), gexText(f.PutGEX), flipText(g.flip), positioning.Dealers)
	fmt.Fprintf(&b, "\n  vanna %s of delta per vol point, charm %s of delta per day", gexText(f.Vanna), gexText(f.Charm))
	if n := f.GammaEstimated; n > 0 {
		fmt.Fprintf(&b, "\n  %s with open interest had no gamma: the model's at the smile's IV, %s of GEX", plural(n, "contract"), gexText(f.EstimatedGEX))
	}
	if n := f.GammaMissing; n > 0 {
		fmt.Fprintf(&b, "\n  %s with open interest had no gamma and no IV to estimate one: left out", plural(n, "contract"))
	}
	return b.String()
}

// flipText is the zero-gamma level, or why there is none.
func flipText(f positioning.Flip) string {
	if math.IsNaN(f.Level) {
		return "none (" + flipNote(f) + ")"
	}
	return strconv.FormatFloat(f.Level, 'f', 2, 64)
}

// gexText is dollars of GEX, signed and grouped: "+$1,234,567".
func gexText(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	sign := "+"
	if math.Round(v) < 0 {
		sign = "-"
	} else if math.Round(v) == 0 {
		sign = ""
	}
	return sign + "$" + scan.NumberText(math.Abs(v), 0)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
