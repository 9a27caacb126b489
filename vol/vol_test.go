package vol

import (
	"math"
	"testing"

	"chainwatch/api"
)

// handChain is the hand-computed case of the tests: five strikes 90..110
// around a spot of 101, the ATM (100) straddle 3.00/3.20 and 2.00/2.20.
//
//	strike  call Δ  call IV  put Δ  put IV  call vol  put vol  call OI  put OI
//	  90     0.90    0.26    -0.10   0.28      10       50       100     600
//	  95     0.75    0.23    -0.20   0.25      20       40       200     500
//	 100     0.55    0.20    -0.45   0.22      30       30       300     400
//	 105     0.30    0.18    -0.70   0.21      40       20       400     300
//	 110     0.15    0.17    -0.85   0.20    null       10       500     200
func handChain() []Row {
	q := func(bid, ask, iv, delta float64, vol, oi int64) Quote {
		return Quote{Bid: bid, Ask: ask, Mid: math.NaN(), IV: iv, Delta: delta, Volume: vol, OI: oi}
	}
	return []Row{
		{90, q(11, 11.4, 0.26, 0.90, 10, 100), q(0.10, 0.15, 0.28, -0.10, 50, 600)},
		{95, q(6.5, 6.8, 0.23, 0.75, 20, 200), q(0.60, 0.70, 0.25, -0.20, 40, 500)},
		{100, q(3.00, 3.20, 0.20, 0.55, 30, 300), q(2.00, 2.20, 0.22, -0.45, 30, 400)},
		{105, q(1.00, 1.10, 0.18, 0.30, 40, 400), q(4.9, 5.2, 0.21, -0.70, 20, 300)},
		{110, q(0.30, 0.35, 0.17, 0.15, -1, 500), q(9.2, 9.6, 0.20, -0.85, 10, 200)},
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN (a dash)", what, got)
		}
		return
	}
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.10f, want %.10f", what, got, want)
	}
}

// TestFiguresByHand: every figure of the hand-computed chain.
func TestFiguresByHand(t *testing.T) {
	e := Expiry{Date: api.NewDate(2026, 12, 18), DTE: 28, Rows: handChain()}
	f := Compute(&e, 101)
	near(t, "ATM strike", f.ATMStrike, 100)
	// ATM IV: (0.20 + 0.22) / 2; move: the straddle's mid, 3.10 + 2.10.
	near(t, "ATM IV", f.ATMIV, 0.21)
	near(t, "move", f.Move, 5.20)
	near(t, "move %", f.MovePct, 5.20/101)
	// 25-delta call between 105 (0.30, 0.18) and 110 (0.15, 0.17):
	// a third of the way, 0.18 - 0.01/3.
	near(t, "call 25d IV", f.Call25, 0.18-0.01/3)
	// 25-delta put between 100 (-0.45, 0.22) and 95 (-0.20, 0.25):
	// 0.20 / 0.25 = 80 % of the way, 0.22 + 0.8 * 0.03 = 0.244.
	near(t, "put 25d IV", f.Put25, 0.244)
	near(t, "RR25", f.RR25, 0.18-0.01/3-0.244)
	near(t, "BF25", f.BF25, (0.18-0.01/3+0.244)/2-0.21)
	// Volume: puts 150 over calls 100 (the null call volume is skipped);
	// OI: puts 2000 over calls 1500.
	if f.CallVolume != 100 || f.PutVolume != 150 || f.CallOI != 1500 || f.PutOI != 2000 {
		t.Errorf("sums: %+v", f)
	}
	near(t, "P/C volume", f.PCVolume, 1.5)
	near(t, "P/C OI", f.PCOI, 2000.0/1500)
	if f.Date != e.Date || f.DTE != 28 {
		t.Errorf("date %v dte %d", f.Date, f.DTE)
	}
}

// TestStraddleUsesTheServiceMid: a mid the service sent is the one the
// ladder shows, so the move is made from it.
func TestStraddleUsesTheServiceMid(t *testing.T) {
	rows := handChain()
	rows[2].Call.Mid, rows[2].Put.Mid = 3.15, 2.05
	_, _, move := ATM(rows, 101)
	near(t, "move", move, 5.20)
	rows[2].Call.Mid = 3.25
	_, _, move = ATM(rows, 101)
	near(t, "move", move, 5.30)
}

