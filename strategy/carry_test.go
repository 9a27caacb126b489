package strategy_test

import (
	"context"
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/model/modeltest"
	"chainwatch/pricing"
	"chainwatch/sandbox"
	sbmarket "chainwatch/sandbox/market"
	"chainwatch/strategy"
)

// chainOf is symbol's whole chain from the sandbox over loopback, on
// modeltest's stopped clock.
func chainOf(t *testing.T, c *api.Client, symbol string) *api.SymbolWithOptions {
	t.Helper()
	ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(),
		api.OptionQuotesParams{Symbol: symbol, Date: api.DateOf(modeltest.Now).String()})
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// carryTol is how near the sandbox's own rate and yield the carry told
// by a chain must be: a thousandth of a point (a tenth of a basis point).
const carryTol = 1e-5

// TestCarryIsTheSandboxs: the carry each series' quotes tell is the
// rate and dividend yield the sandbox priced them at (sandbox/market.Rate
// and the listing's DivYield), on an ETF (American), a stock with a
// dividend (American) and an index (European); and a series that cannot
// tell borrows a neighbour's, which is as true.
func TestCarryIsTheSandboxs(t *testing.T) {
	c := modeltest.StartSandbox(t, sandbox.Config{})
	u := sbmarket.Default()
	r := sbmarket.Rate(api.DateOf(modeltest.Now))
	for _, sym := range []string{"SPY", "AAPL", "SPX"} {
		t.Run(sym, func(t *testing.T) {
			sec, ok := u.Lookup(sym)
			if !ok {
				t.Fatalf("the sandbox lists no %s", sym)
			}
			ch := chainOf(t, c, sym)
			legs := atTheMoney(ch)
			told, worst := 0, 0.0
			for _, l := range legs {
				m, err := strategy.MarketOf(&strategy.Strategy{Symbol: sym, Legs: []strategy.Leg{l}}, ch, modeltest.Now)
				if err != nil {
					t.Fatal(err)
				}
				got := m.Carry[0]
				if got.From == 0 {
					t.Fatalf("%s %s: no series told a carry", l.Root, l.Expiry)
				}
				if got.From == l.Expiry {
					told++
				}
				worst = max(worst, math.Abs(got.R-r), math.Abs(got.Q-sec.DivYield))
				if math.Abs(got.R-r) > carryTol || math.Abs(got.Q-sec.DivYield) > carryTol {
					t.Errorf("%s %s (from %s): r %.6f q %.6f, the sandbox's r %.6f q %.6f",
						l.Root, l.Expiry, got.From, got.R, got.Q, r, sec.DivYield)
				}
			}
			t.Logf("%d of %d series told their own carry; the worst is %.2g from the sandbox's", told, len(legs), worst)
			// Most series tell their own; only those hours from settling may not.
			if len(legs) < 5 || told < len(legs)*3/4 {
				t.Errorf("%d of %d series told their own carry", told, len(legs))
			}
		})
	}
}

// atTheMoney is a call leg at the strike nearest spot on each of chain's
// series (root and expiry).
func atTheMoney(ch *api.SymbolWithOptions) []strategy.Leg {
	spot := strategy.PricingSpot(&ch.Underlying)
	type key struct {
		root string
		exp  api.Date
	}
	best := map[key]int{}
	var order []key
	for i := range ch.Options {
		o := &ch.Options[i]
		k := key{o.Root, o.Expiry}
		j, seen := best[k]
		if !seen {
			order = append(order, k)
		}
		if !seen || math.Abs(o.Strike-spot) < math.Abs(ch.Options[j].Strike-spot) {
			best[k] = i
		}
	}
	legs := make([]strategy.Leg, 0, len(order))
	for _, k := range order {
		o := &ch.Options[best[k]]
		legs = append(legs, strategy.Leg{Kind: strategy.Call, Qty: 1, Root: o.Root, Expiry: o.Expiry, Strike: o.Strike, Price: math.NaN()})
	}
	return legs
}

