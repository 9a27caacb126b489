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

// Market is where a strategy is valued: the underlying's price, the
// clock, the rate, and each leg's quote (Quotes[i] is Legs[i]'s).
type Market struct {
	Spot   float64
	Now    time.Time
	Rate   float64
	Quotes []Quote
}

// quote is leg i's quote, NoQuote when missing.
func (m *Market) quote(i int) Quote {
	if i < len(m.Quotes) {
		return m.Quotes[i]
	}
	return NoQuote
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
// today and at a date, from the legs' entries and IVs fixed when it is
// made (Market), so that a curve of 200 spots costs only the pricing.
type Pricer struct {
	legs   []Leg
	entry  []float64
	iv     []float64
	rate   float64
	expiry []time.Time
}

// Pricer fixes the legs' entries and IVs at m; shift is added to every
// IV (0.01 is one vol point).
func (s *Strategy) Pricer(m *Market, shift float64) *Pricer {
	p := &Pricer{legs: s.Legs, rate: m.Rate}
	for i := range s.Legs {
		q := m.quote(i)
		p.entry = append(p.entry, s.Entry(m, i))
		p.iv = append(p.iv, math.Max(q.IV+shift, 0.0001))
		p.expiry = append(p.expiry, market.ExpiryTime(s.Legs[i].Expiry))
	}
	return p
}

// Value is leg i's value per share at spot x and time t: the underlying
// itself, an expired option's payoff, else its BSM price on its IV.
func (p *Pricer) Value(i int, x float64, t time.Time) float64 {
	l := &p.legs[i]
	if l.Kind == Stock {
		return x
	}
	if !t.Before(p.expiry[i]) || math.IsNaN(p.iv[i]) {
		return l.Payoff(x)
	}
	T := p.expiry[i].Sub(t).Hours() / 24 / market.DaysPerYear
	return pricing.BlackScholes(l.Kind == Call, x, l.Strike, T, p.rate, p.iv[i])
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

// Curve is PnL at each of xs at time t, into out (grown as needed).
func (p *Pricer) Curve(xs []float64, t time.Time, out []float64) []float64 {
	out = out[:0]
	for _, x := range xs {
		out = append(out, p.PnL(x, t))
	}
	return out
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
