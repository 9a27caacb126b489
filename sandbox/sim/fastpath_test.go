package sim

import (
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// TestHasBidIsTheQuotesBid: the sweeps' shortcut (a European quote with a
// bid means an American one with a bid) answers as the quote itself, for
// every contract of an index, a fund and two stocks (one thin, one with a
// high yield), in the opening minutes' wide markets and later.
func TestHasBidIsTheQuotesBid(t *testing.T) {
	m := at(2026, time.November, 24, 17, 0)
	const day api.Date = 20261124
	ticks := []api.TimeOfDay{market.SessionOpen, market.SessionOpen + 90_000, 11 * 3600_000, market.SessionClose(day) - 1000}
	for _, sym := range []string{"SPY", "QCOM", "ADBE", "SPX"} {
		b := mustBook(t, m, sym, day)
		bid, none := 0, 0
		for _, tick := range ticks {
			c := b.at(tick)
			for ci := range b.n {
				s, _, _ := b.contract(ci)
				if !s.alive(tick) {
					continue
				}
				q, _, _, _, _ := c.contractQuote(ci)
				if got := c.hasBid(ci); got != (q.bid > 0) {
					t.Fatalf("%s contract %s at %v: hasBid %v, quote %v/%v", sym, b.name(ci), tick, got, q.bid, q.ask)
				}
				if q.bid > 0 {
					bid++
				} else {
					none++
				}
			}
		}
		if bid == 0 || none == 0 {
			t.Errorf("%s: %d quotes with a bid and %d without: both cases wanted", sym, bid, none)
		}
	}
}

// TestAmericanTradesAtTheirQuote: every trade of a morning of SPY
// (American options) printed against the quote of its second, as the
// chain computes it, whichever trade of that second priced it first.
func TestAmericanTradesAtTheirQuote(t *testing.T) {
	m := at(2026, time.November, 24, 17, 0)
	const day api.Date = 20261124
	b := mustBook(t, m, "SPY", day)
	td, ok := m.tradeDay(b)
	if !ok {
		t.Fatal("no SPY trades")
	}
	n := td.upTo(11 * 3600_000)
	if n < 1000 {
		t.Fatalf("%d SPY trades by 11:00, want over 1,000", n)
	}
	var c tickCtx
	for i := range n {
		st := &td.sk.trades[i]
		if sec := st.t - st.t%1000; c.b == nil || c.tick != sec {
			c = b.at(sec)
		}
		q, _, _, _, _ := c.contractQuote(int(st.ci))
		tr := td.trade(i)
		if tr.TradeAt != api.CrossedMarket && (q.bid != cents(tr.Bid.V) || q.ask != cents(tr.Ask.V)) ||
			q.bidSz != tr.BidSize.V || q.askSz != tr.AskSize.V {
			t.Fatalf("trade %d (%s at %v): NBBO %v/%v, the quote %v/%v", i, tr.Security.V, tr.Timestamp, tr.Bid.V, tr.Ask.V, q.bid, q.ask)
		}
	}
}
