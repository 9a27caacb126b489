package sim

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/pricing"
)

// TestPricingInvariants checks whole chains (every contract of every
// expiry) of SPY and AAPL (American, AAPL paying dividends) and of SPX
// (European) at an open market, at the close of a 0DTE day and on a past
// day, with checkChain: what a quant would check before trusting them.
func TestPricingInvariants(t *testing.T) {
	cases := []struct {
		name string
		now  time.Time
		date api.Date
	}{
		{"open", time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern), 20261124},
		{"0DTE near the close", time.Date(2026, 11, 24, 15, 55, 0, 0, api.Eastern), 20261124},
		{"past day", time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern), 20240315},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now := tc.now
			m := New(Config{Now: func() time.Time { return now }})
			mo, err := m.Moment(api.Live, tc.date)
			if err != nil {
				t.Fatal(err)
			}
			for _, sym := range []string{"SPY", "AAPL", "SPX"} {
				ch, ok := m.Chain(sym, mo)
				if !ok {
					t.Fatalf("no %s chain", sym)
				}
				b := mustBook(t, m, sym, mo.Date)
				if b.american != (sym != "SPX") {
					t.Errorf("%s: american %v", sym, b.american)
				}
				c := b.at(tickOf(mo.Date, mo.Time))
				// Item 4: the spot is the published underlying mid, bit for bit.
				if c.S != ch.Underlying.Mid.V {
					t.Errorf("%s: priced from %v, published mid %v", sym, c.S, ch.Underlying.Mid.V)
				}
				checkChain(t, b, &c, ch.Options)
			}
		})
	}
}

// checkChain checks every contract of a chain priced at c:
//
//   - the quote is the one c computes (so trades and chains agree), bid
//     below ask, the mid their midpoint, and the OSI symbol names the row;
//   - an American option is never bid, offered or marked below its
//     intrinsic value at the published spot;
//   - the iv is null exactly where the market has no bid or is too wide;
//     where the option's time value (the model's at the surface's vol, or
//     the mid's) is under a tick over the model's floor, it is the surface's
//     vol; elsewhere the model's price at it is the mid;
//   - the greeks are the model's at the iv, and agree with finite
//     differences of the model's price;
//   - theta is never a larger loss than the time value of the mid;
//   - bids, asks and mids are monotone in the strike (a call's never
//     rise, a put's never fall as the strike falls);
//   - put-call parity (European) or its bounds (American) hold within the
//     spreads.
func checkChain(t *testing.T, b *book, c *tickCtx, opts []api.OptionData) {
	t.Helper()
	var greeksChecked, failures int
	fail := func(format string, args ...any) {
		t.Helper()
		if failures++; failures <= 20 {
			t.Errorf(format, args...)
		}
	}
	var prev [2]*api.OptionData // the previous strike's call and put in the series
	for i := 0; i+1 < len(opts); i += 2 {
		call, put := &opts[i], &opts[i+1]
		if call.OptionType != api.Call || put.OptionType != api.Put || call.Strike != put.Strike || call.Expiry != put.Expiry {
			t.Fatalf("rows %d, %d are not a call and put of one strike: %+v %+v", i, i+1, call, put)
		}
		if p := prev[0]; p != nil && (p.Root != call.Root || p.Expiry != call.Expiry) {
			prev = [2]*api.OptionData{}
		}
		if p := prev[0]; p != nil && p.Strike >= call.Strike {
			t.Fatalf("row %d out of order: %s after %s", i, call.Option, p.Option)
		}
		ci, ok := b.find(mustOSI(t, call.Option))
		if !ok {
			t.Fatalf("%s not found in the book", call.Option)
		}
		s, k, _ := b.contract(ci)
		e := c.expiry(s)
		for side, o := range []*api.OptionData{call, put} {
			q := c.quote(s, &e, k, side == 1)
			if !checkContract(t, c, &e, o, &q, fail) {
				continue
			}
			if pr := prev[side]; pr != nil {
				checkMonotone(pr, o, fail)
			}
			if o.IV.Valid && checkGreeks(t, o, c.paramsAt(&e, o.Strike, side == 1, o.IV.V), fail) {
				greeksChecked++
			}
		}
		checkParity(b, c, &e, call, put, fail)
		prev = [2]*api.OptionData{call, put}
	}
	if greeksChecked < len(opts)/4 {
		t.Errorf("greeks checked on only %d of %d contracts", greeksChecked, len(opts))
	}
}

