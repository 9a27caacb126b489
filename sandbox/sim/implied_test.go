package sim

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// colours is the implied_underlying_indicator of every optionable symbol
// at a live moment of the anchor day, as underlying-quotes serves it, and
// the widest implied spread relative to the implied mid.
func colours(t *testing.T, h, mi int) (count map[api.Indicator]int, of map[string]api.Indicator, widest float64) {
	t.Helper()
	m := at(2026, time.November, 20, h, mi)
	mo, err := m.Moment(api.Live, 20261120)
	if err != nil {
		t.Fatal(err)
	}
	count, of = map[api.Indicator]int{}, map[string]api.Indicator{}
	for _, sec := range m.optionable {
		s, ok := m.Symbol(sec.Symbol, mo)
		if !ok || !s.ImpliedUnderlyingIndicator.Valid {
			// A one-sided book near the money would leave the trader
			// without an implied quote: the spread cap must prevent it.
			t.Errorf("%02d:%02d %s: no implied underlying", h, mi, sec.Symbol)
			continue
		}
		ind := s.ImpliedUnderlyingIndicator.V
		count[ind]++
		of[sec.Symbol] = ind
		u := s.Underlying
		widest = math.Max(widest, (u.ImpliedUnderlyingAsk.V-u.ImpliedUnderlyingBid.V)/u.ImpliedUnderlyingMid.V)
	}
	return count, of, widest
}

// TestImpliedIndicatorColours: mid-session, a trader's screen meets all
// three colours, green for most names and for the index complex and the
// mega caps, yellow and red for the thin names; in the opening minutes,
// when every market maker quotes wide, more names are off green.
func TestImpliedIndicatorColours(t *testing.T) {
	mid, of, widest := colours(t, 11, 0)
	total := mid[api.Green] + mid[api.Yellow] + mid[api.Red]
	t.Logf("11:00 %v, widest %.2f%%", mid, 100*widest)
	if mid[api.Green] == 0 || mid[api.Yellow] == 0 || mid[api.Red] == 0 {
		t.Errorf("11:00: colours %v, want all three", mid)
	}
	if 2*mid[api.Green] <= total {
		t.Errorf("11:00: %d of %d green, want a majority", mid[api.Green], total)
	}
	for _, sym := range []string{"SPX", "SPY", "QQQ", "IWM", "AAPL", "MSFT", "NVDA"} {
		if of[sym] != api.Green {
			t.Errorf("11:00: %s is %q, want green", sym, of[sym])
		}
	}
	if widest < 0.02 || widest > 0.04 {
		t.Errorf("11:00: widest implied spread %.2f%% of the price, want the thinnest names at 2-4%%", 100*widest)
	}

	open, _, _ := colours(t, 9, 31)
	t.Logf("09:31 %v", open)
	if open[api.Green] >= mid[api.Green] || open[api.Red] <= mid[api.Red] {
		t.Errorf("09:31 %v against 11:00 %v: want more names off green after the open", open, mid)
	}
}

// TestSpreadsFollowLiquidity: at the same moment, the at-the-money quotes
// of the nearest expiry are wider relative to the price the less a name
// trades; the opening minutes widen them, the pre-open state (the last
// close's) does not.
func TestSpreadsFollowLiquidity(t *testing.T) {
	m, mo := noon(t)
	width := func(sym string, tick api.TimeOfDay) float64 {
		b := mustBook(t, m, sym, mo.Date)
		c := b.at(tick)
		var s *series
		for i := range b.series {
			if x := &b.series[i]; x.days >= 1 && (s == nil || x.days < s.days) {
				s = x
			}
		}
		e := c.expiry(s)
		k := nearStrikes(s.Strikes, e.F, 1)[0]
		call, put := c.quote(s, &e, k, false), c.quote(s, &e, k, true)
		if call.bid <= 0 || put.bid <= 0 {
			t.Errorf("%s at %v: at-the-money bids %d and %d: a one-sided market", sym, tick, call.bid, put.bid)
		}
		return dollars(call.ask-call.bid+put.ask-put.bid) / c.S
	}
	noonTick := tickOf(mo.Date, mo.Time)
	order := []string{"SPX", "AAPL", "GS", "BKNG"} // most to least traded
	for i := 1; i < len(order); i++ {
		if a, b := width(order[i-1], noonTick), width(order[i], noonTick); a >= b {
			t.Errorf("%s's at-the-money width %.3f%% of the price not below %s's %.3f%%", order[i-1], 100*a, order[i], 100*b)
		}
	}
	// A thin name's at-the-money weekly is near the cap on the adverse
	// term already, so the open widens it less; width checks that it
	// keeps its bid.
	for _, sym := range []string{"AAPL", "JPM", "GS", "BKNG"} {
		first := width(sym, market.SessionOpen+60_000)
		if w := width(sym, noonTick); (sym == "AAPL" || sym == "JPM") && first < 1.5*w {
			t.Errorf("%s: width %.3f%% at 09:31, %.3f%% at noon: want the open 1.5x wider", sym, 100*first, 100*w)
		}
	}
	if w := openingWiden(market.SessionOpen - 1); w != 1 {
		t.Errorf("pre-open widening %v, want the close's quotes as they were", w)
	}
	if w0, w15 := openingWiden(market.SessionOpen), openingWiden(market.SessionOpen+15*60_000); w0 != 3 || w15 > 1.15 {
		t.Errorf("opening widening %v at 09:30, %v at 09:45: want 3x fading within a quarter hour", w0, w15)
	}
}

// TestThinNameConsistency: the wide quotes of thin names keep every
// invariant of the chain (parity within the spread, iv from the mid,
// greeks) at the open and mid-session, and their trades print against the
// NBBO of their second.
func TestThinNameConsistency(t *testing.T) {
	for _, hm := range [][2]int{{9, 31}, {11, 0}} {
		m := at(2026, time.November, 20, hm[0], hm[1])
		mo, _ := m.Moment(api.Live, 20261120)
		for _, sym := range []string{"BKNG", "FDX"} {
			ch, ok := m.Chain(sym, mo)
			if !ok {
				t.Fatalf("no %s chain", sym)
			}
			b := mustBook(t, m, sym, mo.Date)
			c := b.at(tickOf(mo.Date, mo.Time))
			checkChain(t, b, &c, ch.Options)
		}
	}

	m := at(2026, time.November, 21, 12, 0)
	mo, _ := m.Moment(api.Live, 20261119)
	trades, ok := optionTrades(m, "BKNG", mo)
	if !ok || len(trades) == 0 {
		t.Fatal("no BKNG trades")
	}
	b := mustBook(t, m, "BKNG", mo.Date)
	td, _ := m.tradeDay(b)
	var c tickCtx
	for i, tr := range trades {
		bid, ask, price := cents(tr.Bid.V), cents(tr.Ask.V), cents(tr.Price.V)
		if got := classify(price, bid, ask); got != tr.TradeAt {
			t.Fatalf("trade %d: %v at %v/%v classified %q, want %q", i, tr.Price.V, tr.Bid.V, tr.Ask.V, tr.TradeAt, got)
		}
		if sec := tr.Timestamp - tr.Timestamp%1000; c.b == nil || c.tick != sec {
			c = b.at(sec)
		}
		q, _, _, _, _ := c.contractQuote(int(td.sk.trades[i].ci))
		if tr.TradeAt != api.CrossedMarket && (q.bid != bid || q.ask != ask) {
			t.Fatalf("trade %d (%s at %v): NBBO %v/%v, recomputed %v/%v", i, tr.Security.V, tr.Timestamp, bid, ask, q.bid, q.ask)
		}
	}
}
