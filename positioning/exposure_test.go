package positioning

import (
	"math"
	"testing"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/pricing"
)

// modelSnap is a chain priced the way the service prices it: symbol's
// style (SPY American, SPX European), rate r and dividend q, a smile
// around 6000 (or 600), every contract's mid, IV and gamma the model's,
// 40 expiries' worth of open interest on three expiries.
func modelSnap(symbol string, r, q float64) *api.SymbolWithOptions {
	spot, step := 6001.5, 10.0
	if symbol == "SPY" {
		spot, step = 600.15, 1
	}
	snap := &api.SymbolWithOptions{}
	snap.Symbol, snap.LastTradePrice, snap.Timestamp = symbol, api.Some(spot), api.NewTimeOfDay(10, 0, 0, 0)
	american := pricing.AmericanStyle(symbol)
	for _, days := range []int{2, 9, 30} {
		exp := day.AddDays(days)
		// T as the chain prices it: to 09:30 for an AM-settled root
		// (SPX's), to the close otherwise, from the quotes' 10:00.
		t := market.YearsToSettle(symbol, exp, snap.Timestamp.On(day))
		for k := -20; k <= 20; k++ {
			strike := math.Round(spot/step)*step + float64(k)*step
			iv := 0.16 + 0.5*math.Pow(math.Log(strike/spot), 2) - 0.1*math.Log(strike/spot)
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				p := pricing.Params{S: spot, K: strike, T: t, R: r, Q: q, Vol: iv, Call: typ == api.Call, American: american}
				mid, g := pricing.Compute(p)
				oi := int64(1000 + 37*(k+20))
				if typ == api.Put {
					oi = int64(800 + 53*(20-k))
				}
				snap.Options = append(snap.Options, api.OptionData{Root: symbol, Expiry: exp, Strike: strike, OptionType: typ,
					Mid: api.Some(mid), IV: api.Some(iv), Gamma: api.Some(g.Gamma), OpenInterest: api.Some(oi)})
			}
		}
	}
	return snap
}

// TestCarryFromTheQuotes: each expiry's rate and dividend are the ones
// the chain was priced at.
func TestCarryFromTheQuotes(t *testing.T) {
	for _, sym := range []string{"SPX", "SPY"} {
		c := FromSnapshot(modelSnap(sym, 0.041, 0.013), day, at)
		if c.American != (sym == "SPY") {
			t.Fatalf("%s: American %v", sym, c.American)
		}
		// American quotes tell r - q well and r itself hardly at all
		// (pricing.ImpliedCarry's to settle): that is what is held here.
		for _, e := range c.Exps[1:] {
			if math.Abs(e.Carry.R-e.Carry.Q-0.028) > 2e-3 || !c.American && math.Abs(e.Carry.R-0.041) > 2e-3 {
				t.Errorf("%s %s: carry %+v (borrowed %v), want r 0.041 q 0.013", sym, e.Date, e.Carry, e.Borrowed)
			}
		}
	}
}

// TestCurveAtSpotIsTheTotal: the profile `gex --profile` prints passes
// through the displayed GEX at spot, European and American, and changes
// sign at the zero-gamma level.
func TestCurveAtSpotIsTheTotal(t *testing.T) {
	for _, sym := range []string{"SPX", "SPY"} {
		c := FromSnapshot(modelSnap(sym, 0.041, 0.013), day, at)
		sel := Range{Kind: AllExpiries}.Select(c)
		f := Compute(c, sel)
		cv := NewCurve(c, sel)
		spots, gex := cv.Profile(c.Spot, ZeroGammaGrid)
		i := 0
		for i < len(spots) && spots[i] != c.Spot {
			i++
		}
		if len(spots) != ZeroGammaGrid+1 || i == len(spots) {
			t.Fatalf("%s: %d spots, spot at %d", sym, len(spots), i)
		}
		if math.Abs(gex[i]/f.GEX-1) > 1e-3 {
			t.Errorf("%s: the curve at spot %v, GEX %v", sym, gex[i], f.GEX)
		}
		flip := cv.ZeroGamma(c.Spot, ZeroGammaGrid)
		if !math.IsNaN(flip.Level) && (cv.At(flip.Level*0.999) > 0) == (cv.At(flip.Level*1.001) > 0) {
			t.Errorf("%s: no change of sign at %v", sym, flip.Level)
		}
	}
}

