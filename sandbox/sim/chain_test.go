package sim

import (
	"math"
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox/bsm"
)

// TestChainConsistency checks a mid-session chain of an index and of a
// stock the way a trader's checks would: quotes ordered, put-call parity
// within the spread, iv re-inverted from the mid, greeks against finite
// differences of the price at that iv, and the OSI symbols.
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

func checkChain(t *testing.T, b *book, c *tickCtx, opts []api.OptionData) {
	t.Helper()
	var greeksChecked, ivNull int
	for i := 0; i+1 < len(opts); i += 2 {
		call, put := &opts[i], &opts[i+1]
		if call.OptionType != api.Call || put.OptionType != api.Put || call.Strike != put.Strike || call.Expiry != put.Expiry {
			t.Fatalf("rows %d, %d are not a call and put of one strike: %+v %+v", i, i+1, call, put)
		}
		if i > 0 {
			p := &opts[i-2]
			if p.Root > call.Root || p.Root == call.Root && (p.Expiry > call.Expiry || p.Expiry == call.Expiry && p.Strike >= call.Strike) {
				t.Fatalf("row %d out of order: %s after %s", i, call.Option, p.Option)
			}
		}
		ci, ok := b.find(mustOSI(t, call.Option))
		if !ok {
			t.Fatalf("%s not found in the book", call.Option)
		}
		s, _, _ := b.contract(ci)
		e := c.expiry(s)
		for _, o := range []*api.OptionData{call, put} {
			osi := mustOSI(t, o.Option)
			if osi.Root != o.Root || osi.Expiry != o.Expiry || osi.Type != o.OptionType || osi.Strike() != o.Strike {
				t.Errorf("%s does not name %s %v %s %v", o.Option, o.Root, o.Expiry, o.OptionType, o.Strike)
			}
			if o.Bid.V < 0 || o.Bid.V >= o.Ask.V || math.Abs(o.Mid.V-(o.Bid.V+o.Ask.V)/2) > 1e-9 {
				t.Errorf("%s: bid %v ask %v mid %v", o.Option, o.Bid.V, o.Ask.V, o.Mid.V)
			}
			q := quote{bid: int64(math.Round(o.Bid.V * 100)), ask: int64(math.Round(o.Ask.V * 100))}
			if !o.IV.Valid && q.bid > 0 && !q.wide() && e.T > 1.0/365 {
				t.Errorf("%s: a two-sided market %v / %v (T %.3f) without iv", o.Option, o.Bid.V, o.Ask.V, e.T)
			}
			if o.IV.Valid && (q.bid == 0 || q.wide()) {
				t.Errorf("%s: iv %v from a market of %v / %v", o.Option, o.IV.V, o.Bid.V, o.Ask.V)
			}
			if o.Theta.Valid && o.Theta.V < -o.Mid.V-1e-9 {
				t.Errorf("%s: theta %v larger than the option's value %v", o.Option, o.Theta.V, o.Mid.V)
			}
			if !o.IV.Valid {
				ivNull++
				if o.Delta.Valid {
					t.Errorf("%s: greeks without iv", o.Option)
				}
				continue
			}
			p := c.params(&e, o.Strike, o.OptionType == api.Put)
			iv, ok := bsm.ImpliedVol(o.Mid.V, p)
			if lo, _ := e.bounds(o.Strike, o.OptionType == api.Put); o.Mid.V <= lo {
				// Deep in the money, the mid a tick under the bound: the
				// model's vol, checked below through its greeks.
				iv, ok = o.IV.V, true
			}
			if !ok || math.Abs(iv-o.IV.V) > 1e-4 {
				t.Errorf("%s: iv %v, re-inverted from mid %v: %v %v", o.Option, o.IV.V, o.Mid.V, iv, ok)
			}
			p.Vol = o.IV.V
			if checkGreeks(t, o, p) {
				greeksChecked++
			}
		}
		// Put-call parity: C - P = S e^{-qT} - K e^{-rT}, within the widths.
		fwd := c.S*math.Exp(-b.q*e.T) - call.Strike*math.Exp(-b.r*e.T)
		slack := (call.Ask.V-call.Bid.V+put.Ask.V-put.Bid.V)/2 + 1e-9
		if d := call.Mid.V - put.Mid.V - fwd; math.Abs(d) > slack {
			t.Errorf("%s: C-P = %v, parity %v, off by %v > %v", call.Option, call.Mid.V-put.Mid.V, fwd, d, slack)
		}
	}
	if greeksChecked < len(opts)/4 {
		t.Errorf("greeks checked on only %d of %d contracts (%d without iv)", greeksChecked, len(opts), ivNull)
	}
}

// checkGreeks compares the greeks with central differences of bsm.Price at
// the contract's iv, within 1 %, skipping values too small for the rounding
// of the published figures.
func checkGreeks(t *testing.T, o *api.OptionData, p bsm.Params) bool {
	t.Helper()
	price := func(f func(*bsm.Params)) float64 { q := p; f(&q); return bsm.Price(q) }
	hS := p.S * 1e-4
	up := price(func(q *bsm.Params) { q.S += hS })
	dn := price(func(q *bsm.Params) { q.S -= hS })
	hT := p.T * 1e-4
	fd := map[string][2]float64{
		"delta": {o.Delta.V, (up - dn) / (2 * hS)},
		"gamma": {o.Gamma.V, (up - 2*bsm.Price(p) + dn) / (hS * hS)},
		"vega":  {o.Vega.V, (price(func(q *bsm.Params) { q.Vol += 1e-5 }) - price(func(q *bsm.Params) { q.Vol -= 1e-5 })) / 2e-5 * 0.01},
		"theta": {o.Theta.V, -(price(func(q *bsm.Params) { q.T += hT }) - price(func(q *bsm.Params) { q.T -= hT })) / (2 * hT) / 365},
		"rho":   {o.Rho.V, (price(func(q *bsm.Params) { q.R += 1e-6 }) - price(func(q *bsm.Params) { q.R -= 1e-6 })) / 2e-6 * 0.01},
	}
	if -o.Theta.V >= o.Mid.V-1e-6 {
		delete(fd, "theta") // capped at the option's value (see chainFill)
	}
	checked := false
	for name, v := range fd {
		floor := 1e-3
		if name == "gamma" {
			floor = 1e-5
		}
		if math.Abs(v[0]) < floor || math.Abs(v[1]) < floor {
			continue
		}
		checked = true
		if math.Abs(v[0]-v[1]) > 0.01*math.Abs(v[1]) {
			t.Errorf("%s: %s %v, finite difference %v", o.Option, name, v[0], v[1])
		}
	}
	return checked
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
