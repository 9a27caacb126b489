package strategy

import (
	"fmt"
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/pricing"
)

// QuoteOf is a contract's quote as the figures read it.
func QuoteOf(o *api.OptionData) Quote {
	q := Quote{Bid: fl(o.Bid), Ask: fl(o.Ask), Mid: fl(o.Mid), PrevClose: fl(o.PrevDayClose), IV: fl(o.IV)}
	if o.Delta.Valid && o.Gamma.Valid && o.Theta.Valid && o.Vega.Valid {
		q.Greeks = pricing.Greeks{Delta: o.Delta.V, Gamma: o.Gamma.V, Theta: o.Theta.V, Vega: o.Vega.V}
		q.HasGreeks = true
	}
	return q
}

// UnderlyingQuote is the underlying's quote, for a stock leg.
func UnderlyingQuote(u *api.Underlying) Quote {
	q := NoQuote
	q.Bid, q.Ask, q.Mid, q.PrevClose = fl(u.Bid), fl(u.Ask), fl(u.Mid), fl(u.PrevDayClose)
	if math.IsNaN(q.Mid) {
		q.Mid = u.Spot()
	}
	return q
}

func fl(v api.Float) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.V
}

// NotListedError is a leg the chain does not list, with the nearest
// contract it does.
type NotListedError struct {
	Leg     Leg
	Nearest string
}

func (e *NotListedError) Error() string {
	s := fmt.Sprintf("%s %s is not listed", e.Leg.Root, e.Leg.String())
	if e.Nearest != "" {
		s += "; the nearest listed is " + e.Nearest
	}
	return s
}

// MarketOf finds each leg of s in chain (the legs' expiries of its
// underlying) and returns the market they are valued at, or the first
// leg that is not listed, naming the nearest one that is. Each option
// leg's carry is its series' as the chain's quotes tell it (carry.go).
func MarketOf(s *Strategy, chain *api.SymbolWithOptions, now time.Time) (Market, error) {
	return marketIn(s, chain, IndexOf(chain), nil, now)
}

// IndexOf is chain's contracts by OSI symbol, built once for every
// strategy marked on the chain.
func IndexOf(chain *api.SymbolWithOptions) map[string]*api.OptionData {
	byOSI := make(map[string]*api.OptionData, len(chain.Options))
	for i := range chain.Options {
		byOSI[chain.Options[i].Option] = &chain.Options[i]
	}
	return byOSI
}

// marketIn is MarketOf with the chain's index built, and its carries
// when another strategy on the chain has already asked (nil: solved
// here).
func marketIn(s *Strategy, chain *api.SymbolWithOptions, byOSI map[string]*api.OptionData, cs *carries, now time.Time) (Market, error) {
	spot := PricingSpot(&chain.Underlying)
	m := Market{Spot: spot, Now: now, Quotes: make([]Quote, 0, len(s.Legs)), Carry: make([]Carry, 0, len(s.Legs))}
	for i := range s.Legs {
		l := &s.Legs[i]
		if l.Kind == Stock {
			m.Quotes = append(m.Quotes, UnderlyingQuote(&chain.Underlying))
			m.Carry = append(m.Carry, Carry{Carry: DefaultCarry})
			continue
		}
		o := byOSI[l.OSI()]
		if o == nil {
			return m, &NotListedError{Leg: *l, Nearest: nearestListed(l, chain.Options)}
		}
		if cs == nil {
			cs = carriesOf(chain, spot, now)
		}
		m.Quotes = append(m.Quotes, QuoteOf(o))
		m.Carry = append(m.Carry, cs.of(l.Root, l.Expiry))
	}
	return m, nil
}

// nearestListed is the listed contract nearest l: its type and root on
// its expiry at the nearest strike, else the nearest expiry.
func nearestListed(l *Leg, opts []api.OptionData) string {
	var strikes []float64
	var exps []api.Date
	for i := range opts {
		o := &opts[i]
		if o.Root != l.Root || string(o.OptionType) != string(l.Kind) {
			continue
		}
		if o.Expiry == l.Expiry {
			strikes = append(strikes, o.Strike)
		} else if !containsDate(exps, o.Expiry) {
			exps = append(exps, o.Expiry)
		}
	}
	return Nearest(l, strikes, exps)
}