// TestNoTwoSidedATMMarket: a zero bid or a missing ask on the ATM call or
// put is no market: ATM IV, move and butterfly are dashes; the risk
// reversal, which does not use the ATM, is still a number.
func TestNoTwoSidedATMMarket(t *testing.T) {
	for name, spoil := range map[string]func(*Row){
		"zero put bid":    func(r *Row) { r.Put.Bid = 0 },
		"no call ask":     func(r *Row) { r.Call.Ask = math.NaN() },
		"crossed call":    func(r *Row) { r.Call.Bid, r.Call.Ask = 3.3, 3.2 },
		"put not listed":  func(r *Row) { r.Put = Null },
		"call bid is nil": func(r *Row) { r.Call.Bid = math.NaN() },
	} {
		t.Run(name, func(t *testing.T) {
			rows := handChain()
			spoil(&rows[2])
			f := Compute(&Expiry{Rows: rows}, 101)
			near(t, "ATM strike", f.ATMStrike, 100)
			near(t, "ATM IV", f.ATMIV, math.NaN())
			near(t, "move", f.Move, math.NaN())
			near(t, "move %", f.MovePct, math.NaN())
			near(t, "BF25", f.BF25, math.NaN())
			if math.IsNaN(f.RR25) {
				t.Error("RR25 needs no ATM market")
			}
		})
	}
}

// TestATMNearestStrike: the ATM is the strike nearest spot, a tie going
// to the lower strike as the ladder's cursor does; one IV alone is the
// ATM IV when the other side has none.
func TestATMNearestStrike(t *testing.T) {
	rows := handChain()
	for _, c := range []struct{ spot, want float64 }{{102.5, 100}, {102.6, 105}, {80, 90}, {500, 110}, {97.5, 95}} {
		k, _, _ := ATM(rows, c.spot)
		near(t, "ATM strike", k, c.want)
	}
	k, iv, move := ATM(nil, 100)
	near(t, "no rows strike", k, math.NaN())
	near(t, "no rows iv", iv, math.NaN())
	near(t, "no rows move", move, math.NaN())
	k, _, _ = ATM(rows, math.NaN())
	near(t, "no spot", k, math.NaN())

	rows[2].Put.IV = math.NaN()
	_, iv, _ = ATM(rows, 101)
	near(t, "call IV alone", iv, 0.20)
	rows[2].Call.IV = 0
	_, iv, _ = ATM(rows, 101)
	near(t, "no IV", iv, math.NaN())
}

// TestWingIV: an exact delta is read as it is; strikes without a delta
// or an IV are stepped over; no bracket is a dash.
func TestWingIV(t *testing.T) {
	rows := handChain()
	rows[3].Call.Delta = 0.25
	near(t, "exact", WingIV(rows, 0.25), 0.18)

	rows = handChain()
	rows[3].Call.IV = math.NaN() // 105 has no IV: bracket 100 (0.55) .. 110 (0.15)
	near(t, "stepped over", WingIV(rows, 0.25), 0.20+(0.25-0.55)/(0.15-0.55)*(0.17-0.20))

	rows = handChain()
	rows[1].Put.Delta = math.NaN() // 95 has no delta: bracket 100 (-0.45) .. 90 (-0.10)
	near(t, "put stepped over", WingIV(rows, -0.25), 0.22+(-0.25+0.45)/(-0.10+0.45)*(0.28-0.22))

	near(t, "no bracket", WingIV(rows[:3], 0.25), math.NaN())
	near(t, "no rows", WingIV(nil, -0.25), math.NaN())
}

// TestRatiosWithoutCalls: no call volume is no ratio (a dash), and a side
// with no counts at all is unknown, not zero.
func TestRatiosWithoutCalls(t *testing.T) {
	rows := handChain()
	for i := range rows {
		rows[i].Call.Volume = 0
		rows[i].Put.OI = -1
	}
	f := Compute(&Expiry{Rows: rows}, 101)
	near(t, "P/C volume", f.PCVolume, math.NaN())
	near(t, "P/C OI", f.PCOI, math.NaN())
	if f.CallVolume != 0 || f.PutOI != -1 {
		t.Errorf("call volume %d, put OI %d", f.CallVolume, f.PutOI)
	}
}

