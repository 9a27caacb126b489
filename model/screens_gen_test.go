package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/vol"
)

// A data state drawn at random for the screens test (screens_test.go):
// when it is, what the service answered, and how badly. Each field of a
// reply is null, ordinary or wild (huge, negative, zero) by the state's
// odds, so one state may be a clean open market and the next a holiday
// whose every figure is null.

// session is a moment the screen can be looked at.
type session struct {
	name string
	now  time.Time
	date api.Date // the query's day: 0 today, else a past day
	zero bool     // the first expiry is today and its greeks are null (0DTE at the bell)
}

func eastern(y int, m time.Month, d, h, min, s int) time.Time {
	return time.Date(y, m, d, h, min, s, 0, api.Eastern)
}

// sessions are the moments drawn from: Tuesday 2026-11-24 open, before
// the open and after the close; the early close the day after
// Thanksgiving, before and after 13:00; Thanksgiving itself; a Saturday;
// a past day asked on an open market; 0DTE thirty seconds before the
// close.
var sessions = []session{
	{name: "open", now: eastern(2026, 11, 24, 10, 0, 0)},
	{name: "pre-market", now: eastern(2026, 11, 24, 8, 0, 0)},
	{name: "closed", now: eastern(2026, 11, 24, 17, 30, 0)},
	{name: "early-close", now: eastern(2026, 11, 27, 12, 59, 30), zero: true},
	{name: "after-early-close", now: eastern(2026, 11, 27, 14, 0, 0)},
	{name: "holiday", now: eastern(2026, 11, 26, 11, 0, 0)},
	{name: "weekend", now: eastern(2026, 11, 28, 12, 0, 0)},
	{name: "past-day", now: eastern(2026, 11, 24, 10, 0, 0), date: api.NewDate(2026, 11, 18)},
	{name: "0dte-15:59:30", now: eastern(2026, 11, 24, 15, 59, 30), zero: true},
}

// gen draws values at a state's odds.
type gen struct {
	r     *rand.Rand
	nullP float64 // how often a nullable field is null
	wildP float64 // how often a number is wild
}

// wild is a number no sane quote has, but a broken feed might send.
func (g *gen) wild() float64 {
	return [...]float64{0, -1, -123456.78, 1e9, 1e15, 1e300, -1e300, 1e-9, 99999999.99, math.MaxInt64}[g.r.IntN(10)]
}

// f is base, jittered, null or wild.
func (g *gen) f(base float64) api.Float {
	switch x := g.r.Float64(); {
	case x < g.nullP:
		return api.Float{}
	case x < g.nullP+g.wildP:
		return api.Some(g.wild())
	}
	return api.Some(base * (0.9 + 0.2*g.r.Float64()))
}

// i is an integer near base, null or wild.
func (g *gen) i(base int64) api.Int {
	switch x := g.r.Float64(); {
	case x < g.nullP:
		return api.Int{}
	case x < g.nullP+g.wildP:
		return api.Some([...]int64{0, -1, math.MaxInt64, math.MinInt64, 1e12}[g.r.IntN(5)])
	}
	return api.Some(base + g.r.Int64N(base+1))
}

// pick is one of xs.
func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// symbols the screens are asked for: the usual, a root that differs from
// the symbol, the longest a prompt takes, and ones no exchange lists.
func (g *gen) symbol() string {
	return pick(g, "SPY", "SPX", "BRK.B", "ABCDEFGHIJ", "QQQ", "X", "VERYLONGSYMBOLNAME", "ÅÉÎ", "A\x1b[31mB")
}

