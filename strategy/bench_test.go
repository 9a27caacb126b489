package strategy

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/pricing"
)

// BenchmarkRiskCurves is the strategy page's reprice of a 4-leg American
// position (an SPY iron condor, puts in reach of early exercise) over
// the risk graph: 200 spots at 3 dates (today, a chosen day, expiry),
// with the analysis (max profit and loss, breakevens, probability) the
// page shows beside.
func BenchmarkRiskCurves(b *testing.B) {
	st, err := Parse("SPY 2026-12-18 +P660 -P680 -C720 +C740")
	if err != nil {
		b.Fatal(err)
	}
	m := flat(st, 700, 0.17)
	for i := range m.Quotes {
		m.Quotes[i].Mid = 3
		m.Carry = append(m.Carry, Carry{Carry: pricing.Carry{R: 0.038, Q: 0.0115}, From: testExp})
	}
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 620 + 160*float64(i)/200
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

// BenchmarkStrategyPage is what the strategy page does with each new mark
// of a 4-leg American position: find the legs and solve their series'
// carry in the chain (MarketOf), then the figures and the risk graph's
// three curves of 200 spots, as BenchmarkRiskCurves. The chain is one
// expiry of an SPY-like underlying, priced by the model at a known carry.
func BenchmarkStrategyPage(b *testing.B) {
	st, err := Parse("SPY 2026-12-18 +P660 -P680 -C720 +C740")
	if err != nil {
		b.Fatal(err)
	}
	ch := modelChain(700, testExp, pricing.Carry{R: 0.038, Q: 0.0115})
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 620 + 160*float64(i)/200
	}
	dates := []time.Time{testNow, testNow.Add(10 * 24 * time.Hour), market.ExpiryTime(testExp)}
	var out []float64
	b.ReportAllocs()
	for b.Loop() {
		m, err := MarketOf(&st, ch, testNow)
		if err != nil {
			b.Fatal(err)
		}
		_ = st.Analyze(&m)
		p := st.Pricer(&m, 0)
		for _, d := range dates {
			out = p.Curve(xs, d, out)
		}
	}
}

// modelChain is one American expiry of SPY at spot s, strikes 600 to
// 800, each contract's mid the model's at a skewed IV and carry c, as
// the service publishes them.
func modelChain(s float64, exp api.Date, c pricing.Carry) *api.SymbolWithOptions {
	ch := &api.SymbolWithOptions{Underlying: api.Underlying{Symbol: "SPY", Mid: api.Some(s)}}
	T := market.YearsToSettle("SPY", exp, testNow)
	for k := 600.0; k <= 800; k++ {
		vol := 0.17 - 0.3*math.Log(k/s)
		for _, typ := range []api.OptionType{api.Call, api.Put} {
			mid := pricing.Price(pricing.Params{S: s, K: k, T: T, R: c.R, Q: c.Q, Vol: vol, Call: typ == api.Call, American: true})
			osi, _ := api.FormatOSI("SPY", exp, typ, k)
			ch.Options = append(ch.Options, api.OptionData{Root: "SPY", Expiry: exp, Strike: k, OptionType: typ, Option: osi,
				Mid: api.Some(mid), IV: api.Some(vol)})
		}
	}
	return ch
}
