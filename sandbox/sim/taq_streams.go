package sim

import (
	"math"
	"math/rand/v2"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
)

// optionStream is the trades-and-quotes day of contract ci: 4 to 6
// exchanges quoting it, updating every 4 seconds or so each near the money
// and less often far from it, and its trades from option-trades.
func optionStream(b *book, td *tradeDay, ci int) *taqStream {
	s, k, put := b.contract(ci)
	open, close := nyse.SessionOpen, nyse.SessionClose(b.date)
	if !s.alive(open) {
		close = open
	} else if s.days == 0 {
		close = min(close, s.settle)
	}
	idx := td.contractTrades(ci, close)
	times := make([]api.TimeOfDay, len(idx))
	for j, i := range idx {
		times[j] = td.sk.trades[i].t
	}
	h := mix(s.seed ^ uint64(k)<<1 ^ 0x7a9)
	if put {
		h = mix(h)
	}
	ids := pickExchanges(market.OptionExchanges, 4+int(h%3), h)
	x0 := math.Abs(math.Log(s.Strikes[k]/b.day.PrevClose)) / (b.sec.Vol * math.Sqrt(s.years(open)))
	rate := float64(len(ids)) * 15 * (0.35 + 0.65*math.Exp(-x0))
	quotes := func(mi int) int {
		if open+api.TimeOfDay(mi)*60_000 >= close {
			return 0
		}
		return int(rate * (0.6 + 0.8*unit(mix(h^uint64(mi)<<32))))
	}
	tick := func(c int64) int64 { return tickCents(c, b.penny) }
	return &taqStream{
		open: open, close: close,
		count: func(mi int) int {
			lo, hi := countIn(times, open+api.TimeOfDay(mi)*60_000)
			return quotes(mi) + hi - lo
		},
		minute: func(mi int, seq int64) []api.TAQRecord {
			start := open + api.TimeOfDay(mi)*60_000
			rng := rand.New(rand.NewPCG(h, uint64(mi)))
			var q base
			var uq underQuote
			last := api.TimeOfDay(-1)
			at := func(t api.TimeOfDay) {
				if sec := t - t%1000; sec != last {
					c := b.at(sec)
					e := c.expiry(s)
					x := c.quote(s, &e, k, put)
					q, uq, last = base{x.bid, x.ask, x.bidSz, x.askSz}, quoteUnderlying(b.sec, b.day, sec), sec
				}
			}
			at(start)
			pn := newPanel(rng, ids, q, tick)
			qt := eventTimes(rng, quotes(mi), start, min(start+60_000, close))
			lo, hi := countIn(times, start)
			out := make([]api.TAQRecord, 0, len(qt)+hi-lo)
			j := lo
			for _, t := range qt {
				for ; j < hi && times[j] < t; j++ {
					seq++
					out = append(out, optionTradeRecord(td.trade(idx[j]), seq))
				}
				at(t)
				i := rng.IntN(len(ids))
				pn.draw(rng, i, q)
				seq++
				r := api.TAQRecord{Kind: api.KindOptionQuote}
				r.Quote.Quote = pn.record(i, q, t, seq)
				r.Quote.UnderlyingBid, r.Quote.UnderlyingAsk = api.Some(dollars(uq.bid)), api.Some(dollars(uq.ask))
				out = append(out, r)
			}
			for ; j < hi; j++ {
				seq++
				out = append(out, optionTradeRecord(td.trade(idx[j]), seq))
			}
			return out
		},
	}
}

func optionTradeRecord(t api.OptionTrade, seq int64) api.TAQRecord {
	r := api.TAQRecord{Kind: api.KindTrade, Trade: tradeRecord(&t)}
	r.Trade.SequenceNumber = seq
	return r
}

