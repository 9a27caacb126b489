package strategy

import (
	"testing"
	"time"

	"chainwatch/market"
)

// BenchmarkRiskCurves is the risk graph's figures for a 4-leg strategy:
// 200 spots at 3 dates (today, a chosen day, expiry), with the analysis
// (max profit and loss, breakevens, probability) the page shows beside.
func BenchmarkRiskCurves(b *testing.B) {
	st, err := Parse("SPY 2026-12-18 +P90 -P95 -C105 +C110")
	if err != nil {
		b.Fatal(err)
	}
	m := flat(st, 100, 0.2)
	for i := range m.Quotes {
		m.Quotes[i].Mid = 1.5
	}
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 80 + 40*float64(i)/200
	}
	dates := []time.Time{testNow, testNow.Add(10 * 24 * time.Hour), market.ExpiryTime(testExp)}
	var out []float64
	b.ReportAllocs()
	for b.Loop() {
		_ = st.Analyze(m)
		p := st.Pricer(m, 0)
		for _, d := range dates {
			out = p.Curve(xs, d, out)
		}
	}
}
