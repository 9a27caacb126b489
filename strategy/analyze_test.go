package strategy

import (
	"chainwatch/pricing"
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

var (
	testExp = api.NewDate(2026, 12, 18)
	testNow = time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)
)

// legsOf parses s and fails the test on an error.
func legsOf(t *testing.T, s string) Strategy {
	t.Helper()
	st, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// flat is a market where every leg has IV iv and no quote (the fills
// written in the legs are the entries).
func flat(st Strategy, spot, iv float64) *Market {
	m := &Market{Spot: spot, Now: testNow}
	for range st.Legs {
		q := NoQuote
		q.IV = iv
		m.Quotes = append(m.Quotes, q)
	}
	return m
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.IsInf(want, 0) && got == want || math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want)) {
		return
	}
	t.Errorf("%s = %v, want %v", what, got, want)
}

func TestClosedForms(t *testing.T) {
	for _, c := range []struct {
		name, legs         string
		maxProfit, maxLoss float64
		breakevens         []float64
	}{
		// A call vertical: max profit is the width less the debit, max
		// loss the debit, breakeven the long strike plus the debit.
		{"vertical", "SPY 2026-12-18 +C100@5 -C110@2", (10 - 3) * 100, -3 * 100, []float64{103}},
		// A straddle: breakevens at the strike less and plus the debit.
		{"straddle", "SPY 2026-12-18 +C100@4 +P100@3", math.Inf(1), -7 * 100, []float64{93, 107}},
		// An iron condor: max profit the credit, max loss the wider wing less the credit.
		{"iron condor", "SPY 2026-12-18 +P90@1 -P95@2 -C105@2 +C110@1", 2 * 100, -(5 - 2) * 100, []float64{93, 107}},
		// A covered call: stock plus the premium up to the strike; the
		// loss is bounded by the stock going to zero.
		{"covered call", "SPY +100xSPY@100 2026-12-18 -C105@2", (105 - 100 + 2) * 100, -(100 - 2) * 100, []float64{98}},
		// A butterfly: max profit at the body.
		{"butterfly", "SPY 2026-12-18 +C95@7 -2C100@4 +C105@2", (5 - 1) * 100, -1 * 100, []float64{96, 104}},
		// A short put: the premium, the strike less it.
		{"short put", "SPY 2026-12-18 -P100@3", 300, -(100 - 3) * 100, []float64{97}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := legsOf(t, c.legs)
			f := st.Analyze(flat(st, 100, 0.2))
			near(t, "max profit", f.MaxProfit, c.maxProfit)
			near(t, "max loss", f.MaxLoss, c.maxLoss)
			if len(f.Breakevens) != len(c.breakevens) {
				t.Fatalf("breakevens %v, want %v", f.Breakevens, c.breakevens)
			}
			for i := range c.breakevens {
				near(t, "breakeven", f.Breakevens[i], c.breakevens[i])
			}
		})
	}
}

// TestExpiryByLoop checks the P&L at expiry against a plain loop over the
// legs' payoffs, and that it is straight between the strikes: its second
// difference is zero except on a strike.
func TestExpiryByLoop(t *testing.T) {
	st := legsOf(t, "SPY 2026-12-18 +P90@1 -P95@2 -C105@2 +C110@1")
	m := flat(st, 100, 0.2)
	p := st.Pricer(m, 0)
	at := market.ExpiryTime(testExp)
	var xs []float64
	for x := 80.0; x <= 120; x += 0.5 {
		xs = append(xs, x)
	}
	curve := p.Curve(xs, at, nil)
	for j, x := range xs {
		want := 0.0
		want += 100 * (math.Max(90-x, 0) - 1)
		want -= 100 * (math.Max(95-x, 0) - 2)
		want -= 100 * (math.Max(x-105, 0) - 2)
		want += 100 * (math.Max(x-110, 0) - 1)
		near(t, "P&L", curve[j], want)
	}
	strikes := map[float64]bool{90: true, 95: true, 105: true, 110: true}
	for j := 1; j+1 < len(xs); j++ {
		d2 := curve[j+1] - 2*curve[j] + curve[j-1]
		if kink := math.Abs(d2) > 1e-9; kink != strikes[xs[j]] {
			t.Errorf("at %v: second difference %v, kink %v, a strike %v", xs[j], d2, kink, strikes[xs[j]])
		}
	}
}