// TestCarryOutsideTheSession: before the open the service counts T from
// the open, after the close its quotes are the close's; the carry a
// chain tells then is still the sandbox's.
func TestCarryOutsideTheSession(t *testing.T) {
	for _, hm := range [][2]int{{8, 0}, {18, 30}} {
		now := time.Date(2026, 11, 20, hm[0], hm[1], 0, 0, api.Eastern)
		c := modeltest.StartSandbox(t, sandbox.Config{Now: func() time.Time { return now }})
		ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(),
			api.OptionQuotesParams{Symbol: "SPY", Date: api.DateOf(now).String()})
		if err != nil {
			t.Fatal(err)
		}
		st := strategy.Strategy{Symbol: "SPY", Legs: []strategy.Leg{
			{Kind: strategy.Put, Qty: 1, Root: "SPY", Expiry: api.NewDate(2026, 12, 18), Strike: 700, Price: math.NaN()}}}
		m, err := strategy.MarketOf(&st, ch, now)
		if err != nil {
			t.Fatal(err)
		}
		r, q := sbmarket.Rate(api.DateOf(now)), 0.0115
		if got := m.Carry[0]; got.From != st.Legs[0].Expiry || math.Abs(got.R-r) > carryTol || math.Abs(got.Q-q) > carryTol {
			t.Errorf("at %s: carry %+v, the sandbox's r %v q %v", now.Format("15:04"), got, r, q)
		}
	}
}

// TestLegsRepriceToTheirMids: at its series' carry, on the chain's model
// (American for SPY and AAPL, European for SPX), each contract near the
// money on the December monthly is worth its mid at its own IV, to half
// a cent: the figures reprice on the chain's own model.
func TestLegsRepriceToTheirMids(t *testing.T) {
	c := modeltest.StartSandbox(t, sandbox.Config{})
	dec := api.NewDate(2026, 12, 18)
	for _, sym := range []string{"SPY", "AAPL", "SPX"} {
		t.Run(sym, func(t *testing.T) {
			ch := chainOf(t, c, sym)
			spot := strategy.PricingSpot(&ch.Underlying)
			n, byRoot := 0, map[string]strategy.Carry{}
			for i := range ch.Options {
				o := &ch.Options[i]
				if o.Expiry != dec || !o.IV.Valid || !o.Mid.Valid || math.Abs(o.Strike/spot-1) > 0.05 {
					continue
				}
				l := strategy.Leg{Kind: strategy.Kind(o.OptionType[0]), Qty: 1, Root: o.Root, Expiry: o.Expiry, Strike: o.Strike, Price: math.NaN()}
				cr, ok := byRoot[o.Root]
				if !ok {
					st := strategy.Strategy{Symbol: sym, Legs: []strategy.Leg{l}}
					m, err := strategy.MarketOf(&st, ch, modeltest.Now)
					if err != nil {
						t.Fatal(err)
					}
					cr = m.Carry[0]
					byRoot[o.Root] = cr
				}
				p := pricing.Params{S: spot, K: o.Strike, T: market.YearsToSettle(o.Root, o.Expiry, modeltest.Now),
					R: cr.R, Q: cr.Q, Vol: o.IV.V, Call: l.Kind == strategy.Call, American: pricing.AmericanStyle(o.Root)}
				if v := pricing.Price(p); math.Abs(v-o.Mid.V) > 0.005 {
					t.Errorf("%s: model %.4f, mid %.4f", o.Option, v, o.Mid.V)
				}
				n++
			}
			if n < 10 {
				t.Fatalf("only %d contracts near the money", n)
			}
		})
	}
}

// TestCarryOnTheLegsSpan: the strategy page asks only for its legs'
// expiries and strikes (Span, widened by spanMargin); that narrowed chain
// still tells each leg its own series' carry, far legs included.
func TestCarryOnTheLegsSpan(t *testing.T) {
	c := modeltest.StartSandbox(t, sandbox.Config{})
	r := sbmarket.Rate(api.DateOf(modeltest.Now))
	for _, legs := range []string{"SPY 2026-12-18 +C700 -C710", "SPY 2026-12-18 +P750 -P740", "SPY 2026-12-18 +P600 -P590"} {
		st, err := strategy.Parse(legs)
		if err != nil {
			t.Fatal(err)
		}
		p := api.OptionQuotesParams{Symbol: "SPY", Date: api.DateOf(modeltest.Now).String()}
		st.Span().Narrow(&p)
		ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := strategy.MarketOf(&st, ch, modeltest.Now)
		if err != nil {
			t.Fatal(err)
		}
		for i, got := range m.Carry {
			if got.From != st.Legs[i].Expiry || math.Abs(got.R-r) > carryTol || math.Abs(got.Q-0.0115) > carryTol {
				t.Errorf("%s leg %d on %d contracts: carry %+v, the sandbox's r %v q 0.0115", legs, i+1, len(ch.Options), got, r)
			}
		}
	}
}