// stockStream is the trades-and-quotes day of a stock or ETF: 6 to 8
// exchanges quoting around the consolidated quote every 7 seconds or so
// each (more often at the open and the close), and prints in round and odd
// lots against the exchanges' NBBO.
func stockStream(sec *market.Security, day *market.Day) *taqStream {
	open, close := nyse.SessionOpen, nyse.SessionClose(day.Date)
	h := seed(sec.Symbol, day.Date, "taq")
	ids := pickExchanges(market.StockExchanges, 6+int(h%3), h)
	minutes := float64(close-open) / 60_000
	activity := func(mi int) float64 {
		return math.Min(0.5+0.5*intensity((float64(mi)+0.5)/minutes)/2.09, 2)
	}
	perMinute := min(max(float64(sec.AvgVolume)/100_000, 3), 20)
	quotes := func(mi int) int {
		if open+api.TimeOfDay(mi)*60_000 >= close {
			return 0
		}
		return int(float64(len(ids)) * 8 * activity(mi) * (0.6 + 0.8*unit(mix(h^uint64(mi)<<32^1))))
	}
	trades := func(mi int) int {
		if open+api.TimeOfDay(mi)*60_000 >= close {
			return 0
		}
		return int(perMinute * activity(mi) * (0.6 + 0.8*unit(mix(h^uint64(mi)<<32^2))))
	}
	penny := func(int64) int64 { return 1 }
	return &taqStream{
		open: open, close: close,
		count: func(mi int) int { return quotes(mi) + trades(mi) },
		minute: func(mi int, seq int64) []api.TAQRecord {
			start := open + api.TimeOfDay(mi)*60_000
			end := min(start+60_000, close)
			rng := rand.New(rand.NewPCG(h, uint64(mi)))
			quoteAt := func(t api.TimeOfDay) base {
				uq := quoteUnderlying(sec, day, t-t%1000)
				return base{uq.bid, uq.ask, uq.bidSz, uq.askSz}
			}
			pn := newPanel(rng, ids, quoteAt(start), penny)
			qt := eventTimes(rng, quotes(mi), start, end)
			tt := eventTimes(rng, trades(mi), start, end)
			out := make([]api.TAQRecord, 0, len(qt)+len(tt))
			j := 0
			emitTrades := func(before api.TimeOfDay, all bool) {
				for ; j < len(tt) && (all || tt[j] < before); j++ {
					seq++
					out = append(out, stockTrade(rng, ids, quoteAt(tt[j]), tt[j], j, seq))
				}
			}
			for _, t := range qt {
				emitTrades(t, false)
				i := rng.IntN(len(ids))
				q := quoteAt(t)
				pn.draw(rng, i, q)
				seq++
				out = append(out, api.TAQRecord{Kind: api.KindQuote,
					Quote: api.OptionQuote{Quote: pn.record(i, q, t, seq)}})
			}
			emitTrades(0, true)
			return out
		},
	}
}

// stockTrade is a print against the NBBO n: on the bid, on the ask or at
// the midpoint, in round lots with a heavy tail or in odd lots.
func stockTrade(rng *rand.Rand, ids []uint8, n base, t api.TimeOfDay, j int, seq int64) api.TAQRecord {
	price := n.bid
	switch r := rng.Float64(); {
	case r < 0.4:
	case r < 0.8 || n.ask-n.bid < 2:
		price = n.ask
	default:
		price = (n.bid + n.ask) / 2
	}
	size := int64(1 + rng.IntN(99))
	if rng.Float64() >= 0.3 {
		size = 100 * int64(min(1/math.Pow(1-rng.Float64(), 1/1.5), 50))
	}
	return api.TAQRecord{Kind: api.KindTrade, Trade: api.Trade{
		Size: size, Price: api.Some(dollars(price)), Flag: api.TradeNormal,
		ExchSequenceNumber: int64(t)*100 + int64(j%100), Time: t,
		ExchangeID: ids[rng.IntN(len(ids))], ConditionID: market.CondRegular,
		SequenceNumber: seq,
		NBBOBid:        api.Some(dollars(n.bid)), NBBOAsk: api.Some(dollars(n.ask)),
		NBBOBidSize: api.Some(n.bidSz), NBBOAskSize: api.Some(n.askSz),
	}}
}
