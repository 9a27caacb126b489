package strategy

import (
	"chainwatch/pricing"
	"math"
	"time"

	"chainwatch/market"
)

// Quote is one leg's market, NaN where the service sent null: its NBBO,
// mid, previous close, IV (a fraction) and greeks. A stock leg's is the
// underlying's quote.
type Quote struct {
	Bid, Ask, Mid, PrevClose, IV float64
	Greeks                       pricing.Greeks
	HasGreeks                    bool // the service's greeks (else they come from IV)
}

// NoQuote is a leg with no market yet.
var NoQuote = Quote{Bid: math.NaN(), Ask: math.NaN(), Mid: math.NaN(), PrevClose: math.NaN(), IV: math.NaN()}

// MidPrice is the quote's mid: the service's, else the middle of a
// two-sided market.
func (q *Quote) MidPrice() float64 {
	if !math.IsNaN(q.Mid) {
		return q.Mid
	}
	return (q.Bid + q.Ask) / 2
}

// Market is where a strategy is valued: the underlying's price (the
// one the chain prices at, PricingSpot), the clock, each leg's quote and
// carry (Quotes[i] and Carry[i] are Legs[i]'s), and what the probability
// of profit assumes.
type Market struct {
	Spot   float64
	Now    time.Time
	Quotes []Quote
	Carry  []Carry // missing: DefaultCarry
	// Drift, when RealWorld, is the underlying's expected growth a year
	// (continuous, 0.07 is 7 %) that PoP assumes instead of the
	// risk-neutral r - q the chain prices with.
	Drift     float64
	RealWorld bool
}

// quote is leg i's quote, NoQuote when missing.
func (m *Market) quote(i int) Quote {
	if i < len(m.Quotes) {
		return m.Quotes[i]
	}
	return NoQuote
}

// carry is leg i's carry, DefaultCarry when missing.
func (m *Market) carry(i int) Carry {
	if i < len(m.Carry) {
		return m.Carry[i]
	}
	return Carry{Carry: DefaultCarry}
}

// Entry is what leg i cost per share: its fill, else its mid (a ticket
// not yet traded is valued as if filled at mid).
func (s *Strategy) Entry(m *Market, i int) float64 {
	if p := s.Legs[i].Price; !math.IsNaN(p) {
		return p
	}
	q := m.quote(i)
	return q.MidPrice()
}

// Cost is the strategy's entry in dollars: above zero a debit (paid),
// below a credit (received).
func (s *Strategy) Cost(m *Market) float64 {
	c := 0.0
	for i := range s.Legs {
		c += s.Legs[i].Units() * s.Entry(m, i)
	}
	return c
}

// Pricer values a strategy's legs at any spot and time: P&L at expiry,
// today and at a date, from the legs' entries, IVs and carries fixed
// when it is made (Market), so that a curve of 200 spots costs only the
// pricing. A leg is priced on the chain's model (legParams): American
// for an equity or fund option, European for an index's, at its
// series' rate and dividend yield, so a leg at its own IV and today's
// spot is worth its mid.
//
// Except where the chain's IV is not its mid's: an option within a tick
// of its floor (a deep in-the-money American put at its exercise
// boundary) is published at the surface's vol, at which the model misses
// the mid by a tick or two. The miss is kept as the leg's basis, fading
// in proportion to the time left, so a leg is worth its mid today at
// spot and its payoff at expiry.
type Pricer struct {
	legs   []Leg
	entry  []float64
	iv     []float64
	carry  []pricing.Carry
	settle []time.Time
	basis  []float64 // mid less the model today at spot, per year left
}

// Pricer fixes the legs' entries, IVs and carries at m; shift is added
// to every IV (0.01 is one vol point).
func (s *Strategy) Pricer(m *Market, shift float64) *Pricer {
	p := &Pricer{legs: s.Legs}
	for i := range s.Legs {
		q := m.quote(i)
		l := &s.Legs[i]
		p.entry = append(p.entry, s.Entry(m, i))
		p.iv = append(p.iv, math.Max(q.IV+shift, pricing.MinIV))
		p.carry = append(p.carry, m.carry(i).Carry)
		p.settle = append(p.settle, market.SettleTime(l.Root, l.Expiry))
		p.basis = append(p.basis, 0)
		if t := p.years(i, m.Now); l.Option() && t > 0 && q.IV > 0 && q.MidPrice() > 0 {
			if b := q.MidPrice() - pricing.Price(legParams(l, m.Spot, t, q.IV, p.carry[i])); !math.IsNaN(b) {
				p.basis[i] = b / t
			}
		}
	}
	return p
}

// years is leg i's time to settlement at t, in the chain's count
// (market.YearsToSettle).
func (p *Pricer) years(i int, t time.Time) float64 {
	return market.YearsToSettle(p.legs[i].Root, p.legs[i].Expiry, t)
}

// Value is leg i's value per share at spot x and time t: the underlying
// itself, a settled option's payoff, else the chain's model's price on
// its IV.
func (p *Pricer) Value(i int, x float64, t time.Time) float64 {
	l := &p.legs[i]
	if l.Kind == Stock {
		return x
	}
	if !t.Before(p.settle[i]) || math.IsNaN(p.iv[i]) {
		return l.Payoff(x)
	}
	T := p.years(i, t)
	return pricing.Price(legParams(l, x, T, p.iv[i], p.carry[i])) + p.basis[i]*T
}

// PnL is the strategy's P&L in dollars with the underlying at x at time
// t (at or after the first expiry: that leg's payoff).
func (p *Pricer) PnL(x float64, t time.Time) float64 {
	v := 0.0
	for i := range p.legs {
		v += p.legs[i].Units() * (p.Value(i, x, t) - p.entry[i])
	}
	return v
}

// Mark is the strategy's value at the legs' mids now, in dollars, and
// its P&L since the entry and since the previous close (a leg opened
// today counts from its fill). ok is false while a leg has no mid.
func (s *Strategy) Mark(m *Market, openedToday bool) (value, sinceOpen, today float64, ok bool) {
	for i := range s.Legs {
		q := m.quote(i)
		mid := q.MidPrice()
		if s.Legs[i].Kind == Stock && math.IsNaN(mid) {
			mid = m.Spot
		}
		if math.IsNaN(mid) {
			return 0, 0, 0, false
		}
		u := s.Legs[i].Units()
		value += u * mid
		sinceOpen += u * (mid - s.Entry(m, i))
		ref := q.PrevClose
		if openedToday || math.IsNaN(ref) {
			ref = s.Entry(m, i)
		}
		today += u * (mid - ref)
	}
	return value, sinceOpen, today, true
}

// Range is the risk graph's span of the underlying: two expected moves
// either side of spot, or, without an IV to say the move, a tenth of spot
// and every strike; never below zero.
func Range(spot, move float64, s *Strategy) (lo, hi float64) {
	if math.IsNaN(move) || move <= 0 {
		lo, hi = spot*0.9, spot*1.1
		for i := range s.Legs {
			if s.Legs[i].Option() {
				lo, hi = math.Min(lo, s.Legs[i].Strike*0.95), math.Max(hi, s.Legs[i].Strike*1.05)
			}
		}
		return math.Max(lo, 0), hi
	}
	return math.Max(spot-2*move, 0), spot + 2*move
}
