package wire

import (
	"math"
	"math/rand/v2"

	"chainwatch/api"
)

// odd is a string that tests every escape of both formats at once.
const odd = "Q\"uote\\ <a&b> 'x' \t\n\r café ✓ \U0001F680 \u2028 ]]>"

// round rounds v to n decimals, as the service sends prices and greeks.
func round(v float64, n int) float64 {
	p := math.Pow10(n)
	return math.Round(v*p) / p
}

// tick rounds a price to the option tick: 0.05 below 3.00, 0.10 above.
func tick(v float64) float64 {
	if v < 3 {
		return round(math.Round(v/0.05)*0.05, 2)
	}
	return round(math.Round(v/0.10)*0.10, 2)
}

// maybe returns a Float that is null with probability p.
func maybe(r *rand.Rand, p, v float64) api.Float {
	if r.Float64() < p {
		return api.Float{}
	}
	return api.Some(v)
}

// testUnderlying is an SPX-like underlying with some nulls.
func testUnderlying() *api.Underlying {
	return &api.Underlying{
		Symbol: "SPX", Timestamp: api.NewTimeOfDay(15, 59, 59, 987),
		ImpliedUnderlyingBid: api.Some(6010.25), ImpliedUnderlyingAsk: api.Some(6010.75),
		ImpliedUnderlyingBidSize: api.Some[int64](12), ImpliedUnderlyingAskSize: api.Some[int64](9),
		ImpliedUnderlyingMid: api.Some(6010.5), Mid: api.Some(6010.4), LastTradePrice: api.Some(6010.37),
		LastTradeSize: api.Some[int64](100), Bid: api.Some(6010.1), Ask: api.Some(6010.7),
		BidSize: api.Some[int64](3), AskSize: api.Some[int64](4), Open: api.Some(5990.0),
		High: api.Some(6021.55), Low: api.Some(5987.03), Close: api.Float{}, PrevDayClose: api.Some(5995.81),
		Volume: api.Some[int64](2_345_678_901), IV30: api.Some(14.83), IV30Change: api.Some(-0.41),
		IV30ChangePercent: api.Some(-2.69), SeqNo: api.Some[int64](987654),
	}
}

// testChain builds a realistic SPX-sized chain of about n contracts: 40
// expiries, strikes around 6,000, calls and puts, prices on ticks, greeks
// rounded as the service sends them (or at full precision), about 5 % nulls
// in price fields. Deterministic.
func testChain(n int, fullPrecision bool) []api.OptionData {
	r := rand.New(rand.NewPCG(4, 20261120))
	const s = 6010.5
	expiries := 40
	strikes := max(1, n/(2*expiries))
	g := func(v float64, d int) float64 {
		if fullPrecision {
			return v
		}
		return round(v, d)
	}
	out := make([]api.OptionData, 0, expiries*strikes*2)
	exp := api.Date(20261120)
	for e := range expiries {
		exp = exp.AddDays(1 + e%7)
		t := float64(e+1) / 52
		for i := range strikes {
			k := s - float64(strikes/2-i)*5
			for _, typ := range []api.OptionType{api.Call, api.Put} {
				m := math.Log(s / k)
				if typ == api.Put {
					m = -m
				}
				theo := math.Max(0.05, s*0.15*math.Sqrt(t)*0.4*math.Exp(-m*m/(0.02*t+0.001))+math.Max(0, m*s))
				bid := tick(theo * 0.98)
				ask := tick(theo*1.02) + 0.05
				osi, _ := api.FormatOSI("SPXW", exp, typ, k)
				iv := 0.12 + 0.3*math.Abs(m) + r.Float64()*0.01
				delta := 0.5 + m*3
				if typ == api.Put {
					delta = delta - 1
				}
				out = append(out, api.OptionData{
					Root: "SPXW", Expiry: exp, Strike: k, OptionType: typ,
					Timestamp: api.NewTimeOfDay(15, 59, r.IntN(60), r.IntN(1000)), Option: osi,
					Mid: maybe(r, 0.05, round((bid+ask)/2, 3)), Bid: maybe(r, 0.05, bid), Ask: api.Some(ask),
					BidSize: api.Some(int64(1 + r.IntN(500))), AskSize: api.Some(int64(1 + r.IntN(500))),
					TradeCount: api.Some(int64(r.IntN(2000))), Open: maybe(r, 0.05, tick(theo*1.1)),
					High: maybe(r, 0.05, tick(theo*1.2)), Low: maybe(r, 0.05, tick(theo*0.9)),
					Close: maybe(r, 0.05, tick(theo)), PrevDayClose: api.Some(tick(theo * 1.03)),
					LastTradePrice: maybe(r, 0.05, tick(theo)), IV: api.Some(g(iv, 4)),
					OpenInterest: api.Some(int64(r.IntN(100000))), Volume: api.Some(int64(r.IntN(20000))),
					Delta: api.Some(g(delta*r.Float64(), 4)), Gamma: api.Some(g(0.0012*r.Float64(), 6)),
					Vega: api.Some(g(3.5*r.Float64(), 4)), Theta: api.Some(g(-1.7*r.Float64(), 4)),
					Rho: api.Some(g(0.9*r.Float64(), 4)),
				})
			}
		}
	}
	return out
}

