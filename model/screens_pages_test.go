package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/model/common"
	"chainwatch/model/positions"
	"chainwatch/scan"
	strat "chainwatch/strategy"
)

// What only one page is sent, for the screens test: the contract's
// prints and quotes, the positions held, the alert rules and what they
// fired, the saved scans.

// greekTrades are a contract's prints with their greeks.
func (g *gen) greekTrades(n int) []api.OptionTradeWithGreeks {
	out := make([]api.OptionTradeWithGreeks, n)
	for i := range out {
		out[i] = api.OptionTradeWithGreeks{IV: g.f(0.2), Delta: g.f(0.5), Vega: g.f(0.1), Theta: g.f(-0.05), Gamma: g.f(0.01),
			DollarDelta: g.f(5000), UnderlyingBid: g.f(600), UnderlyingAsk: g.f(600),
			Trade: api.Trade{Size: pick(g, int64(1), 500, 1<<40), Price: g.f(1.25), Time: api.TimeOfDay(int64(i) * 1000 % int64(api.DayMillis)), SequenceNumber: int64(i + 1)}}
	}
	return out
}

// taq are a contract's quote changes and prints.
func (g *gen) taq(n int) []api.TAQRecord {
	out := make([]api.TAQRecord, n)
	for i := range out {
		at := pick(g, api.NewTimeOfDay(9, 30, 0, 0)+api.TimeOfDay(i*1000), 0, api.DayMillis-1)
		if g.r.IntN(3) == 0 {
			out[i] = api.TAQRecord{Kind: api.KindTrade, Trade: api.Trade{Size: 3, Price: g.f(1.25), Time: at, SequenceNumber: int64(i + 1)}}
			continue
		}
		out[i] = api.TAQRecord{Kind: api.KindOptionQuote, Quote: api.OptionQuote{Quote: api.Quote{Bid: g.f(1.2), Ask: g.f(1.3), NBBOBid: g.f(1.2), NBBOAsk: g.f(1.3), Time: at, SequenceNumber: int64(i + 1)}}}
	}
	return out
}

// positions are a few positions held in the chain's contracts (or a file
// that did not load).
func (g *gen) positions(ch *api.SymbolWithOptions, now time.Time) positions.LoadedMsg {
	if ch == nil || len(ch.Options) == 0 || g.r.IntN(5) == 0 {
		return positions.LoadedMsg{Err: fmt.Errorf("positions.toml line 3: %s", strings.Repeat("bad ", 40))}
	}
	var msg positions.LoadedMsg
	for id := range g.r.IntN(6) {
		legs := g.legs(ch, true)
		if legs == nil {
			break
		}
		saved := config.Position{ID: id + 1, Name: pick(g, "", "iron condor "+strings.Repeat("x", 80)), Symbol: ch.Symbol, Opened: now.Add(-48 * time.Hour), Legs: legs}
		if g.r.IntN(3) == 0 {
			saved.Closed, saved.Close = now, make([]float64, len(legs))
		}
		if p, err := strat.FromSaved(saved); err == nil {
			msg.Positions = append(msg.Positions, p)
		}
	}
	return msg
}

// legs are one to four of the chain's contracts bought or sold, as a
// ticket or a position's file spells them (filled: with a price).
func (g *gen) legs(ch *api.SymbolWithOptions, filled bool) []string {
	var valid []string // the contracts a ticket can name (a wild strike cannot be spelled)
	for _, o := range ch.Options {
		if _, err := api.ParseOSI(o.Option); err == nil {
			valid = append(valid, strings.ReplaceAll(o.Option, " ", ""))
		}
	}
	if len(valid) == 0 {
		return nil
	}
	var out []string
	for range 1 + g.r.IntN(4) {
		l := fmt.Sprintf("%+dx%s", pick(g, 1, -1, 100, -7), pick(g, valid...))
		if filled {
			l += fmt.Sprintf("@%.2f", pick(g, 1.25, 0.01, 9999.99))
		}
		out = append(out, l)
	}
	return out
}

// ticket is a strategy of the chain's contracts, for the strategy page
// (as a position rolled loads it).
func (g *gen) ticket(ch *api.SymbolWithOptions) (common.LoadTicketMsg, bool) {
	if ch == nil || len(ch.Options) == 0 {
		return common.LoadTicketMsg{}, false
	}
	legs := g.legs(ch, g.r.IntN(2) == 0)
	if legs == nil {
		return common.LoadTicketMsg{}, false
	}
	st, err := strat.Parse(ch.Symbol + " " + strings.Join(legs, " "))
	return common.LoadTicketMsg{Strategy: st}, err == nil
}

// alerts is an engine on cfg's monitor with a few rules (some that do not
// hold, which it refuses) and a log of what they fired, or nil (the
// page then says alerts are off).
func (g *gen) alerts(tb testing.TB, cfg Config, sym, contract string, now time.Time) *alert.Engine {
	if g.r.IntN(3) == 0 {
		return nil
	}
	log, err := alert.OpenLog("", 0)
	if err != nil {
		tb.Fatal(err)
	}
	eng, err := alert.New(alert.Options{Monitor: cfg.Monitor, Log: log, Now: cfg.Now}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(eng.Close)
	var recs []alert.Record
	for i := range g.r.IntN(8) {
		r := alert.Rule{Name: pick(g, "", "r"+fmt.Sprint(i), strings.Repeat("long rule name ", 8)+fmt.Sprint(i)),
			Kind: alert.Kind(1 + g.r.IntN(10)), Symbol: sym, Contract: pick(g, "", contract), Above: g.r.IntN(2) == 0,
			Level: g.wild(), Margin: g.r.Float64(), Move: pick(g, 0, 2.0, 1e9)}
		_ = eng.Add(r) // a rule that does not hold is refused, as the config file's would be
		recs = append(recs, alert.Record{Type: alert.Fired, Event: alert.Event{Rule: r.Name, Kind: r.Kind.String(), Symbol: sym,
			Contract: r.Contract, Value: g.wild(), Level: r.Level, Direction: pick(g, "above", "below", "at_least"),
			Time: now, Size: pick(g, int64(0), 1<<40), Price: g.wild(), Text: pick(g, "", "price crossed\x1b[2J "+strings.Repeat("∑", 90)),
			FiredAt: now.Add(-time.Duration(g.r.IntN(100000)) * time.Second)}})
	}
	if _, err := log.Append(recs); err != nil {
		tb.Fatal(err)
	}
	return eng
}

// scans are saved scans as a config file may hold them.
func (g *gen) scans() []scan.Scan {
	var out []scan.Scan
	for i := range g.r.IntN(4) {
		out = append(out, scan.Scan{Name: pick(g, "cheap calls", strings.Repeat("a very long scan name ", 6), "é"+fmt.Sprint(i)),
			Description: pick(g, "", strings.Repeat("describes ", 30)),
			Fields:      []api.ScanFieldParam{{Formula: pick(g, "iv30 > 20", "", strings.Repeat("(", 80))}}})
	}
	return out
}
