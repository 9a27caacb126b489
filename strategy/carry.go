package strategy

import (
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/pricing"
)

// DefaultCarry is what a leg is repriced at when no expiry of its chain
// tells the carry (a chain of one expiry hours away, where rate and
// dividend hardly move a price): a 4 % rate, no dividend.
var DefaultCarry = pricing.Carry{R: 0.04}

// Carry is the rate and dividend yield a leg is repriced at, and the
// expiry whose quotes told them: the leg's own, else the nearest one
// that could (an expiry hours away cannot tell r from q); zero when none
// could and DefaultCarry stands in.
type Carry struct {
	pricing.Carry
	From api.Date
}

// PricingSpot is the underlying price the chain's IVs and greeks are
// computed at: its mid, else its last trade (api.Underlying.Spot).
func PricingSpot(u *api.Underlying) float64 {
	if u.Mid.Valid && u.Mid.V > 0 {
		return u.Mid.V
	}
	return u.Spot()
}

// seriesKey is one root's expiry: SPX's AM monthly and SPXW's PM weekly
// on the same day are two, with different times to settle.
type seriesKey struct {
	root   string
	expiry api.Date
}

// solved is one series' ImpliedCarry.
type solved struct {
	c  pricing.Carry
	ok bool
}

// carries solves the carry of a chain's series, each once and only when
// asked (a leg's series, then its neighbours while they cannot tell).
type carries struct {
	spot   float64
	now    time.Time
	quotes map[seriesKey][]pricing.CarryQuote
	keys   []seriesKey // by expiry
	done   map[seriesKey]solved
}

// carriesOf groups chain's contracts with a mid and an IV by series.
func carriesOf(chain *api.SymbolWithOptions, spot float64, now time.Time) *carries {
	cs := &carries{spot: spot, now: now, quotes: map[seriesKey][]pricing.CarryQuote{}, done: map[seriesKey]solved{}}
	for i := range chain.Options {
		o := &chain.Options[i]
		k := seriesKey{o.Root, o.Expiry}
		if _, seen := cs.quotes[k]; !seen {
			cs.keys = append(cs.keys, k)
			cs.quotes[k] = nil
		}
		if o.Mid.Valid && o.IV.Valid {
			cs.quotes[k] = append(cs.quotes[k], pricing.CarryQuote{
				Strike: o.Strike, Call: o.OptionType == api.Call, Mid: o.Mid.V, IV: o.IV.V})
		}
	}
	slices.SortStableFunc(cs.keys, func(a, b seriesKey) int { return int(a.expiry) - int(b.expiry) })
	return cs
}

// solve is series k's carry as its own quotes tell it.
func (cs *carries) solve(k seriesKey) solved {
	if s, ok := cs.done[k]; ok {
		return s
	}
	var s solved
	if t := market.YearsToSettle(k.root, k.expiry, quotedAt(cs.now)); t > 0 {
		s.c, s.ok = pricing.ImpliedCarry(cs.spot, t, pricing.AmericanStyle(k.root), cs.quotes[k])
	}
	cs.done[k] = s
	return s
}

// of is the carry of root's expiry: its own, else the nearest expiry's
// (in days, the earlier on a tie) that tells one, else DefaultCarry.
func (cs *carries) of(root string, expiry api.Date) Carry {
	if s := cs.solve(seriesKey{root, expiry}); s.ok {
		return Carry{s.c, expiry}
	}
	near := slices.Clone(cs.keys)
	dist := func(k seriesKey) int { return abs(expiry.DaysUntil(k.expiry)) }
	slices.SortStableFunc(near, func(a, b seriesKey) int { return dist(a) - dist(b) })
	for _, k := range near {
		if s := cs.solve(k); s.ok {
			return Carry{s.c, k.expiry}
		}
	}
	return Carry{Carry: DefaultCarry}
}

// quotedAt is the instant a chain asked at now was priced at: now in
// the session; its open before it (the service counts T from the open
// while it shows the last close) and its close after it (the quotes are
// the close's). An instant hours off would read the time value the
// quotes lack or carry as rate and yield.
func quotedAt(now time.Time) time.Time {
	d := api.Today(now)
	if !market.IsTradingDay(d) {
		return now
	}
	if open := market.SessionOpen.On(d); now.Before(open) {
		return open
	}
	if closing := market.SessionClose(d).On(d); now.After(closing) {
		return closing
	}
	return now
}

// legYears is leg l's time to settlement from now in years, zero once
// it has passed: to 09:30 for an AM-settled root (market.SettleTime).
func legYears(l *Leg, now time.Time) float64 {
	return math.Max(market.YearsToSettle(l.Root, l.Expiry, now), 0)
}

// legParams are leg l's model inputs at spot x, t years left, IV vol
// and carry c: American for an equity or fund option, European for an
// index's (pricing.AmericanStyle), as the chain prices it.
func legParams(l *Leg, x, t, vol float64, c pricing.Carry) pricing.Params {
	return pricing.Params{S: x, K: l.Strike, T: t, R: c.R, Q: c.Q, Vol: vol,
		Call: l.Kind == Call, American: pricing.AmericanStyle(l.Root)}
}
