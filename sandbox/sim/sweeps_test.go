package sim

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox/market"
	"chainwatch/tas"
)

// sweepDay is one simulated day the sweep tests read whole: a symbol, a
// date, and the clock that sees it (after the day: its whole record; in
// its session: the trades up to then).
type sweepDay struct {
	sym   string
	date  api.Date
	clock time.Time
}

func (d sweepDay) String() string { return d.sym + " " + d.date.String() }

// sweepDays are SPX and SPY on a same-day expiry Tuesday seen live at
// 11:00 and after its close, on a monthly expiry, on an early close and on
// a day of 2024; QQQ and AAPL on one; a thin name on another.
func sweepDays() []sweepDay {
	et := func(y int, mo time.Month, d, h, mi int) time.Time {
		return time.Date(y, mo, d, h, mi, 0, 0, api.Eastern)
	}
	return []sweepDay{
		{"SPX", 20261124, et(2026, 11, 24, 11, 0)},
		{"SPY", 20261124, et(2026, 11, 24, 11, 0)},
		{"SPX", 20261124, et(2026, 11, 25, 9, 0)},
		{"SPY", 20261124, et(2026, 11, 25, 9, 0)},
		{"SPX", 20261120, et(2026, 11, 21, 12, 0)},
		{"SPY", 20251128, et(2025, 11, 29, 12, 0)},
		{"SPY", 20240315, et(2026, 11, 21, 12, 0)},
		{"QQQ", 20261119, et(2026, 11, 21, 12, 0)},
		{"AAPL", 20261119, et(2026, 11, 21, 12, 0)},
		{"BLK", 20261118, et(2026, 11, 21, 12, 0)},
	}
}

// tape is a day's option trades as the sandbox serves them and as the
// tas package reads them (keyed by contract), with the simulator's own
// record of which prints are sweep pieces (part) beside them: the ground
// truth the detector is held to.
type tape struct {
	day    sweepDay
	m      *Market
	mo     Moment
	recs   []api.OptionTrade
	trades []tas.Trade
	sk     []skelTrade
}

func readTape(t *testing.T, d sweepDay) *tape {
	t.Helper()
	m := New(Config{Now: func() time.Time { return d.clock }})
	mo, err := m.Moment(api.Live, d.date)
	if err != nil {
		t.Fatal(err)
	}
	recs, ok := optionTrades(m, d.sym, mo)
	if !ok || len(recs) < 300 {
		t.Fatalf("%s: %d trades", d, len(recs))
	}
	b := mustBook(t, m, d.sym, mo.Date)
	sk, _ := m.skeleton(b)
	trades := make([]tas.Trade, len(recs))
	for i := range recs {
		trades[i] = tas.FromOptionTrade(&recs[i])
		trades[i].Key = recs[i].Security.V
	}
	return &tape{day: d, m: m, mo: mo, recs: recs, trades: trades, sk: sk.trades[:len(recs)]}
}

// TestSimulatedSweeps reads each of sweepDays whole, once, and holds its
// sweeps to the client's rule (sweepsFoundWhole), to the sandbox page's rate (docs/sandbox.md)
// (sweepRate), and, for whole SPX and SPY days, to the other two trade
// endpoints (sweepsAgreeAcrossEndpoints).
func TestSimulatedSweeps(t *testing.T) {
	for _, d := range sweepDays() {
		tp := readTape(t, d)
		sweepsFoundWhole(t, tp)
		sweepRate(t, tp)
		if (d.sym == "SPX" || d.sym == "SPY") && d.clock.Hour() != 11 {
			sweepsAgreeAcrossEndpoints(t, tp)
		}
	}
}