// underlying is the underlying's quote around spot.
func (g *gen) underlying(sym string, spot float64) api.Underlying {
	u := api.Underlying{Symbol: sym, Timestamp: pick(g, api.NewTimeOfDay(10, 0, 0, 0), -1, api.NewTimeOfDay(15, 59, 30, 0))}
	u.ImpliedUnderlyingBid, u.ImpliedUnderlyingAsk, u.ImpliedUnderlyingMid = g.f(spot-0.05), g.f(spot+0.05), g.f(spot)
	u.ImpliedUnderlyingBidSize, u.ImpliedUnderlyingAskSize = g.i(10), g.i(10)
	u.Mid, u.LastTradePrice, u.LastTradeSize = g.f(spot), g.f(spot), g.i(100)
	u.Bid, u.Ask, u.BidSize, u.AskSize = g.f(spot-0.01), g.f(spot+0.01), g.i(5), g.i(5)
	u.Open, u.High, u.Low, u.Close, u.PrevDayClose = g.f(spot), g.f(spot*1.01), g.f(spot*0.99), g.f(spot), g.f(spot)
	u.Volume = g.i(50_000_000)
	u.IV30, u.IV30Change, u.IV30ChangePercent = g.f(22), g.f(0.4), g.f(2)
	u.SeqNo = g.i(1000)
	return u
}

// big is the 20,000-contract chain, built once: drawing it is the test,
// building it again each time would only slow the test down.
var big = sync.OnceValue(func() *api.SymbolWithOptions { return modeltest.SynthChain(20, 500, 0) })

// chain is a snapshot of shape: 0 none (204), 1 no options, 2 one strike,
// 3 a few expiries, 4 a broad chain, 5 the 20,000-contract one.
func (g *gen) chain(shape int, sym, root string, first api.Date, zero bool) *api.SymbolWithOptions {
	switch shape {
	case 0:
		return nil
	case 5:
		c := *big()
		c.Underlying = g.underlying(sym, 600)
		return &c
	}
	spot := pick(g, 600.0, 0.5, 5000, 123456.78)
	c := &api.SymbolWithOptions{Underlying: g.underlying(sym, spot)}
	nExp, nStrikes := 0, 0
	switch shape {
	case 2:
		nExp, nStrikes = 1, 1
	case 3:
		nExp, nStrikes = 1+g.r.IntN(3), 1+g.r.IntN(15)
	case 4:
		nExp, nStrikes = 4+g.r.IntN(8), 30+g.r.IntN(60)
	}
	step := pick(g, 1.0, 0.5, 5, 0.01, 1000)
	for e := range nExp {
		exp := first.AddDays(7 * e)
		for k := range nStrikes {
			strike := spot + float64(k-nStrikes/2)*step
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				if shape == 2 && typ == api.Put && g.r.IntN(2) == 0 {
					continue // one contract alone
				}
				o := g.option(root, exp, typ, strike, spot)
				if zero && e == 0 {
					o.IV, o.Delta, o.Gamma, o.Theta, o.Vega, o.Rho = api.Float{}, api.Float{}, api.Float{}, api.Float{}, api.Float{}, api.Float{}
				}
				c.Options = append(c.Options, o)
			}
		}
	}
	return c
}

// osi is a contract's symbol, or as much of one as the root allows.
func osi(root string, exp api.Date, typ api.OptionType, strike float64) string {
	if s, err := api.FormatOSI(root, exp, typ, strike); err == nil {
		return s
	}
	return root + exp.String() + string(typ) + strconv.FormatFloat(strike, 'f', -1, 64)
}

func (g *gen) option(root string, exp api.Date, typ api.OptionType, strike, spot float64) api.OptionData {
	px := math.Max(0.05, math.Abs(spot-strike)*0.1+1)
	return api.OptionData{
		Root: root, Expiry: exp, Strike: strike, OptionType: typ, Option: osi(root, exp, typ, strike),
		Timestamp: api.NewTimeOfDay(10, 0, 0, 0),
		Mid:       g.f(px), Bid: g.f(px - 0.05), Ask: g.f(px + 0.05), BidSize: g.i(10), AskSize: g.i(10),
		TradeCount: g.i(5), Open: g.f(px), High: g.f(px), Low: g.f(px), Close: g.f(px), PrevDayClose: g.f(px),
		LastTradePrice: g.f(px), IV: g.f(0.2), OpenInterest: g.i(1000), Volume: g.i(100),
		Delta: g.f(0.5), Gamma: g.f(0.01), Vega: g.f(0.1), Theta: g.f(-0.05), Rho: g.f(0.02),
	}
}