// TestEstimatedGamma: a contract with open interest and no IV or gamma
// gets the model's gamma at the IV interpolated between its neighbours,
// is counted, and adds to GEX; one without open interest is not.
func TestEstimatedGamma(t *testing.T) {
	snap := modelSnap("SPX", 0.041, 0.013)
	var trueIV float64
	var lo, hi *api.OptionData
	for i := range snap.Options {
		o := &snap.Options[i]
		if o.Expiry == day.AddDays(9) && o.OptionType == api.Put {
			switch o.Strike {
			case 5950:
				trueIV = o.IV.V
			case 5940:
				lo = o
			case 5960:
				hi = o
			}
		}
		if o.Expiry == day.AddDays(9) && o.Strike == 5950 {
			o.IV, o.Gamma = api.Float{}, api.Float{}
		}
		if o.Expiry == day.AddDays(2) && o.Strike == 6100 && o.OptionType == api.Call {
			o.Gamma, o.OpenInterest = api.Float{}, api.Some(int64(0))
		}
	}
	c := FromSnapshot(snap, day, at)
	sel := Range{Kind: AllExpiries}.Select(c)
	f := Compute(c, sel)
	if f.GammaEstimated != 2 || f.GammaMissing != 0 {
		t.Fatalf("estimated %d, missing %d; want 2 (the call and put at 5950), 0", f.GammaEstimated, f.GammaMissing)
	}
	e := &c.Exps[1]
	side := e.Rows[nearestRow(e.Rows, 5950)].Put
	iv := (lo.IV.V + hi.IV.V) / 2
	_, g := pricing.Compute(c.Params(e, 5950, false, c.Spot, iv))
	if !side.Estimated || math.Abs(side.IV-iv) > 1e-12 || math.Abs(side.Gamma-g.Gamma) > 1e-12 {
		t.Fatalf("the put at 5950: %+v, want IV %v gamma %v", side, iv, g.Gamma)
	}
	// The model's gamma at the interpolated IV is close to the one the
	// service would have sent (the smile is nearly straight there).
	_, truth := pricing.Compute(c.Params(e, 5950, false, c.Spot, trueIV))
	if math.Abs(side.Gamma/truth.Gamma-1) > 0.01 {
		t.Errorf("estimated gamma %v, the model's at the true IV %v", side.Gamma, truth.Gamma)
	}
}

// TestVannaCharmByPlainLoop: the totals are every contract's
// pricing.VannaCharm x open interest x 100 x spot, calls plus, puts minus.
func TestVannaCharmByPlainLoop(t *testing.T) {
	c := FromSnapshot(modelSnap("SPY", 0.041, 0.013), day, at)
	f := Compute(c, Range{Kind: AllExpiries}.Select(c))
	var vanna, charm float64
	for i := range c.Exps {
		e := &c.Exps[i]
		for _, r := range e.Rows {
			for _, s := range []struct {
				side Side
				call bool
			}{{r.Call, true}, {r.Put, false}} {
				v, ch := pricing.VannaCharm(pricing.Params{S: c.Spot, K: r.Strike, T: e.T, R: e.Carry.R, Q: e.Carry.Q, Vol: s.side.IV, Call: s.call})
				w := float64(s.side.OI) * 100 * c.Spot
				if !s.call {
					w = -w
				}
				vanna += v * w
				charm += ch * w
			}
		}
	}
	if f.Vanna == 0 || f.Charm == 0 || !near(f.Vanna, vanna, 1e-9*math.Abs(vanna)) || !near(f.Charm, charm, 1e-9*math.Abs(charm)) {
		t.Errorf("vanna %v charm %v, a plain loop %v %v", f.Vanna, f.Charm, vanna, charm)
	}
	if !near(f.Vanna, f.CallVanna+f.PutVanna, 1e-9*math.Abs(f.Vanna)) {
		t.Errorf("vanna %v is not calls %v + puts %v", f.Vanna, f.CallVanna, f.PutVanna)
	}
}

// TestGammaWalls: the walls weighted by gamma are the strikes with the
// most call GEX at or above spot and the most put GEX at or below.
func TestGammaWalls(t *testing.T) {
	c := FromSnapshot(modelSnap("SPX", 0.041, 0.013), day, at)
	f := Compute(c, Range{Kind: AllExpiries}.Select(c))
	bestC, bestP, wc, wp := 0.0, 0.0, math.NaN(), math.NaN()
	for _, r := range f.Rows {
		if r.Strike >= c.Spot && r.CallGEX > bestC {
			wc, bestC = r.Strike, r.CallGEX
		}
		if r.Strike <= c.Spot && -r.PutGEX >= bestP {
			wp, bestP = r.Strike, -r.PutGEX
		}
	}
	if f.GammaCallWall != wc || f.GammaPutWall != wp || math.IsNaN(wc) || math.IsNaN(wp) {
		t.Errorf("gamma walls %v / %v, want %v / %v", f.GammaCallWall, f.GammaPutWall, wc, wp)
	}
}

// TestFromLeavesOutSettledExpiries: From drops the expiries before the
// first live day and keeps the rest as they were.
func TestFromLeavesOutSettledExpiries(t *testing.T) {
	c := FromSnapshot(modelSnap("SPY", 0.041, 0.013), day, at)
	n, second := len(c.Exps), c.Exps[1]
	c.From(c.Exps[0].Date.AddDays(1))
	if len(c.Exps) != n-1 || c.Exps[0].Date != second.Date || c.Exps[0].Carry != second.Carry {
		t.Errorf("after From: %d expiries, the first %v, want %d from %v", len(c.Exps), c.Exps[0].Date, n-1, second.Date)
	}
}