// sweepsFoundWhole runs the client's sweep detector (tas.InSweep, with
// config.SweepWindow) over whole simulated days and holds it to what the
// simulator made: every sweep found whole (each piece flagged, one sweep
// counted), nothing else flagged; each sweep one contract, one side at or
// through the NBBO of its moment, two or more exchanges, adjacent in
// sequence, within sweepSpread ms; its pieces, and only they, carry the
// ISO condition. A window of sweepApart - 1 ms flags exactly the same:
// no two other prints of a contract come that close.
func sweepsFoundWhole(t *testing.T, tp *tape) {
	d, recs, trades, sk := tp.day, tp.recs, tp.trades, tp.sk
	in, found, _ := tas.InSweep(trades)
	wide, foundWide, _ := tas.InSweepWithin(trades, (sweepApart-1)*time.Millisecond)
	made, bad := 0, 0
	report := func(format string, args ...any) { // the first ten disagreements say enough
		if bad++; bad <= 10 {
			t.Errorf("%s "+format, append([]any{d}, args...)...)
		}
	}
	for i := range recs {
		piece := sk[i].part > 0
		if piece != (recs[i].ConditionID == market.CondSweep) {
			report("seq %d: sweep piece %v, condition %d", recs[i].SeqNo, piece, recs[i].ConditionID)
		}
		if in[i] != piece || wide[i] != piece {
			report("seq %d (%s %s %v on %d at %v): flagged %v (%v at %d ms), a sweep piece %v",
				recs[i].SeqNo, recs[i].Security.V, recs[i].TradeAt, recs[i].Price.V, recs[i].ExchangeID,
				recs[i].Timestamp, in[i], wide[i], sweepApart-1, piece)
		}
		if sk[i].part != 1 {
			continue
		}
		j := i + 1
		for j < len(recs) && sk[j].part > 1 {
			j++
		}
		if j-i < 2 { // the clock cut it after its first piece
			continue
		}
		made++
		if err := checkSweep(recs[i:j]); err != "" {
			report("sweep at seq %d: %s", recs[i].SeqNo, err)
		}
	}
	if found != made || foundWide != made || made == 0 && len(recs) > liquidDay {
		t.Errorf("%s: the detector found %d sweeps (%d at %d ms), the simulator made %d", d, found, foundWide, sweepApart-1, made)
	}
	t.Logf("%s: %d prints, %d sweeps", d, len(recs), made)
}

// checkSweep says what is wrong with a sweep's records, "" if nothing.
func checkSweep(p []api.OptionTrade) string {
	exch := map[uint8]bool{}
	side := tas.SideOf(p[0].TradeAt)
	for k := range p {
		exch[p[k].ExchangeID] = true
		switch {
		case p[k].Security != p[0].Security:
			return "two contracts"
		case tas.SideOf(p[k].TradeAt) != side || side != tas.SideAsk && side != tas.SideBid:
			return "pieces at " + string(p[0].TradeAt) + " and " + string(p[k].TradeAt)
		case p[k].SeqNo != p[0].SeqNo+int64(k):
			return "not adjacent in sequence"
		case p[k].Timestamp-p[0].Timestamp > sweepSpread:
			return "spread over " + (p[k].Timestamp - p[0].Timestamp).String()
		case p[k].CancelFlag != api.TradeNormal:
			return "a piece canceled"
		}
	}
	if len(exch) != len(p) {
		return "two pieces on one exchange"
	}
	return ""
}

// liquidDay is the fewest prints of a day whose sweeps are counted: a thin
// name's few hundred prints hold a handful of sweeps, or none.
const liquidDay = 10_000

// sweepRate holds the share of prints in sweeps to docs/sandbox.md's figures on
// the liquid days: about 2.5 % in general (1.8 to 4 % a day) and about 9 %
// in same-day contracts struck within nearMoney of the underlying (6 to
// 14 %, on the days that list them).
func sweepRate(t *testing.T, tp *tape) {
	d, mo, recs, sk := tp.day, tp.mo, tp.recs, tp.sk
	if len(recs) < liquidDay {
		return
	}
	var all, allIn, near, nearIn int
	for i := range recs {
		if recs[i].CancelFlag != api.TradeNormal {
			continue
		}
		piece := sk[i].part > 0
		S := (recs[i].UnderlyingBid.V + recs[i].UnderlyingAsk.V) / 2
		if recs[i].Expiry == mo.Date && math.Abs(recs[i].Strike/S-1) <= nearMoney {
			near++
			if piece {
				nearIn++
			}
			continue
		}
		all++
		if piece {
			allIn++
		}
	}
	share, nearShare := float64(allIn)/float64(all), float64(nearIn)/float64(max(near, 1))
	if share < 0.018 || share > 0.04 {
		t.Errorf("%s: %.2f %% of %d prints in sweeps, want about 2.5 %%", d, 100*share, all)
	}
	if near >= 1000 && (nearShare < 0.06 || nearShare > 0.14) {
		t.Errorf("%s: %.2f %% of %d same-day prints near the money in sweeps, want about 9 %%", d, 100*nearShare, near)
	}
	t.Logf("%s: %.2f %% of %d prints in sweeps; same day near the money %.2f %% of %d", d, 100*share, all, 100*nearShare, near)
}

