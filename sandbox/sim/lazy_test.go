package sim

import (
	"reflect"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// TestTradesPricedAsRead: a day's trades priced a morning at a time, as a
// live market reads them, are the trades priced all at once: every record
// of the day, and a chain's aggregates at each step.
func TestTradesPricedAsRead(t *testing.T) {
	whole := at(2026, time.November, 24, 17, 0) // after the close: the day at once
	bit := at(2026, time.November, 24, 17, 0)
	const day api.Date = 20261124
	for _, sym := range []string{"SPY", "AAPL"} {
		all, _ := whole.tradeDay(mustBook(t, whole, sym, day))
		n := all.upTo(market.SessionClose(day)) // the whole day, at once
		b := mustBook(t, bit, sym, day)
		td, ok := bit.tradeDay(b)
		if !ok {
			t.Fatalf("%s: no trades", sym)
		}
		for _, tick := range []api.TimeOfDay{market.SessionOpen - 1, 10 * 3600_000, 11*3600_000 + 1234, 11 * 3600_000, market.SessionClose(day)} {
			n := td.upTo(tick)
			if got := int(td.priced.Load()); got < n {
				t.Fatalf("%s at %v: %d trades priced of the %d read", sym, tick, got, n)
			}
			a, _ := bit.ChainExpiries(sym, Moment{Date: day, Time: tick, Requested: day}, Expiries{})
			c, _ := whole.ChainExpiries(sym, Moment{Date: day, Time: tick, Requested: day}, Expiries{})
			if !reflect.DeepEqual(a, c) {
				t.Fatalf("%s at %v: the chain differs when the day is priced as read", sym, tick)
			}
		}
		if n != td.upTo(market.SessionClose(day)) || n < 1000 {
			t.Fatalf("%s: %d trades, want the same count over 1,000", sym, n)
		}
		for i := range n {
			if all.trade(i) != td.trade(i) {
				t.Fatalf("%s: trade %d differs when the day is priced as read:\n%+v\n%+v", sym, i, all.trade(i), td.trade(i))
			}
		}
	}
}
