package sim

import (
	"math"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// TestOptionTradesSPXDay checks a full historical SPX day: every trade_at
// against the NBBO recomputed at the trade's second (exactly as the chain
// computes it), all seven values present, seq_no rising from 1, exchange
// sequence numbers rising per exchange, ids from the reference tables,
// cancels paired with their cancel messages.
func TestOptionTradesSPXDay(t *testing.T) {
	m := at(2026, 11, 21, 12, 0)
	mo, _ := m.Moment(api.Live, 20261119)
	trades, ok := optionTrades(m, "SPX", mo)
	if !ok {
		t.Fatal("no SPX trades")
	}
	if len(trades) < 30_000 || len(trades) > 100_000 {
		t.Errorf("%d SPX trades in a day, want tens of thousands", len(trades))
	}
	b := mustBook(t, m, "SPX", mo.Date)
	td, _ := m.tradeDay(b)
	exchanges, conditions := map[uint8]bool{}, map[uint8]bool{}
	for _, e := range market.Exchanges() {
		exchanges[e.ID] = true
	}
	for _, c := range market.MessageConditions() {
		conditions[c.ID] = true
	}
	seen := map[api.TradeAt]int{}
	lastEx := map[uint8]int64{}
	type key struct {
		sec         string
		price, size int64
	}
	canceled := map[key]int{}
	var c tickCtx
	for i, tr := range trades {
		if tr.SeqNo != int64(i+1) || i > 0 && tr.Timestamp < trades[i-1].Timestamp {
			t.Fatalf("trade %d: seq_no %d at %v after %v", i, tr.SeqNo, tr.Timestamp, trades[max(i-1, 0)].Timestamp)
		}
		if tr.ExchangeSeqNo <= lastEx[tr.ExchangeID] {
			t.Fatalf("trade %d: exchange %d seq %d not above %d", i, tr.ExchangeID, tr.ExchangeSeqNo, lastEx[tr.ExchangeID])
		}
		lastEx[tr.ExchangeID] = tr.ExchangeSeqNo
		if !exchanges[tr.ExchangeID] || !conditions[tr.ConditionID] {
			t.Fatalf("trade %d: exchange %d condition %d not in the tables", i, tr.ExchangeID, tr.ConditionID)
		}
		seen[tr.TradeAt]++
		bid, ask, price := cents(tr.Bid.V), cents(tr.Ask.V), cents(tr.Price.V)
		if got := classify(price, bid, ask); got != tr.TradeAt {
			t.Fatalf("trade %d: %v at %v/%v classified %q, want %q", i, tr.Price.V, tr.Bid.V, tr.Ask.V, tr.TradeAt, got)
		}
		if sec := tr.Timestamp - tr.Timestamp%1000; c.b == nil || c.tick != sec {
			c = b.at(sec)
		}
		q, _, _, _, _ := c.contractQuote(int(td.sk.trades[i].ci))
		if tr.TradeAt != api.CrossedMarket && (q.bid != bid || q.ask != ask || q.bidSz != tr.BidSize.V || q.askSz != tr.AskSize.V) {
			t.Fatalf("trade %d (%s at %v): NBBO %v/%v, recomputed %v/%v", i, tr.Security.V, tr.Timestamp, bid, ask, q.bid, q.ask)
		}
		if tr.Price.V <= 0 || tr.Size <= 0 {
			t.Fatalf("trade %d: price %v size %v", i, tr.Price.V, tr.Size)
		}
		k := key{tr.Security.V, price, tr.Size}
		switch tr.CancelFlag {
		case api.TradeCanceled:
			canceled[k]++
		case api.TradeCancel:
			if canceled[k] == 0 {
				t.Fatalf("trade %d: cancel message without a canceled trade", i)
			}
			canceled[k]--
		}
	}
	for k, n := range canceled {
		if n != 0 {
			t.Errorf("canceled trade %v has no cancel message", k)
		}
	}
	for _, v := range []api.TradeAt{api.BelowBid, api.OnBid, api.MidMarket, api.OnAsk, api.AboveAsk, api.CrossedMarket, api.NoMarket} {
		if seen[v] == 0 {
			t.Errorf("no %q trade in an SPX day: %v", v, seen)
		}
	}
	// The prefix of a moment is the same records.
	mid := Moment{Date: mo.Date, Time: api.NewTimeOfDay(11, 0, 0, 0)}
	part, _ := optionTrades(m, "SPX", mid)
	if len(part) == 0 || len(part) >= len(trades) || part[len(part)-1].Timestamp > mid.Time || trades[len(part)].Timestamp <= mid.Time {
		t.Errorf("prefix at 11:00 has %d trades", len(part))
	}
}

func cents(p float64) int64 { return int64(math.Round(p * 100)) }

// TestTradesWithGreeks: iv from the trade price, greeks at that iv, and the
// dollar greeks as documented.
func TestTradesWithGreeks(t *testing.T) {
	m, mo := noon(t)
	trades, _ := optionTrades(m, "AAPL", mo)
	var osi string
	for _, tr := range trades { // a contract with several trades
		if tr.Size > 0 && tr.TradeAt == api.MidMarket {
			osi = tr.Security.V
		}
	}
	o := mustOSI(t, osi)
	got, ok := m.TradesWithGreeks(o, mo)
	if !ok || len(got) == 0 {
		t.Fatalf("no trades with greeks for %s", osi)
	}
	want := 0
	for _, tr := range trades {
		if tr.Security.V == osi {
			if got[want].SequenceNumber != tr.SeqNo || got[want].Price != tr.Price || got[want].UnderlyingBid != tr.UnderlyingBid {
				t.Errorf("trade %d: %+v, want seq %d price %v", want, got[want].Trade, tr.SeqNo, tr.Price)
			}
			want++
		}
	}
	if want != len(got) {
		t.Fatalf("%d trades with greeks, %d trades", len(got), want)
	}
	for _, g := range got {
		if !g.IV.Valid {
			continue
		}
		S := (g.UnderlyingBid.V + g.UnderlyingAsk.V) / 2
		if d := g.DollarDelta.V / (g.Delta.V * 100 * float64(g.Size)); math.Abs(d/S-1) > 0.01 {
			t.Errorf("dollar delta %v: implied S %v, underlying %v", g.DollarDelta.V, d, S)
		}
		if math.Abs(g.DollarVega.V-g.Vega.V*100*float64(g.Size)) > 0.01+5e-7*100*float64(g.Size) {
			t.Errorf("dollar vega %v, vega %v size %d", g.DollarVega.V, g.Vega.V, g.Size)
		}
	}
}

// TestDeterministicDay: two markets (as two processes would) give the same
// historical chain and trades.
func TestDeterministicDay(t *testing.T) {
	m1, m2 := at(2026, 11, 21, 9, 0), at(2026, 11, 22, 18, 0)
	mo, _ := m1.Moment(api.Delayed, 20261118)
	c1, _ := m1.Chain("MSFT", mo)
	c2, _ := m2.Chain("MSFT", mo)
	if len(c1.Options) == 0 || len(c1.Options) != len(c2.Options) || c1.Underlying != c2.Underlying {
		t.Fatalf("chains differ: %d vs %d contracts", len(c1.Options), len(c2.Options))
	}
	for i := range c1.Options {
		if c1.Options[i] != c2.Options[i] {
			t.Fatalf("contract %d differs: %+v vs %+v", i, c1.Options[i], c2.Options[i])
		}
	}
	t1, _ := optionTrades(m1, "MSFT", mo)
	t2, _ := optionTrades(m2, "MSFT", mo)
	if len(t1) == 0 || len(t1) != len(t2) {
		t.Fatalf("%d vs %d trades", len(t1), len(t2))
	}
	for i := range t1 {
		if t1[i] != t2[i] {
			t.Fatalf("trade %d differs", i)
		}
	}
	other, _ := optionTrades(m1, "AAPL", mo)
	if len(other) > 0 && len(other) == len(t1) && other[0].Timestamp == t1[0].Timestamp {
		t.Errorf("AAPL and MSFT drew the same trades")
	}
}
