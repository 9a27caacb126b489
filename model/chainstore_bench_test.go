package model

import (
	"math/rand/v2"
	"testing"

	"chainwatch/api"
)

// synthDay is the first expiry of the synthetic chains: Friday 2026-11-20,
// the day the sandbox tests run on.
var synthDay = api.NewDate(2026, 11, 20)

// synthChain builds a chain of nExp expiries (one a day from synthDay) of
// nStrikes strikes (1.00 apart from 500) with a call and a put each, in
// the service's order (expiry, strike, type). tick shifts every price so
// that two ticks differ in every quote cell, as a busy market does; about
// one bid in twenty is null, like the service's payloads.
func synthChain(nExp, nStrikes, tick int) *api.SymbolWithOptions {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &api.SymbolWithOptions{}
	s.Symbol = "SPY"
	s.LastTradePrice = api.Some(600.37 + float64(tick)*0.01)
	s.ImpliedUnderlyingBid, s.ImpliedUnderlyingAsk, s.ImpliedUnderlyingMid = api.Some(600.30), api.Some(600.40), api.Some(600.35)
	s.Options = make([]api.OptionData, 0, nExp*nStrikes*2)
	for e := range nExp {
		exp := synthDay.AddDays(e)
		for k := range nStrikes {
			strike := 500 + float64(k)
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				osi, err := api.FormatOSI("SPY", exp, typ, strike)
				if err != nil {
					panic(err)
				}
				px := 1 + float64((k*7+e*3)%200)/10 + float64(tick)*0.01
				o := api.OptionData{
					Root: "SPY", Expiry: exp, Strike: strike, OptionType: typ, Option: osi,
					Bid: api.Some(px), Ask: api.Some(px + 0.05), Mid: api.Some(px + 0.025),
					BidSize: api.Some(int64(10 + tick%7)), AskSize: api.Some(int64(12 + k%5)),
					LastTradePrice: api.Some(px + 0.01), Volume: api.Some(int64(100 + tick)), OpenInterest: api.Some(int64(1000 + k)),
					IV: api.Some(0.2 + float64(tick%3)*0.001), Delta: api.Some(0.5), Gamma: api.Some(0.01), Theta: api.Some(-0.05),
					Vega: api.Some(0.1), Rho: api.Some(0.02), TradeCount: api.Some(int64(tick)),
				}
				if rng.IntN(20) == 0 {
					o.Bid = api.Float{}
				}
				s.Options = append(s.Options, o)
			}
		}
	}
	return s
}

// BenchmarkApplySnapshot20000 applies a new 20,000-contract snapshot onto a
// store that holds the previous one, flashes included: the budget is 10 ms.
func BenchmarkApplySnapshot20000(b *testing.B) {
	snaps := [2]*api.SymbolWithOptions{synthChain(40, 250, 1), synthChain(40, 250, 2)}
	var st chainStore
	st.applyFull(snaps[0], 1)
	st.applyFull(snaps[1], 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyFull(snaps[i%2], int64(i+3))
	}
}

// BenchmarkApplySnapshot20000Rebuild is the slow path for comparison: each
// snapshot lists one more strike per expiry than the store holds (new
// strikes listed), so every apply regroups the chain, still diffing
// against the old cells.
func BenchmarkApplySnapshot20000Rebuild(b *testing.B) {
	snaps := [2]*api.SymbolWithOptions{synthChain(40, 250, 1), synthChain(40, 249, 2)}
	var st chainStore
	st.applyFull(snaps[0], 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyFull(snaps[(i+1)%2], int64(i+2))
	}
}

// BenchmarkApplyExpiry polls one expiry of 500 contracts, as the screen
// does between whole chains.
func BenchmarkApplyExpiry(b *testing.B) {
	full := synthChain(40, 250, 1)
	one := [2]*api.SymbolWithOptions{synthChain(1, 250, 2), synthChain(1, 250, 3)}
	var st chainStore
	st.applyFull(full, 1)
	st.applyExpiry(synthDay, one[0], 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		st.applyExpiry(synthDay, one[i%2], int64(i+3))
	}
}
