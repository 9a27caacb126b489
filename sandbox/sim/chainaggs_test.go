package sim

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
)

// TestChainAggregatesAsPriced: a chain that brackets its trades' prices
// (chainaggs.go) has the aggregates of the same trades priced one by one,
// to the cent: American names, in the widened opening minutes, at noon
// and at the close, the whole chain and one expiry of it.
func TestChainAggregatesAsPriced(t *testing.T) {
	moments := []struct{ h, mi int }{{9, 34}, {12, 0}, {16, 0}}
	for _, sym := range []string{"SPY", "AAPL", "TSLA", "IWM"} {
		for _, hm := range moments {
			for _, oneExpiry := range []bool{false, true} {
				m := at(2026, time.November, 20, hm.h, hm.mi)
				mo, err := m.Moment(api.Live, 20261120)
				if err != nil {
					t.Fatal(err)
				}
				var x Expiries
				if oneExpiry {
					x = Expiries{First: 20261120, Last: 20261120}
				}
				ch, ok := m.ChainExpiries(sym, mo, x)
				if !ok {
					t.Fatalf("%s %02d:%02d: no chain", sym, hm.h, hm.mi)
				}
				b := mustBook(t, m, sym, 20261120)
				td, _ := m.tradeDayThrough(b, mo.Time)
				if n := td.sk.count(mo.Time); int(td.priced.Load()) >= n {
					t.Fatalf("%s %02d:%02d: the chain priced all %d trades: nothing bracketed", sym, hm.h, hm.mi, n)
				}
				checkAggregates(t, sym, m, mo, ch)
			}
		}
	}
}

// checkAggregates compares ch's aggregates with those of option-trades.
func checkAggregates(t *testing.T, sym string, m *Market, mo Moment, ch *Chain) {
	t.Helper()
	trades, _ := optionTrades(m, sym, mo)
	want := map[string]*agg{}
	for _, tr := range trades {
		if tr.CancelFlag != api.TradeNormal {
			continue
		}
		a := want[tr.Security.V]
		if a == nil {
			a = &agg{}
			want[tr.Security.V] = a
		}
		a.add(int32(tr.Size), int32(math.Round(tr.Price.V*100)))
	}
	counted := 0
	for _, o := range ch.Options {
		w := want[o.Option]
		if w == nil {
			w = &agg{}
		}
		got := agg{volume: o.Volume.V, count: o.TradeCount.V, open: o.Open.V, high: o.High.V, low: o.Low.V, last: o.LastTradePrice.V}
		if got != *w {
			t.Errorf("%s %v: chain %+v, its trades %+v", o.Option, mo.Time, got, *w)
		}
		counted += int(w.count)
	}
	if counted == 0 {
		t.Errorf("%s %v: no trade counted", sym, mo.Time)
	}
}

// TestPrintPriceMonotone: with a bid, a print's price never falls as its
// NBBO rises, which the chain's brackets rely on, but for one inside the
// spread, which lies within printBounds' limits; every kind of print,
// every level and draw, penny and nickel ticks.
func TestPrintPriceMonotone(t *testing.T) {
	var grid []int64
	for c := int64(1); c < 320; c++ {
		grid = append(grid, c)
	}
	for c := int64(320); c < 420; c += 5 {
		grid = append(grid, c)
	}
	for _, penny := range []bool{true, false} {
		for kind := uint8(0); kind <= crossed; kind++ {
			for level := uint8(0); level < 4; level++ {
				for rnd := uint32(0); rnd < 6; rnd++ {
					st := skelTrade{kind: kind, level: level, rnd: rnd}
					price := func(bid, ask int64) int64 {
						p, _, _ := printPrice(&st, quote{bid: bid, ask: ask}, penny)
						return p
					}
					for _, bid := range grid {
						for _, ask := range grid {
							if ask <= bid || !penny && (!onTick(bid) || !onTick(ask)) {
								continue
							}
							p := price(bid, ask)
							if kind == atMid {
								q := quote{bid: bid, ask: ask}
								if lo, hi := printBounds(&st, &q, &q, penny); p < lo || p > hi {
									t.Fatalf("rnd %d penny %v: (%d, %d) prints %d outside [%d, %d]", rnd, penny, bid, ask, p, lo, hi)
								}
								continue
							}
							for _, up := range []struct{ bid, ask int64 }{{next(bid, penny), ask}, {bid, next(ask, penny)}} {
								if up.bid < up.ask && price(up.bid, up.ask) < p {
									t.Fatalf("kind %d level %d rnd %d penny %v: (%d, %d) prints %d, (%d, %d) %d",
										kind, level, rnd, penny, bid, ask, p, up.bid, up.ask, price(up.bid, up.ask))
								}
							}
						}
					}
				}
			}
		}
	}
}

// onTick reports whether cents lie on the nickel tick where it applies.
func onTick(c int64) bool { return c < 300 || c%5 == 0 }

// next is the price a tick above c.
func next(c int64, penny bool) int64 { return c + tickCents(c, penny) }