// checkContract checks one row against its recomputed quote q; false when
// the quote itself is off, which makes the rest meaningless.
func checkContract(t *testing.T, c *tickCtx, e *expiry, o *api.OptionData, q *quote, fail func(string, ...any)) bool {
	t.Helper()
	osi := mustOSI(t, o.Option)
	if osi.Root != o.Root || osi.Expiry != o.Expiry || osi.Type != o.OptionType || osi.Strike() != o.Strike {
		fail("%s does not name %s %v %s %v", o.Option, o.Root, o.Expiry, o.OptionType, o.Strike)
	}
	if dollars(q.bid) != o.Bid.V || dollars(q.ask) != o.Ask.V || q.mid() != o.Mid.V {
		fail("%s: %v / %v, recomputed %v / %v", o.Option, o.Bid.V, o.Ask.V, q.bid, q.ask)
		return false
	}
	if o.Bid.V < 0 || o.Bid.V >= o.Ask.V || math.Abs(o.Mid.V-(o.Bid.V+o.Ask.V)/2) > 1e-9 {
		fail("%s: bid %v ask %v mid %v", o.Option, o.Bid.V, o.Ask.V, o.Mid.V)
	}
	put := o.OptionType == api.Put
	p := c.paramsAt(e, o.Strike, put, q.vol)
	intrinsic := intrinsicOf(p)
	if in := intrinsic - 1e-9; p.American && (o.Bid.V < in || o.Ask.V < in || o.Mid.V < in) {
		fail("%s: %v / %v (mid %v) below its intrinsic value %v", o.Option, o.Bid.V, o.Ask.V, o.Mid.V, intrinsic)
	}
	if tv := o.Mid.V - intrinsic; o.Theta.Valid && (p.American || tv > 0) && o.Theta.V < -math.Max(tv, 0)-5e-7 {
		fail("%s: theta %v loses more than the time value %v", o.Option, o.Theta.V, tv)
	}
	if o.IV.Valid == (q.bid == 0 || q.wide()) || o.Delta.Valid != o.IV.Valid {
		fail("%s: iv %v delta %v from a market of %v / %v", o.Option, o.IV, o.Delta, o.Bid.V, o.Ask.V)
	}
	if !o.IV.Valid {
		return true
	}
	floor, _ := pricing.Bounds(p)
	tick := dollars(tickCents(q.bid, c.b.penny))
	if pinned := math.Min(q.theo, o.Mid.V)-floor < tick; pinned {
		if o.IV.V != round(q.vol, 8) {
			fail("%s: time value under a tick (theo %v mid %v floor %v), iv %v, want the surface's %v", o.Option, q.theo, o.Mid.V, floor, o.IV.V, q.vol)
		}
		return true
	}
	p.Vol = o.IV.V
	v, g := pricing.Compute(p)
	// The iv is published to 8 decimals: the price at it is the mid to
	// within that rounding times the vega.
	if tol := 1e-9*math.Max(1, o.Mid.V) + 1e-8*g.Vega*100; math.Abs(v-o.Mid.V) > tol {
		fail("%s: price %v at iv %v, mid %v", o.Option, v, o.IV.V, o.Mid.V)
	}
	return true
}

// checkMonotone checks a contract against the previous strike's.
func checkMonotone(prev, o *api.OptionData, fail func(string, ...any)) {
	call := o.OptionType == api.Call
	for _, f := range [][2]float64{{prev.Bid.V, o.Bid.V}, {prev.Ask.V, o.Ask.V}, {prev.Mid.V, o.Mid.V}} {
		if call && f[1] > f[0] || !call && f[1] < f[0] {
			fail("%s: %v after %v at the strike below (%s)", o.Option, f[1], f[0], prev.Option)
		}
	}
}