// TestFromChain groups a snapshot as the ladder does: by expiry and
// strike, in order whatever order it came in, settled expiries left out,
// the root named like the underlying winning a contract two roots list.
func TestFromChain(t *testing.T) {
	day := api.NewDate(2026, 11, 20)
	opt := func(root string, exp api.Date, k float64, typ api.OptionType, iv float64) api.OptionData {
		return api.OptionData{Root: root, Expiry: exp, Strike: k, OptionType: typ, IV: api.Some(iv),
			Bid: api.Some(1.0), Ask: api.Some(1.1), Volume: api.Some(int64(5))}
	}
	d1, d2 := day, day.AddDays(28)
	snap := &api.SymbolWithOptions{Options: []api.OptionData{
		opt("SPXW", d2, 6000, api.Call, 0.30),
		opt("SPX", d2, 6000, api.Call, 0.15),
		opt("SPX", d2, 5900, api.Put, 0.16),
		opt("SPX", day.AddDays(-1), 6000, api.Call, 0.9), // settled yesterday
		opt("SPXW", d1, 6000, api.Put, 0.12),
		opt("SPXW", d1, 6000, "X", 0.12), // no such type
	}}
	snap.Symbol = "SPX"
	snap.LastTradePrice = api.Some(5990.5)
	snap.IV30, snap.IV30Change = api.Some(18.5), api.Some(-0.7)
	s := FromChain(snap, day)
	if len(s.Exps) != 2 || s.Exps[0].Date != d1 || s.Exps[1].Date != d2 || s.Exps[0].DTE != 0 || s.Exps[1].DTE != 28 {
		t.Fatalf("expiries %+v", s.Exps)
	}
	e := s.Exps[1]
	if len(e.Rows) != 2 || e.Rows[0].Strike != 5900 || e.Rows[1].Strike != 6000 {
		t.Fatalf("rows %+v", e.Rows)
	}
	near(t, "SPX wins", e.Rows[1].Call.IV, 0.15)
	near(t, "unlisted put", e.Rows[1].Put.IV, math.NaN())
	if e.Rows[1].Put.Volume != -1 || e.Rows[0].Put.Volume != 5 {
		t.Errorf("volumes %+v", e.Rows)
	}
	near(t, "spot", s.Spot, 5990.5)
	near(t, "IV30 prev close", s.IV30.Prev(), 19.2)
	if s.Find(d2) != 1 || s.Find(day.AddDays(3)) != -1 {
		t.Error("Find")
	}
}

// TestSmileWindow spans four moves either side of spot, at least five
// strikes, and takes in the cursor.
func TestSmileWindow(t *testing.T) {
	rows := make([]Row, 41) // 80 .. 120 by 1
	for i := range rows {
		rows[i] = Row{Strike: 80 + float64(i), Call: Null, Put: Null}
	}
	check := func(name string, spot, move, keep float64, lo, hi float64) {
		t.Helper()
		a, b := SmileWindow(rows, spot, move, keep)
		if rows[a].Strike != lo || rows[b-1].Strike != hi {
			t.Errorf("%s: %v..%v, want %v..%v", name, rows[a].Strike, rows[b-1].Strike, lo, hi)
		}
	}
	check("four moves", 100, 2, math.NaN(), 92, 108)
	check("no move: 10 %", 100, math.NaN(), math.NaN(), 90, 110)
	check("cursor beyond", 100, 2, 115, 92, 115)
	check("tiny move: five strikes", 100, 0.1, math.NaN(), 98, 102)
	check("spot past the chain", 200, 2, math.NaN(), 116, 120)
	if a, b := SmileWindow(rows, math.NaN(), 1, math.NaN()); a != 0 || b != len(rows) {
		t.Errorf("no spot: %d..%d", a, b)
	}
}

// TestOTM merges the smile on the side the market trades: puts below
// spot, calls at and above, the other side where one has no IV.
func TestOTM(t *testing.T) {
	rows := handChain()
	iv, put := OTM(&rows[1], 101)
	if iv != 0.25 || !put {
		t.Errorf("95 below spot: %v put=%v", iv, put)
	}
	iv, put = OTM(&rows[3], 101)
	if iv != 0.18 || put {
		t.Errorf("105 above spot: %v put=%v", iv, put)
	}
	rows[3].Call.IV = math.NaN()
	iv, put = OTM(&rows[3], 101)
	if iv != 0.21 || !put {
		t.Errorf("105 without a call IV: %v put=%v", iv, put)
	}
	rows[3].Put.IV = 0
	if iv, _ = OTM(&rows[3], 101); !math.IsNaN(iv) {
		t.Errorf("no IV: %v", iv)
	}
}
