package strategy

import (
	"math"
	"testing"
	"time"

	"chainwatch/pricing"
)

// TestCurveIsPnL: the risk graph's curve, American only at curveNodes
// spots with the premium interpolated between, is the exact P&L at every
// spot to within a nickel a contract, over graphs wide enough to take
// puts (and, on a high dividend, calls) deep into early exercise, from
// weeks to an hour before expiry, where the premium bends most.
func TestCurveIsPnL(t *testing.T) {
	const perContract = 0.05 // dollars
	for _, c := range []struct {
		legs  string
		carry pricing.Carry
	}{
		{"SPY 2026-12-18 +P660 -P680 -C720 +C740 +2P700", pricing.Carry{R: 0.045, Q: 0.0115}},
		{"SPY 2026-12-18 -C680 +2C700 -C720 +P690", pricing.Carry{R: 0.03, Q: 0.09}},
	} {
		st := legsOf(t, c.legs)
		m := flat(st, 700, 0.17)
		contracts := 0
		for i := range st.Legs {
			m.Quotes[i].Mid = 3
			m.Carry = append(m.Carry, Carry{Carry: c.carry, From: testExp})
			contracts += abs(st.Legs[i].Qty)
		}
		p := st.Pricer(m, 0)
		xs := make([]float64, 200)
		for i := range xs {
			xs[i] = 560 + 280*float64(i)/199
		}
		for _, d := range []time.Time{testNow, testNow.Add(10 * 24 * time.Hour),
			testNow.Add(23*24*time.Hour + 5*time.Hour), testNow.Add(24*24*time.Hour + 5*time.Hour)} {
			curve := p.Curve(xs, d, nil)
			worst := 0.0
			for j, x := range xs {
				worst = max(worst, math.Abs(curve[j]-p.PnL(x, d)))
			}
			if worst > perContract*float64(contracts) {
				t.Errorf("%s at %s: the curve is $%.4f from the exact P&L, want within $%.2f",
					c.legs, d, worst, perContract*float64(contracts))
			}
		}
	}
}