// sweepsAgreeAcrossEndpoints reads every sweep of whole SPX and SPY
// days through the other two trade endpoints. In trades-and-quotes each
// piece is there, at or through the NBBO it carries on the sweep's side,
// and that NBBO is the one the quote records publish for its second (where
// one falls in it). In option-trades-with-greeks, one contract at a time,
// the detector flags exactly the pieces of the contract's sweeps.
func sweepsAgreeAcrossEndpoints(t *testing.T, tp *tape) {
	d, m, mo, recs, sk := tp.day, tp.m, tp.mo, tp.recs, tp.sk
	contracts := map[string]bool{}
	sweeps, pieces, compared, bad := 0, 0, 0, 0
	for i := 0; i < len(recs) && bad < 10; i++ { // ten disagreements say enough
		if sk[i].part != 1 {
			continue
		}
		sweeps++
		j := i + 1
		for j < len(recs) && sk[j].part > 1 {
			j++
		}
		pieces += j - i
		contracts[recs[i].Security.V] = true
		n, ok := taqSweep(t, m, mo, recs[i:j])
		compared += n
		if !ok {
			bad++
		}
	}
	if compared < sweeps/4 {
		t.Errorf("%s: %d quote records shared a second with %d sweeps", d, compared, sweeps)
	}
	for osi := range contracts {
		greeks, ok := m.TradesWithGreeks(mustOSI(t, osi), mo)
		if !ok {
			t.Fatalf("%s: no trades of %s", d, osi)
		}
		trades := make([]tas.Trade, len(greeks))
		for i := range greeks {
			trades[i] = tas.FromGreeks(&greeks[i])
		}
		in, _, _ := tas.InSweep(trades)
		for i := range greeks {
			if piece := sk[greeks[i].SequenceNumber-1].part > 0; in[i] != piece {
				t.Fatalf("%s %s seq %d: flagged %v in option-trades-with-greeks, a sweep piece %v", d, osi, greeks[i].SequenceNumber, in[i], piece)
			}
		}
	}
	t.Logf("%s: %d sweeps (%d pieces) in %d contracts; %d quote records of their seconds compared", d, sweeps, pieces, len(contracts), compared)
}

// taqSweep finds a sweep's pieces in their contract's trades-and-quotes
// and checks them there: each printed at or through the NBBO it carries on
// the sweep's side, that NBBO the same as in option-trades and as every
// quote record's of its second. It returns how many quote records it
// compared with, and false (having said why) on a disagreement.
func taqSweep(t *testing.T, m *Market, mo Moment, p []api.OptionTrade) (int, bool) {
	t.Helper()
	side, osi := tas.SideOf(p[0].TradeAt), p[0].Security.V
	from := p[0].Timestamp - p[0].Timestamp%1000
	recs, ok := m.TradesAndQuotes(osi, mo, from, from+1999)
	if !ok {
		t.Errorf("%s: no trades and quotes", osi)
		return 0, false
	}
	nbbo := map[api.TimeOfDay][2]float64{} // the pieces' NBBO by second
	for k := range p {
		nbbo[p[k].Timestamp/1000] = [2]float64{p[k].Bid.V, p[k].Ask.V}
	}
	found, compared := 0, 0
	for _, r := range recs {
		if r.Kind != api.KindTrade {
			want, ok := nbbo[r.Time()/1000]
			if !ok {
				continue
			}
			if r.Quote.NBBOBid.V != want[0] || r.Quote.NBBOAsk.V != want[1] {
				t.Errorf("%s at %v: a quote record's NBBO %v/%v, the sweep's %v/%v", osi, r.Time(), r.Quote.NBBOBid.V, r.Quote.NBBOAsk.V, want[0], want[1])
				return compared, false
			}
			compared++
			continue
		}
		tr := &r.Trade
		for k := range p {
			if tr.ExchangeID != p[k].ExchangeID || tr.ExchSequenceNumber != p[k].ExchangeSeqNo {
				continue
			}
			found++
			if tas.SideOf(tas.Classify(tr.Price.V, tr.NBBOBid.V, tr.NBBOAsk.V)) != side || tr.ConditionID != market.CondSweep ||
				tr.NBBOBid.V != p[k].Bid.V || tr.NBBOAsk.V != p[k].Ask.V {
				t.Errorf("%s seq %d: in trades-and-quotes %v against %v/%v (condition %d), in option-trades %v/%v %s",
					osi, p[k].SeqNo, tr.Price.V, tr.NBBOBid.V, tr.NBBOAsk.V, tr.ConditionID, p[k].Bid.V, p[k].Ask.V, p[k].TradeAt)
				return compared, false
			}
		}
	}
	if found != len(p) {
		t.Errorf("%s: %d of the %d pieces of the sweep at seq %d are in trades-and-quotes", osi, found, len(p), p[0].SeqNo)
	}
	return compared, found == len(p)
}
