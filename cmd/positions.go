package cmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/strategy"
)

// PositionsOptions are `chainwatch positions`' inputs.
type PositionsOptions struct {
	headless
}

// NewCmdPositions prints the positions file's positions marked to market,
// the positions page's rows. runF replaces positionsRun in tests.
func NewCmdPositions(deps Deps, runF func(*PositionsOptions) error) *cobra.Command {
	f := &PositionsOptions{headless: newHeadless(deps)}
	cmd := &cobra.Command{
		Use:   "positions",
		Short: "Print the saved positions with their P&L today and since open (4 points an underlying)",
		Long: `positions prints the positions saved from the strategy page (positions.toml
beside the config file): each one's legs with their fills, its value at the
legs' mids now, its P&L since it was opened and today (from the previous close,
or from the fills for a position opened today). A closed or rolled position
shows its realized P&L from its closing fills and asks for nothing. Marking
costs one chain request per underlying held: 4 points live.`,
		Example: `  chainwatch positions
  chainwatch positions --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd)
			if runF != nil {
				return runF(f)
			}
			return positionsRun(f)
		},
	}
	addHeadlessFlags(cmd, &f.headless)
	return cmd
}

var positionsKeys = []string{"id", "name", "symbol", "legs", "opened", "status", "value", "pnl_today", "pnl_since_open"}

// positionsRun loads the positions and marks the open ones.
func positionsRun(f *PositionsOptions) error {
	fc, path, err := f.config()
	if err != nil {
		return err
	}
	mode, err := f.dataMode(fc)
	if err != nil {
		return err
	}
	file, err := f.positionsPath(path)
	if err != nil {
		return err
	}
	saved, err := config.LoadPositions(file)
	if err != nil {
		return badInput(err)
	}
	ps := make([]strategy.Position, 0, len(saved))
	for _, s := range saved {
		p, err := strategy.FromSaved(s)
		if err != nil {
			return badInput(fmt.Errorf("%s: %w", file, err))
		}
		ps = append(ps, p)
	}
	spans := strategy.Spans(ps)
	plan := planOf(api.EndpointOptionQuotes, mode, false)
	plan.parts[0].Count = len(spans)
	j := job{plan: plan, keys: positionsKeys, run: func(ctx context.Context, c *api.Client) (answer, error) {
		var a answer
		if len(ps) == 0 {
			// An empty list is an answer, as gh's list commands give it:
			// [] on stdout, status 0, and the advice on stderr.
			a.Export = positionsExport(nil, nil)
			a.Rows = "no positions saved; save one from the strategy page (s) or with strategy --save"
			return a, nil
		}
		chains := map[string]*api.SymbolWithOptions{}
		for sym, sp := range spans {
			m := feed.Source{Client: c, Now: f.Now}.Legs(ctx, feed.Query{Symbol: sym, Mode: mode}, sp, false)
			a.Resps = append(a.Resps, m.Resp)
			if m.Err != nil && !api.IsNoData(m.Err) {
				return a, serviceError(m.Err, "the chain of "+sym)
			}
			chains[sym] = m.Chain
		}
		now := f.Now()
		marks := strategy.Mark(ps, chains, now)
		a.Export = positionsExport(ps, marks)
		a.Rows = positionsSummary(ps, marks)
		return a, nil
	}}
	return f.execute(fc, mode, j)
}

// positionsExport is a row per position.
func positionsExport(ps []strategy.Position, marks []strategy.Marked) Export {
	e := Export{Keys: positionsKeys}
	t := Table{Head: []string{"ID", "NAME", "LEGS", "OPENED", "STATUS", "VALUE", "TODAY", "SINCE OPEN"},
		Numeric: []bool{true, false, false, false, false, true, true, true}}
	for i := range ps {
		p, mk := &ps[i], marks[i]
		status := positionStatus(p)
		var value, today, open any
		if mk.OK {
			open = round(mk.SinceOpen, 2)
			if p.Open() {
				value, today = round(mk.Value, 2), round(mk.Today, 2)
			}
		}
		e.Records = append(e.Records, []any{p.ID, p.Name, p.Strategy.Symbol, p.Legs, p.Opened.Format(time.RFC3339), status, value, today, open})
		row := []string{strconv.Itoa(p.ID), p.Name, p.Strategy.Symbol + " " + legsText(p), p.Opened.In(api.Eastern).Format("2006-01-02 15:04"), status, "", "", ""}
		switch {
		case mk.OK && p.Open():
			row[5], row[6], row[7] = strategy.Money(mk.Value), strategy.Money(mk.Today), strategy.Money(mk.SinceOpen)
		case mk.OK:
			row[7] = strategy.Money(mk.SinceOpen)
		default:
			row[4] += " (" + mk.Err + ")"
		}
		t.Rows = append(t.Rows, row)
	}
	e.Table = t
	return e
}

// positionStatus is open, closed or rolled into another.
func positionStatus(p *strategy.Position) string {
	switch {
	case p.Open():
		return "open"
	case p.RolledTo != 0:
		return "rolled to " + strconv.Itoa(p.RolledTo)
	}
	return "closed " + p.Closed.In(api.Eastern).Format("2006-01-02")
}

// legsText is the legs in short: "+1 C700 2026-12-18, -1 C710 2026-12-18".
func legsText(p *strategy.Position) string {
	parts := make([]string, len(p.Strategy.Legs))
	for i := range p.Strategy.Legs {
		parts[i] = p.Strategy.Legs[i].String()
	}
	return strings.Join(parts, ", ")
}

// positionsSummary totals the open positions' P&L.
func positionsSummary(ps []strategy.Position, marks []strategy.Marked) string {
	open, today, since := 0, 0.0, 0.0
	for i := range ps {
		if ps[i].Open() && marks[i].OK {
			open++
			today += marks[i].Today
			since += marks[i].SinceOpen
		}
	}
	return fmt.Sprintf("%d positions, %d open: %s today, %s since open", len(ps), open, strategy.Money(today), strategy.Money(since))
}
