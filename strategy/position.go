package strategy

import (
	"fmt"
	"math"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/pricing"
)

// Position is a saved strategy: the file's entry (config.Position) and
// its legs read, each with its fill.
type Position struct {
	config.Position
	Strategy Strategy
}

// FromSaved reads a saved position's legs.
func FromSaved(p config.Position) (Position, error) {
	st, err := Parse(p.Symbol + " " + strings.Join(p.Legs, " "))
	if err != nil {
		return Position{}, fmt.Errorf("position %d: %w", p.ID, err)
	}
	for i := range st.Legs {
		if math.IsNaN(st.Legs[i].Price) {
			return Position{}, fmt.Errorf("position %d: leg %d has no fill (@price)", p.ID, i+1)
		}
	}
	return Position{Position: p, Strategy: st}, nil
}

// Saved is st as a new position with id, its legs filled at the prices
// given (fills[i] for leg i), opened at now.
func Saved(id int, st *Strategy, fills []float64, now time.Time) config.Position {
	p := config.Position{ID: id, Name: st.Name(), Symbol: st.Symbol, Opened: now}
	for i := range st.Legs {
		l := st.Legs[i]
		l.Price = math.Round(fills[i]*10000) / 10000
		one := Strategy{Symbol: st.Symbol, Legs: []Leg{l}}
		p.Legs = append(p.Legs, strings.TrimPrefix(one.String(), st.Symbol+" "))
	}
	return p
}

// Fills are the prices a strategy trades at now: at mid (natural false)
// or at the natural (pay the ask, receive the bid); a leg's own @price
// when it has one. ok is false while a leg has no such price.
func Fills(st *Strategy, m *Market, natural bool) (fills []float64, ok bool) {
	for i := range st.Legs {
		l := &st.Legs[i]
		q := m.quote(i)
		p := q.MidPrice()
		switch {
		case !math.IsNaN(l.Price):
			p = l.Price
		case l.Kind == Stock && math.IsNaN(p):
			p = m.Spot
		case natural && l.Qty > 0:
			p = q.Ask
		case natural:
			p = q.Bid
		}
		if math.IsNaN(p) {
			return nil, false
		}
		fills = append(fills, p)
	}
	return fills, true
}

// Realized is a closed position's P&L: each leg's closing fill less its
// opening one.
func (p *Position) Realized() float64 {
	v := 0.0
	for i := range p.Strategy.Legs {
		l := &p.Strategy.Legs[i]
		if i < len(p.Close) {
			v += l.Units() * (p.Close[i] - l.Price)
		}
	}
	return v
}

// OpenedToday reports whether the position was opened on now's day:
// its P&L today counts from its fills, not the previous close.
func (p *Position) OpenedToday(now time.Time) bool {
	return api.DateOf(p.Opened.In(api.Eastern)) == api.Today(now)
}

// Spans are the requests that mark positions: one per underlying, over
// the open positions' legs.
func Spans(ps []Position) map[string]api.Span {
	all := map[string]*Strategy{}
	for i := range ps {
		if !ps[i].Open() {
			continue
		}
		s := all[ps[i].Strategy.Symbol]
		if s == nil {
			s = &Strategy{Symbol: ps[i].Strategy.Symbol}
			all[s.Symbol] = s
		}
		s.Legs = append(s.Legs, ps[i].Strategy.Legs...)
	}
	out := make(map[string]api.Span, len(all))
	for sym, s := range all {
		out[sym] = s.Span()
	}
	return out
}

// Marked is one position's figures at its underlying's chain.
type Marked struct {
	Value, SinceOpen, Today float64
	Greeks                  pricing.Greeks // an open position's (Strategy.Greeks)
	Spot                    float64        // its underlying's, for its dollar delta
	OK                      bool           // every leg had a mid
	Err                     string         // why it is not marked
}

// Mark marks each position on the chains by symbol (closed ones are
// their realized P&L, marked or not; an open one with a leg expired
// before now's day is not marked: "expired Nov24").
func Mark(ps []Position, chains map[string]*api.SymbolWithOptions, now time.Time) []Marked {
	out := make([]Marked, len(ps))
	idx := make(map[string]map[string]*api.OptionData, len(chains))
	cs := make(map[string]*carries, len(chains))
	for sym, ch := range chains {
		if ch != nil {
			idx[sym] = IndexOf(ch)
			cs[sym] = carriesOf(ch, PricingSpot(&ch.Underlying), now)
		}
	}
	for i := range ps {
		p := &ps[i]
		if !p.Open() {
			v := p.Realized()
			out[i] = Marked{SinceOpen: v, OK: true}
			continue
		}
		if d, ok := p.Strategy.expired(api.Today(now)); ok {
			// The chain lists it no more: "not listed" would blame the leg.
			out[i].Err = "expired " + d.Time(time.UTC).Format("Jan02")
			continue
		}
		ch := chains[p.Strategy.Symbol]
		if ch == nil {
			out[i].Err = "no quote yet"
			continue
		}
		m, err := marketIn(&p.Strategy, ch, idx[p.Strategy.Symbol], cs[p.Strategy.Symbol], now)
		if err != nil {
			out[i].Err = err.Error()
			continue
		}
		v, open, today, ok := p.Strategy.Mark(&m, p.OpenedToday(now))
		out[i] = Marked{Value: v, SinceOpen: open, Today: today, Greeks: p.Strategy.Greeks(&m), Spot: m.Spot, OK: ok}
		if !ok {
			out[i].Err = "a leg has no mid"
		}
	}
	return out
}
