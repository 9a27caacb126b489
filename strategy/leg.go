// Package strategy is an options strategy with no terminal in it: its
// legs and their syntax, the net price at mid and at the natural, net
// greeks and their dollar forms, max profit and loss, breakevens, the
// probability of profit, and P&L at expiry and at any date by repricing
// the legs on the chain's own model and carry (pnl.go, carry.go). The
// strategy page, the positions page,
// `chainwatch strategy` and `chainwatch positions` compute the same
// figures from this one place.
package strategy

import (
	"chainwatch/pricing"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// Kind is what a leg holds: a call, a put or the underlying itself.
type Kind byte

// The kinds of leg.
const (
	Call  Kind = 'C'
	Put   Kind = 'P'
	Stock Kind = 'S'
)

// MaxQty is the largest quantity of one leg: contracts for an option,
// shares for the underlying.
const MaxQty = 10000

// MaxLegs bounds a strategy: four legs make an iron condor; a ticket of
// more than a dozen is a typo, not a trade.
const MaxLegs = 12

// Leg is one line of a strategy: Qty bought (above zero) or sold (below)
// of an option (Root, Expiry, Strike) or of the underlying (Kind Stock,
// Root the symbol, Qty in shares).
type Leg struct {
	Kind   Kind
	Qty    int
	Root   string
	Expiry api.Date
	Strike float64
	// Price is the fill, per share, when known (a position's legs, a
	// leg written with @price); NaN otherwise.
	Price float64
}

// Multiplier is the shares one unit of the leg stands for.
func (l *Leg) Multiplier() float64 {
	if l.Kind == Stock {
		return 1
	}
	return pricing.Multiplier
}

// Units is the leg's signed size in shares: quantity times multiplier.
func (l *Leg) Units() float64 { return float64(l.Qty) * l.Multiplier() }

// Option reports whether the leg is an option.
func (l *Leg) Option() bool { return l.Kind == Call || l.Kind == Put }

// OSI is the leg's option symbol ("" for the underlying).
func (l *Leg) OSI() string {
	if !l.Option() {
		return ""
	}
	s, err := api.FormatOSI(l.Root, l.Expiry, api.OptionType(l.Kind), l.Strike)
	if err != nil {
		return ""
	}
	return s
}

// OSIOf is the leg's parsed option symbol, false for the underlying.
func (l *Leg) OSIOf() (api.OSI, bool) {
	if !l.Option() {
		return api.OSI{}, false
	}
	o, err := api.NewOSI(l.Root, l.Expiry, api.OptionType(l.Kind), l.Strike)
	return o, err == nil
}

// String is the leg in the strategy syntax's short form: "+1 C700
// 2026-12-18", "-2 P650.5 2026-12-18", "+100 SPY".
func (l *Leg) String() string {
	q := strconv.Itoa(l.Qty)
	if l.Qty > 0 {
		q = "+" + q
	}
	if l.Kind == Stock {
		return q + " " + l.Root
	}
	return q + " " + string(l.Kind) + FormatStrike(l.Strike) + " " + l.Expiry.String()
}

// FormatStrike is a strike as the ladder shows it: no trailing zeros.
func FormatStrike(k float64) string { return strconv.FormatFloat(k, 'f', -1, 64) }

// Payoff is the leg's value per share at expiry with the underlying at s.
func (l *Leg) Payoff(s float64) float64 {
	if l.Kind == Stock {
		return s
	}
	return pricing.Intrinsic(l.Kind == Call, s, l.Strike)
}

// YearsTo is the time from now to the option's expiry in years
// (market.YearsTo: to its session's close, ACT/365), zero once it has passed.
func YearsTo(now time.Time, d api.Date) float64 {
	return math.Max(market.YearsTo(d, now), 0)
}

// Strategy is legs on one underlying.
type Strategy struct {
	Symbol string
	Legs   []Leg
}

// String is the strategy in the syntax Parse reads, each option leg as
// its OSI symbol, so that it reads back the same.
func (s *Strategy) String() string {
	parts := []string{s.Symbol}
	for i := range s.Legs {
		l := &s.Legs[i]
		q := strconv.Itoa(l.Qty)
		if l.Qty > 0 {
			q = "+" + q
		}
		p := q + "x" + l.OSI()
		if l.Kind == Stock {
			p = q + "x" + l.Root
		}
		if !math.IsNaN(l.Price) {
			p += "@" + strconv.FormatFloat(l.Price, 'f', -1, 64)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// Expiries are the legs' expiries, earliest first, each once.
func (s *Strategy) Expiries() []api.Date {
	var ds []api.Date
	for i := range s.Legs {
		if d := s.Legs[i].Expiry; s.Legs[i].Option() && !containsDate(ds, d) {
			ds = append(ds, d)
		}
	}
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j] < ds[j-1]; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
	return ds
}

func containsDate(ds []api.Date, d api.Date) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// CheckDates refuses a leg that expired before today.
func (s *Strategy) CheckDates(today api.Date) error {
	for i := range s.Legs {
		l := &s.Legs[i]
		if l.Option() && l.Expiry < today {
			return fmt.Errorf("leg %d (%s) expired on %s, before today %s", i+1, l.String(), l.Expiry, today)
		}
	}
	return nil
}

// expired is the first expiry of an option leg before today, if any.
func (s *Strategy) expired(today api.Date) (api.Date, bool) {
	for i := range s.Legs {
		if l := &s.Legs[i]; l.Option() && l.Expiry < today {
			return l.Expiry, true
		}
	}
	return 0, false
}

// spanMargin widens a Span's strikes either side, so that the chain's
// carry (carry.go) has call/put pairs nearer the money than far legs.
const spanMargin = 0.05

// Span is what a request for the legs' contracts may be narrowed to: their
// expiries, and their strikes widened by spanMargin.
func (s *Strategy) Span() api.Span {
	var sp api.Span
	for i := range s.Legs {
		l := &s.Legs[i]
		if !l.Option() {
			continue
		}
		if sp.MinExpiry == 0 || l.Expiry < sp.MinExpiry {
			sp.MinExpiry = l.Expiry
		}
		if sp.MinStrike == 0 || l.Strike < sp.MinStrike {
			sp.MinStrike = l.Strike
		}
		sp.MaxExpiry = max(sp.MaxExpiry, l.Expiry)
		sp.MaxStrike = max(sp.MaxStrike, l.Strike)
		sp.Key += l.OSI() + ","
	}
	if sp.MinStrike > 0 {
		sp.MinStrike = max(0.01, math.Floor(sp.MinStrike*(1-spanMargin)*100)/100)
		sp.MaxStrike = math.Ceil(sp.MaxStrike*(1+spanMargin)*100) / 100
	}
	return sp
}
