package modeltest

import (
	"math/rand/v2"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/sandbox"
	"chainwatch/theme"
)

// Common is what a part is handed, on the dark theme with colour and the
// default keys, its clock stopped at now and no client: for tests that
// feed a part its replies by hand.
func Common(now time.Time) *common.Common {
	return &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Prompt: keymap.Prompt(),
		Now: func() time.Time { return now }, Flash: config.FlashFor}
}

// SynthDay is the first expiry of the synthetic chains: Friday 2026-11-20,
// the day the sandbox tests run on.
var SynthDay = api.NewDate(2026, 11, 20)

// SynthChain builds a chain of nExp expiries (one a day from SynthDay) of
// nStrikes strikes (1.00 apart from 500) with a call and a put each, in
// the service's order (expiry, strike, type). tick shifts every price so
// that two ticks differ in every quote cell, as a busy market does; about
// one bid in twenty is null, like the service's payloads.
func SynthChain(nExp, nStrikes, tick int) *api.SymbolWithOptions {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &api.SymbolWithOptions{}
	s.Symbol = "SPY"
	s.LastTradePrice = api.Some(600.37 + float64(tick)*0.01)
	s.ImpliedUnderlyingBid, s.ImpliedUnderlyingAsk, s.ImpliedUnderlyingMid = api.Some(600.30), api.Some(600.40), api.Some(600.35)
	s.Options = make([]api.OptionData, 0, nExp*nStrikes*2)
	for e := range nExp {
		exp := SynthDay.AddDays(e)
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

// synthTrades returns n trades with seq_no from first on, alternating
// call and put on strikes 595..604 of SynthDay, sizes 1..200; every
// twentieth has no OSI symbol (the service may send null).
func SynthTrades(first int64, n int) []api.OptionTrade {
	out := make([]api.OptionTrade, n)
	for i := range out {
		seq := first + int64(i)
		typ := api.Call
		if seq%2 == 1 {
			typ = api.Put
		}
		strike := 595 + float64(seq%10)
		tr := api.OptionTrade{
			Root: "SPY", Expiry: SynthDay, Strike: strike, OptionType: typ,
			Price: api.Some(1.25), Size: 1 + seq%200, TradeAt: api.OnAsk,
			Bid: api.Some(1.20), Ask: api.Some(1.25), Timestamp: api.NewTimeOfDay(11, 0, 0, int(seq%1000)),
			ExchangeID: uint8(seq % 20), SeqNo: seq,
		}
		if seq%20 != 0 {
			osi, _ := api.FormatOSI("SPY", SynthDay, typ, strike)
			tr.Security = api.Some(osi)
		}
		out[i] = tr
	}
	return out
}

// SandboxCommon is Common at Now with a client of a fresh in-process
// sandbox (StartSandbox): a part that fetches for real.
func SandboxCommon(t testing.TB) *common.Common {
	c := Common(Now)
	c.Client = StartSandbox(t, sandbox.Config{})
	return c
}