// TestNetGreeks: the net greeks are the sum of the legs' times quantity
// and multiplier, the dollar forms from spot.
func TestNetGreeks(t *testing.T) {
	st := legsOf(t, "SPY 2026-12-18 +2C100 -3P95 +50xSPY")
	m := &Market{Spot: 100, Now: testNow, Quotes: []Quote{
		{Bid: 3, Ask: 3.2, Mid: 3.1, IV: 0.2, Greeks: pricing.Greeks{Delta: 0.5, Gamma: 0.04, Theta: -0.05, Vega: 0.11}, HasGreeks: true},
		{Bid: 1, Ask: 1.1, Mid: math.NaN(), IV: 0.22, Greeks: pricing.Greeks{Delta: -0.3, Gamma: 0.03, Theta: -0.04, Vega: 0.09}, HasGreeks: true},
		{Bid: 99.99, Ask: 100.01, Mid: 100, IV: math.NaN()},
	}}
	f := st.Analyze(m)
	near(t, "delta", f.Delta, 2*100*0.5+(-3)*100*(-0.3)+50)
	near(t, "gamma", f.Gamma, 2*100*0.04+(-3)*100*0.03)
	near(t, "theta", f.Theta, 2*100*(-0.05)+(-3)*100*(-0.04))
	near(t, "vega", f.Vega, 2*100*0.11+(-3)*100*0.09)
	near(t, "dollar delta", f.DollarDelta, f.Delta*100)
	near(t, "dollar gamma", f.DollarGamma, f.Gamma*100*100/100)
	near(t, "net mid", f.NetMid, 2*100*3.1-3*100*1.05+50*100)
	near(t, "natural", f.NetNatural, 2*100*3.2-3*100*1+50*100.01)
}

// TestPoPLongCall: a long call is profitable above its breakeven, so its
// probability is the lognormal's above it: N(d2) at the breakeven.
func TestPoPLongCall(t *testing.T) {
	st := legsOf(t, "SPY 2026-12-18 +C100@2.5")
	m := flat(st, 100, 0.25)
	f := st.Analyze(m)
	T := YearsTo(testNow, testExp)
	be := 102.5
	d2 := (math.Log(100/be) + (0.04-0.25*0.25/2)*T) / (0.25 * math.Sqrt(T))
	near(t, "PoP", f.PoP, pricing.NormCDF(d2))
	near(t, "move", f.Move, 100*0.25*math.Sqrt(T))
}

// TestCalendar: a calendar's P&L at the near expiry is the far leg's BSM
// value less the near leg's payoff; its loss is bounded by the debit.
func TestCalendar(t *testing.T) {
	st := legsOf(t, "SPY 2026-12-18 -C100@2 2027-01-15 +C100@4")
	f := st.Analyze(flat(st, 100, 0.2))
	if f.Expiry != testExp || len(f.Breakevens) != 2 {
		t.Fatalf("expiry %v breakevens %v", f.Expiry, f.Breakevens)
	}
	near(t, "max loss", f.MaxLoss, -200)
	if !(f.MaxProfit > 0 && f.MaxProfit < 1000) {
		t.Errorf("max profit %v", f.MaxProfit)
	}
	if !(f.Breakevens[0] < 100 && f.Breakevens[1] > 100) {
		t.Errorf("breakevens %v", f.Breakevens)
	}
}

func TestMark(t *testing.T) {
	st := legsOf(t, "SPY 2026-12-18 +C100@5 -C110@2")
	m := &Market{Spot: 100, Now: testNow, Quotes: []Quote{
		{Bid: 5.9, Ask: 6.1, Mid: 6, PrevClose: 5.5}, {Bid: 2.4, Ask: 2.6, Mid: math.NaN(), PrevClose: 2.2},
	}}
	v, open, today, ok := st.Mark(m, false)
	if !ok {
		t.Fatal("no mark")
	}
	near(t, "value", v, 100*6-100*2.5)
	near(t, "since open", open, 100*(6-5)-100*(2.5-2))
	near(t, "today", today, 100*(6-5.5)-100*(2.5-2.2))
	_, _, today, _ = st.Mark(m, true)
	near(t, "today (opened today)", today, open)
}