// checkParity: C - P = S e^{-qT} - K e^{-rT} for European options; for
// American ones S e^{-qT} - K <= C - P <= S - K e^{-rT}; within the
// spreads either way, and for American options a tick more (the bid of
// one in the money is lifted to the tick at or above its intrinsic value).
func checkParity(b *book, c *tickCtx, e *expiry, call, put *api.OptionData, fail func(string, ...any)) {
	K := call.Strike
	lo := c.S*math.Exp(-b.q*e.T) - K*math.Exp(-b.r*e.T)
	hi := lo
	slack := (call.Ask.V-call.Bid.V+put.Ask.V-put.Bid.V)/2 + 1e-9
	if b.american {
		lo, hi = c.S*math.Exp(-b.q*e.T)-K, c.S-K*math.Exp(-b.r*e.T)
		slack += dollars(tickCents(int64(math.Round(math.Max(call.Bid.V, put.Bid.V)*100)), b.penny))
	}
	if d := call.Mid.V - put.Mid.V; d < lo-slack || d > hi+slack {
		fail("%s: C-P = %v, parity [%v, %v] within %v", call.Option, d, lo, hi, slack)
	}
}

// checkGreeks compares the greeks with the model's at the iv (to their
// last published digit) and with central differences of its price (within
// 0.1 %), skipping values too small for the rounding and differences
// across a kink in the price: an American option's exercise trigger (the
// formula's value meets the intrinsic value there, but not with the same
// slope), or a European one's no-arbitrage floor.
func checkGreeks(t *testing.T, o *api.OptionData, p pricing.Params, fail func(string, ...any)) bool {
	t.Helper()
	_, g := pricing.Compute(p)
	theta := o.Theta.V
	want := [5]float64{round(g.Delta, 6), round(g.Gamma, 8), round(g.Vega, 6), round(g.Theta, 6), round(g.Rho, 6)}
	got := [5]float64{o.Delta.V, o.Gamma.V, o.Vega.V, theta, o.Rho.V}
	capped := theta > round(g.Theta, 6) // capped at the time value (capTheta)
	// The greeks are those at the iv before its rounding to 8 decimals:
	// a unit in their last place apart, or a millionth.
	ulp := [5]float64{1e-6, 1e-8, 1e-6, 1e-6, 1e-6}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); d > 1.5*ulp[i]+1e-6*math.Abs(want[i]) && !(i == 3 && capped) {
			fail("%s: greeks %v, the model's at iv %v", o.Option, got, want)
			break
		}
	}
	price := func(f func(*pricing.Params)) float64 { q := p; f(&q); return pricing.Price(q) }
	T := math.Max(p.T, pricing.MinT)
	hS := 1e-2 * p.S * p.Vol * math.Sqrt(T)
	v0 := pricing.Price(p)
	up, dn := price(func(q *pricing.Params) { q.S += hS }), price(func(q *pricing.Params) { q.S -= hS })
	// Across a kink the second difference changes with the step; on a
	// smooth price it does not.
	up2, dn2 := price(func(q *pricing.Params) { q.S += 2 * hS }), price(func(q *pricing.Params) { q.S -= 2 * hS })
	if g1, g2 := (up-2*v0+dn)/(hS*hS), (up2-2*v0+dn2)/(4*hS*hS); math.Abs(g1-g2) > 1e-2*math.Abs(g1)+1e-6 {
		return false
	}
	hT := 1e-4 * T
	fd := [5]float64{
		(up - dn) / (2 * hS),
		(up - 2*v0 + dn) / (hS * hS),
		(price(func(q *pricing.Params) { q.Vol += 1e-5 }) - price(func(q *pricing.Params) { q.Vol -= 1e-5 })) / 2e-5 * 0.01,
		-(price(func(q *pricing.Params) { q.T = T + hT }) - price(func(q *pricing.Params) { q.T = T - hT })) / (2 * hT) / pricing.DaysPerYear,
		(price(func(q *pricing.Params) { q.R += 1e-6 }) - price(func(q *pricing.Params) { q.R -= 1e-6 })) / 2e-6 * 0.01,
	}
	floor := [5]float64{1e-3, 1e-5, 1e-3, 1e-3, 1e-3}
	names := [5]string{"delta", "gamma", "vega", "theta", "rho"}
	checked := false
	for i := range fd {
		if math.Abs(want[i]) < floor[i] || math.Abs(fd[i]) < floor[i] || i == 3 && p.T < pricing.MinT {
			continue
		}
		checked = true
		if math.Abs(want[i]-fd[i]) > 1e-3*math.Abs(fd[i])+2e-6 {
			fail("%s: %s %v, finite difference %v", o.Option, names[i], want[i], fd[i])
		}
	}
	return checked
}