// past is the symbol against its stored year, or nil without a store.
func (g *gen) past() *vol.Past {
	if g.r.IntN(2) == 0 {
		return nil
	}
	v := func(base float64) float64 {
		if g.r.Float64() < g.wildP {
			return pick(g, math.NaN(), math.Inf(1), -5, 1e12)
		}
		return base * g.r.Float64()
	}
	return &vol.Past{Sessions: g.r.IntN(300), IVRank: v(100), IVPercentile: v(100), HV10: v(0.4), HV20: v(0.4), HV30: v(0.4), IVHV: v(2)}
}

// trades are n prints of the chain's contracts (or of none).
func (g *gen) trades(n int, root string, first api.Date) []api.OptionTrade {
	out := make([]api.OptionTrade, n)
	ats := []api.TradeAt{api.AboveAsk, api.OnAsk, api.MidMarket, api.OnBid, api.BelowBid, api.CrossedMarket, api.NoMarket, "", "??"}
	for i := range out {
		typ := pick(g, api.Call, api.Put)
		strike := pick(g, 600.0, 0.01, 1e9, -5)
		t := api.OptionTrade{
			Root: root, Expiry: first, Strike: strike, OptionType: typ,
			Ask: g.f(1.3), AskSize: g.i(10), Bid: g.f(1.2), BidSize: g.i(10), Price: g.f(1.25),
			Size: pick(g, int64(1), 100, 10_000, math.MaxInt64, 0), TradeAt: pick(g, ats...),
			UnderlyingBid: g.f(600), UnderlyingAsk: g.f(600),
			ExchangeID: uint8(g.r.IntN(256)), Timestamp: pick(g, api.NewTimeOfDay(10, 0, 0, 0), 0, api.DayMillis-1),
			CancelFlag: pick(g, api.CancelFlag(0), api.TradeCanceled), SeqNo: int64(n - i),
		}
		if g.r.Float64() >= g.nullP {
			t.Security = api.Some(osi(root, first, typ, strike))
		}
		out[i] = t
	}
	return out
}

// events are earnings and dividends with any date, or none.
func (g *gen) events(sym string, today api.Date, n int) []api.CalendarEvent {
	var out []api.CalendarEvent
	for range n {
		d := pick(g, today.AddDays(g.r.IntN(120)-60), 0, today)
		if g.r.IntN(2) == 0 {
			out = append(out, api.CalendarEvent{Kind: api.KindEarnings, Earnings: api.EarningsEvent{
				Year: pick(g, 2026, 0, -1, 99999), Quarter: pick(g, 1, 4, 0, 77), ReportDate: d,
				TimeOfDay: pick(g, api.ReportTime("AMC"), "BMO", "", "DURING MARKET HOURS OR SO"),
				EPSActual: g.f(1.2), EPSEstimate: g.f(1.1), UnderlyingSymbol: sym, CompanyName: strings.Repeat("Co ", g.r.IntN(30)),
			}})
			continue
		}
		out = append(out, api.CalendarEvent{Kind: api.KindDividend, Dividend: api.DividendsEvent{
			ExDividendDate: d, PaymentDate: pick(g, d.AddDays(30), 0), Dividend: g.f(1.5), UnderlyingSymbol: sym,
		}})
	}
	return out
}

// moves are the realized moves of the last reports, and the next one's.
func (g *gen) moves(today api.Date) []vol.EarningsMove {
	var out []vol.EarningsMove
	for i := range g.r.IntN(6) {
		out = append(out, vol.EarningsMove{Date: today.AddDays(-90 * (i + 1)), When: "AMC", Move: g.wild(), MovePct: g.f(0.04).V})
	}
	if g.r.IntN(2) == 0 {
		out = append(out, vol.EarningsMove{Date: today.AddDays(10), Next: true, Expiry: today.AddDays(14), Move: 12, MovePct: pick(g, 0.04, math.NaN(), 1e6)})
	}
	return out
}

// fetchErr is a failure as the service or the network words it, escapes
// and newlines included (the status bar must clean them).
func (g *gen) fetchErr() error {
	if g.r.Float64() >= g.wildP/2 {
		return nil
	}
	return pick(g, errors.New("dial tcp 127.0.0.1:1: connection refused"), errors.New("boom\x1b[31m\nsecond line "+strings.Repeat("long ", 60)))
}
