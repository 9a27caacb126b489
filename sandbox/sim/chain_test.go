package sim

import (
	"math"
	"testing"

	"chainwatch/api"
)

// TestChainConsistency checks a mid-session chain of an index and of a
// stock the way a trader's checks would (see checkChain).
func TestChainConsistency(t *testing.T) {
	m, mo := noon(t)
	for _, sym := range []string{"SPX", "AAPL"} {
		t.Run(sym, func(t *testing.T) {
			ch, ok := m.Chain(sym, mo)
			if !ok {
				t.Fatal("no chain")
			}
			b := mustBook(t, m, sym, mo.Date)
			c := b.at(tickOf(mo.Date, mo.Time))
			if sym == "SPX" && (len(ch.Options) < 15_000 || len(ch.Options) > 25_000) {
				t.Errorf("SPX chain has %d contracts, want 15,000 to 25,000", len(ch.Options))
			}
			checkChain(t, b, &c, ch.Options)
			u := ch.Underlying
			if !u.IV30.Valid || !u.ImpliedUnderlyingMid.Valid || !ch.Indicator.Valid || u.Close.Valid {
				t.Errorf("underlying: iv30 %v implied %v indicator %v close %v", u.IV30, u.ImpliedUnderlyingMid, ch.Indicator, u.Close)
			}
			if d := math.Abs(u.ImpliedUnderlyingMid.V-u.Mid.V) / u.Mid.V; d > 0.01 {
				t.Errorf("implied mid %v is %.2f%% off the underlying mid %v", u.ImpliedUnderlyingMid.V, 100*d, u.Mid.V)
			}
		})
	}
}

func mustOSI(t *testing.T, s string) api.OSI {
	t.Helper()
	o, err := api.ParseOSI(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestChainAggregates: a chain at the close counts exactly the day's
// normal trades per contract, and its seq_no is the last trade's.
func TestChainAggregates(t *testing.T) {
	m, mo := noon(t)
	trades, _ := optionTrades(m, "AAPL", mo)
	ch, _ := m.Chain("AAPL", mo)
	vol := map[string]int64{}
	count := map[string]int64{}
	last := map[string]float64{}
	for _, tr := range trades {
		if tr.CancelFlag == api.TradeNormal {
			vol[tr.Security.V] += tr.Size
			count[tr.Security.V]++
			last[tr.Security.V] = tr.Price.V
		}
	}
	var total int64
	for _, o := range ch.Options {
		if o.Volume.V != vol[o.Option] || o.TradeCount.V != count[o.Option] {
			t.Errorf("%s: volume %v count %v, trades say %v %v", o.Option, o.Volume, o.TradeCount, vol[o.Option], count[o.Option])
		}
		if o.TradeCount.V > 0 && o.LastTradePrice.V != last[o.Option] || o.Close.Valid {
			t.Errorf("%s: last %v close %v, trades say last %v", o.Option, o.LastTradePrice, o.Close, last[o.Option])
		}
		if !o.OpenInterest.Valid || o.OpenInterest.V < 0 {
			t.Errorf("%s: open interest %v", o.Option, o.OpenInterest)
		}
		total += o.Volume.V
	}
	if total == 0 || ch.Underlying.SeqNo.V != int64(len(trades)) {
		t.Errorf("total volume %d, seq_no %v, %d trades", total, ch.Underlying.SeqNo, len(trades))
	}
}

// TestDayInheritance: a contract's previous close is the previous day's
// closing chain mid, and open interest covers half of yesterday's volume.
func TestDayInheritance(t *testing.T) {
	m, mo := noon(t)
	prevDay := Moment{Date: 20261119, Time: 16 * 3600_000, Historical: true}
	today, _ := m.Chain("MSFT", mo)
	yesterday, _ := m.Chain("MSFT", prevDay)
	mid := map[string]float64{}
	vol := map[string]int64{}
	for _, o := range yesterday.Options {
		mid[o.Option] = o.Mid.V
		vol[o.Option] = o.Volume.V
	}
	var matched int
	for _, o := range today.Options {
		p, listed := mid[o.Option]
		if o.PrevDayClose.Valid != listed || listed && o.PrevDayClose.V != p {
			t.Errorf("%s: prev close %v, yesterday's closing mid %v (listed %v)", o.Option, o.PrevDayClose, p, listed)
		}
		if o.OpenInterest.V < vol[o.Option]/2 {
			t.Errorf("%s: open interest %d below half of yesterday's volume %d", o.Option, o.OpenInterest.V, vol[o.Option])
		}
		if listed {
			matched++
		}
	}
	if matched < len(today.Options)/2 {
		t.Errorf("only %d of %d contracts were listed yesterday", matched, len(today.Options))
	}
	u, y := today.Underlying, yesterday.Underlying
	if math.Abs(u.IV30Change.V-(u.IV30.V-y.IV30.V)) > 1e-9 || math.Abs(u.IV30ChangePercent.V-100*(u.IV30.V-y.IV30.V)/y.IV30.V) > 0.006 {
		t.Errorf("iv30 %v change %v (%v%%), yesterday's close %v", u.IV30, u.IV30Change, u.IV30ChangePercent, y.IV30)
	}
	if today.Underlying.PrevDayClose.V != yesterday.Underlying.Close.V {
		t.Errorf("prev close %v, yesterday's close %v", today.Underlying.PrevDayClose, yesterday.Underlying.Close)
	}
}

// TestChainExpiries: a chain narrowed to some expiries is exactly the
// whole chain's contracts of those expiries, whether it is priced alone
// (a fresh market) or taken from the whole chain of the tick (cached).
func TestChainExpiries(t *testing.T) {
	for _, sym := range []string{"SPX", "AAPL"} {
		t.Run(sym, func(t *testing.T) {
			cached, mo := noon(t)
			whole, ok := cached.Chain(sym, mo)
			if !ok {
				t.Fatal("no chain")
			}
			var expiries []api.Date
			for _, o := range whole.Options {
				if len(expiries) == 0 || expiries[len(expiries)-1] != o.Expiry {
					expiries = append(expiries, o.Expiry)
				}
			}
			first, third := expiries[0], expiries[min(2, len(expiries)-1)]
			for _, x := range []Expiries{{first, first}, {third, third}, {first, third}, {third, 0}, {0, third},
				{first.AddDays(1), first.AddDays(1)}} {
				var want []api.OptionData
				for _, o := range whole.Options {
					if (x.First == 0 || o.Expiry >= x.First) && (x.Last == 0 || o.Expiry <= x.Last) {
						want = append(want, o)
					}
				}
				fresh, _ := noon(t)
				for name, m := range map[string]*Market{"priced alone": fresh, "from the whole chain": cached} {
					got, ok := m.ChainExpiries(sym, mo, x)
					if !ok || len(got.Options) != len(want) || got.Underlying != whole.Underlying || got.Indicator != whole.Indicator {
						t.Fatalf("%v %s: %d contracts, want %d", x, name, len(got.Options), len(want))
					}
					for i := range want {
						if got.Options[i] != want[i] {
							t.Fatalf("%v %s: contract %d\n got %+v\nwant %+v", x, name, i, got.Options[i], want[i])
						}
					}
				}
			}
		})
	}
}