func testSymbols() []api.Symbol {
	a := api.Symbol{Underlying: *testUnderlying(), ImpliedUnderlyingIndicator: api.Some(api.Green)}
	b := api.Symbol{Underlying: api.Underlying{Symbol: "AAPL", Timestamp: api.NewTimeOfDay(9, 30, 0, 1)}}
	return []api.Symbol{a, b}
}

func testOptionTrades() []api.OptionTrade {
	return []api.OptionTrade{
		{Security: api.Some("SPXW  261120C06000000"), Root: "SPXW", Expiry: 20261120, Strike: 6000,
			OptionType: api.Call, Ask: api.Some(12.5), AskSize: api.Some[int64](20), Bid: api.Some(12.3),
			BidSize: api.Some[int64](11), Price: api.Some(12.4), Size: 5, TradeAt: api.MidMarket,
			UnderlyingBid: api.Some(6010.1), UnderlyingAsk: api.Some(6010.7), ConditionID: 1, ExchangeID: 7,
			ExchangeSeqNo: 123456789, CancelFlag: api.TradeCanceled, Timestamp: api.NewTimeOfDay(10, 1, 2, 3), SeqNo: 42},
		{Root: "SPXW", Expiry: 20261120, Strike: 6000.5, OptionType: api.Put, Size: 1,
			TradeAt: api.NoMarket, CancelFlag: api.TradeCancel, Timestamp: api.NewTimeOfDay(23, 59, 59, 999), SeqNo: 43},
	}
}

func testTrade(seq int64) api.Trade {
	return api.Trade{Size: 10, Price: api.Some(1.05), Flag: api.TradeNormal, ExchSequenceNumber: 77,
		Time: api.NewTimeOfDay(11, 0, 0, 0), ExchangeID: 3, ConditionID: 2, SequenceNumber: seq,
		NBBOBid: api.Some(1.0), NBBOAsk: api.Some(1.1), NBBOBidSize: api.Some[int64](8)}
}

func testGreeks() []api.OptionTradeWithGreeks {
	return []api.OptionTradeWithGreeks{
		{IV: api.Some(0.2208), Delta: api.Some(0.5123), Vega: api.Some(1.234), Theta: api.Some(-0.567),
			Rho: api.Some(0.089), Gamma: api.Some(0.001234), DollarDelta: api.Some(307890.12),
			DollarVega: api.Some(617.0), DollarTheta: api.Some(-283.5), UnderlyingBid: api.Some(6010.1),
			UnderlyingAsk: api.Some(6010.7), Trade: testTrade(1)},
		{Trade: api.Trade{Size: 3, Time: api.NewTimeOfDay(15, 0, 0, 0), SequenceNumber: 2}},
	}
}

