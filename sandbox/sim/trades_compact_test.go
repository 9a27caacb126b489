package sim

import (
	"testing"

	"chainwatch/api"
	"chainwatch/market"
)

// referencePrices is how the trade day was priced before it was kept
// compact: every record built whole, at once. The compact day must give
// exactly these records.
func referencePrices(b *book, sk *skeleton) []api.OptionTrade {
	out := make([]api.OptionTrade, len(sk.trades))
	exSeq := sk.exchangeSeqs(b.sec.Symbol, b.date)
	for i := range sk.trades {
		st := &sk.trades[i]
		sec := st.t - st.t%1000
		c, uq := b.at(sec), quoteUnderlying(b.sec, b.day, sec)
		q, s, _, k, put := c.contractQuote(int(st.ci))
		pq := q
		if st.pt != st.t {
			pc := b.at(st.pt - st.pt%1000)
			pq, _, _, _, _ = pc.contractQuote(int(st.ci))
		}
		price, bid, ask := printPrice(st, pq, b.penny)
		if st.pt != st.t {
			bid, ask = q.bid, q.ask
		}
		out[i] = api.OptionTrade{
			Security: api.Some(b.name(int(st.ci))), Root: s.Root, Expiry: s.Expiry, Strike: s.Strikes[k],
			OptionType: optionType(put), Ask: api.Some(dollars(ask)), AskSize: api.Some(q.askSz),
			Bid: api.Some(dollars(bid)), BidSize: api.Some(q.bidSz), Price: api.Some(dollars(price)),
			Size: int64(st.size), TradeAt: classify(price, bid, ask),
			UnderlyingBid: api.Some(dollars(uq.bid)), UnderlyingAsk: api.Some(dollars(uq.ask)),
			ConditionID: st.cond, ExchangeID: st.exch, ExchangeSeqNo: exSeq[i],
			CancelFlag: api.CancelFlag(st.flag), Timestamp: st.t, SeqNo: int64(i + 1),
		}
	}
	return out
}

// TestCompactTradesAsPriced: the compact trade day reads back exactly the
// records of the day priced whole, for an index with a dense chain, an
// ETF, a stock on a report day and a cheap stock, and Since finds a
// window's first trade.
func TestCompactTradesAsPriced(t *testing.T) {
	m, mo := noon(t)
	for _, sym := range []string{"SPX", "SPY", "BKNG", "F"} {
		t.Run(sym, func(t *testing.T) {
			b := mustBook(t, m, sym, mo.Date)
			sk, _ := m.skeleton(b)
			want := referencePrices(b, sk)
			close := Moment{Date: mo.Date, Time: market.SessionClose(mo.Date)}
			got, ok := m.OptionTrades(sym, close)
			if !ok || got.Len() != len(want) || len(want) == 0 {
				t.Fatalf("%d trades, want %d", got.Len(), len(want))
			}
			for i := range want {
				if g := got.At(i); g != want[i] {
					t.Fatalf("trade %d:\n got %+v\nwant %+v", i, g, want[i])
				}
			}
			for _, from := range []api.TimeOfDay{0, market.SessionOpen, api.NewTimeOfDay(11, 0, 0, 1), api.NewTimeOfDay(15, 59, 59, 999), api.DayMillis - 1} {
				i := got.Since(from)
				if i < got.Len() && want[i].Timestamp < from || i > 0 && want[i-1].Timestamp >= from {
					t.Errorf("Since(%v) = %d", from, i)
				}
			}
		})
	}
}
