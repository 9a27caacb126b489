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

// TestTradesPricedByExpiry: the trades of some expiries are priced
// alone, and the day's trades priced an expiry at a time (carried over
// to a day drawn further) are the trades priced at once: every record,
// and each chain, whether its aggregates bracket unpriced trades or read
// priced ones.
func TestTradesPricedByExpiry(t *testing.T) {
	const day api.Date = 20261124
	whole := at(2026, time.November, 24, 17, 0)
	live := at(2026, time.November, 24, 11, 0)
	for _, sym := range []string{"SPY", "AAPL"} {
		all, _ := whole.tradeDay(mustBook(t, whole, sym, day))
		all.upTo(market.SessionClose(day))
		b := mustBook(t, live, sym, day)
		var first api.Date
		for i := range b.series {
			if first == 0 || b.series[i].Expiry < first {
				first = b.series[i].Expiry
			}
		}
		week := Expiries{first, first.AddDays(7)}
		later := Expiries{first.AddDays(8), 0}
		at11 := Moment{Date: day, Time: 11 * 3600_000, Requested: day}
		at13 := Moment{Date: day, Time: 13 * 3600_000, Requested: day}
		for _, step := range []struct {
			mo Moment
			x  Expiries
		}{{at11, week}, {at11, week}, {at13, later}, {at13, week}, {at11, Expiries{}}, {at13, Expiries{}}} {
			got, _ := live.ChainExpiries(sym, step.mo, step.x)
			want, _ := whole.ChainExpiries(sym, step.mo, step.x)
			if len(got.Options) == 0 || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %v at %v: the chain differs when the day is priced an expiry at a time", sym, step.x, step.mo.Time)
			}
			// An American chain prices only the trades its aggregates
			// need (chainaggs.go); the expiries' trades are priced as
			// option-trades reads them.
			td, _ := live.tradeDayThrough(b, step.mo.Time)
			n := td.upToExpiries(step.mo.Time, step.x)
			unpriced := 0
			for i := range n {
				s, _, _ := b.contract(int(td.sk.trades[i].ci))
				if td.px[i] == (tradePrices{exSeq: td.px[i].exSeq}) {
					unpriced++
					if step.x.keep(s.Expiry) {
						t.Fatalf("%s %v: trade %d of %v read unpriced", sym, step.x, i, s.Expiry)
					}
				}
			}
			if step.x == week && step.mo == at11 && unpriced < n/10 {
				t.Errorf("%s: %d of %d trades unpriced after a week's chain, want the other expiries'", sym, unpriced, n)
			}
		}
		trades, _ := optionTrades(live, sym, at13)
		for i, tr := range trades {
			if w := all.trade(i); tr != w {
				t.Fatalf("%s: trade %d differs when priced an expiry at a time:\n%+v\n%+v", sym, i, tr, w)
			}
		}
	}
}