func testTAQ() []api.TAQRecord {
	q := api.Quote{BestAskExchange: 4, BestBidExchange: 5, BidSize: api.Some[int64](10), Bid: api.Some(1.0),
		AskSize: api.Some[int64](12), Ask: api.Some(1.1), Flag: api.NBBOBestBid | api.NBBOBestAsk,
		Time: api.NewTimeOfDay(10, 0, 0, 500), ExchangeID: 4, ConditionID: 9, SequenceNumber: 11,
		NBBOBid: api.Some(1.0), NBBOBidSize: api.Some[int64](10), NBBOAsk: api.Some(1.1)}
	oq := api.OptionQuote{Quote: q, UnderlyingBid: api.Some(6010.1)}
	oq.SequenceNumber = 13
	return []api.TAQRecord{
		{Kind: api.KindQuote, Quote: api.OptionQuote{Quote: q}},
		{Kind: api.KindTrade, Trade: testTrade(12)},
		{Kind: api.KindOptionQuote, Quote: oq},
	}
}

func testCalendar() []api.CalendarEvent {
	return []api.CalendarEvent{
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{Year: 2026, Quarter: 4, ReportDate: 20261029,
			TimeOfDay: api.AfterClose, ReportDateType: "Confirmed", DateType: "1", EPSActual: api.Some(1.64),
			EPSEstimate: api.Some(1.6), ActualCurrency: "USD", UnderlyingSymbol: "AAPL", CompanyName: "Apple Inc.",
			DataSourceID: api.Some[int64](3)}},
		{Kind: api.KindDividend, Dividend: api.DividendsEvent{ExDividendDate: 20261110, PaymentDate: 20261113,
			Dividend: api.Some(0.26), SpecialDividendCode: api.Some[int64](0), DividendCode: "Q",
			UnadjustedDividend: api.Some(0.26), DataSource: "Exchange", UnderlyingSymbol: "AAPL",
			CompanyName: "Apple Inc.", DataSourceID: api.Some[int64](1)}},
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{Year: 2027, Quarter: 1, ReportDate: 20270128,
			TimeOfDay: api.BeforeOpen, DateType: "0", UnderlyingSymbol: "MSFT", CompanyName: odd}},
	}
}

func testExchanges() []api.Exchange {
	return []api.Exchange{{ID: 1, Code: "CBOE", Name: "Cboe Options"}, {ID: 255, Code: "X&Y", Name: odd}}
}

func testConditions() []api.MessageCondition {
	return []api.MessageCondition{{ID: 1, Code: "REG", Description: "Regular", Type: api.ConditionTrade},
		{ID: 2, Code: "F", Description: "Fast <quote>", Type: api.ConditionQuote}}
}

func testMetadata() *api.ScannerMetadata {
	return &api.ScannerMetadata{
		Fields: []api.ScanField{{Name: "price", DisplayName: "Price", Description: "Last price", Category: "Quote",
			DataType: "number"}, {Name: "earnings_date", DisplayName: "Earnings", Description: odd,
			Category: "Events", DataType: "string", MayContainNull: true}},
		Operators: []api.ScanOperator{{Operator: "<=", Description: "less or equal"}, {Operator: "and", Description: "both"}},
	}
}

func testScanResult() *api.ScanResult {
	no := false
	return &api.ScanResult{
		LastUpdated: "2026-11-20T15:59:59-05:00",
		Inputs: []api.ScanFieldParam{{Formula: "price"}, {Formula: "iv30 > 20", IncludeInResultset: &no},
			{Formula: "volume", DisplayName: "Vol", Sort: api.SortDesc}, {Formula: "earnings_date"},
			{Formula: "sector", DisplayName: "Sector"}, {Formula: "price > 0", DisplayName: "Up"}},
		Output: []api.ScanRow{
			{Symbol: "AAPL", CompanyName: "Apple Inc.", Values: map[string]any{"price": 271.5,
				"Vol": int64(51234567), "earnings_date": "2027-01-28", "Sector": "123", "Up": true}},
			{Symbol: "X&Y", CompanyName: odd, Values: map[string]any{"price": nil, "Vol": int64(0),
				"earnings_date": nil, "Sector": odd, "Up": false}},
		},
	}
}
