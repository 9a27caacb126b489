package strategy

import (
	"chainwatch/pricing"
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// Figures are a strategy's numbers at a market. Money is in dollars (a
// leg's units times its price per share); NaN where the market cannot
// support a figure (a leg without a quote).
type Figures struct {
	// NetMid is the entry at the legs' mids, NetNatural at the natural
	// (pay the ask, receive the bid): above zero a debit.
	NetMid, NetNatural float64
	// Cost is the entry the other figures count from: the legs' fills,
	// else their mids.
	Cost float64
	// Position greeks, the legs' greeks times their units: delta and
	// gamma in shares, theta in dollars a day, vega in dollars a vol
	// point. DollarDelta is delta times spot; DollarGamma the dollar
	// delta gained on a 1% rise (gamma x spot² / 100).
	Delta, Gamma, Theta, Vega float64
	DollarDelta, DollarGamma  float64
	// MaxProfit and MaxLoss are at the first expiry (MaxLoss is negative
	// or zero); +Inf and -Inf when unbounded (the underlying rising
	// without limit; a fall stops at zero).
	MaxProfit, MaxLoss float64
	Breakevens         []float64 // underlying prices at the first expiry, ascending
	// PoP is the probability that P&L at the first expiry is above zero,
	// the underlying lognormal with volatility Sigma, the mean of the
	// legs' IVs on that expiry weighted by their quantities, and drift
	// Drift a year: risk-neutral (the chain's r - q on that expiry) unless
	// the market says RealWorld (PoPBasis words it).
	PoP, Sigma float64
	Drift      float64
	RealWorld  bool
	// Move is the one-standard-deviation move to the first expiry
	// (spot x Sigma x sqrt(T)): the risk graph spans two of them.
	Move   float64
	Expiry api.Date // the first expiry; 0 for the underlying alone
	At     time.Time
}

// Analyze computes the figures of s at m.
func (s *Strategy) Analyze(m *Market) Figures {
	f := Figures{NetNatural: 0, Cost: s.Cost(m)}
	for i := range s.Legs {
		l := &s.Legs[i]
		q := m.quote(i)
		u := l.Units()
		f.NetMid += u * q.MidPrice()
		if u > 0 {
			f.NetNatural += u * q.Ask
		} else {
			f.NetNatural += u * q.Bid
		}
	}
	g := s.Greeks(m)
	f.Delta, f.Gamma, f.Theta, f.Vega = g.Delta, g.Gamma, g.Theta, g.Vega
	if s.stockOnly() {
		f.NetMid, f.NetNatural = f.Cost, f.Cost
	}
	f.DollarDelta = f.Delta * m.Spot
	f.DollarGamma = f.Gamma * m.Spot * m.Spot / 100
	exps := s.Expiries()
	if len(exps) == 0 {
		f.MaxProfit, f.MaxLoss, f.PoP = math.NaN(), math.NaN(), math.NaN()
		return f
	}
	f.Expiry = exps[0]
	f.At = market.ExpiryTime(f.Expiry)
	p := s.Pricer(m, 0)
	xs := s.breakpoints(m.Spot, len(exps) > 1)
	f.MaxProfit, f.MaxLoss = s.extremes(p, xs, f.At)
	f.Breakevens = roots(p, xs, f.At, s.upSlope())
	f.Sigma = s.sigma(m, f.Expiry)
	T := s.firstYears(m.Now, f.Expiry)
	f.Move = m.Spot * f.Sigma * math.Sqrt(T)
	f.Drift, f.RealWorld = s.drift(m, f.Expiry), m.RealWorld
	f.PoP = pop(p, f.Breakevens, f.At, m.Spot, f.Drift, f.Sigma, T)
	return f
}

// Greeks are the position's greeks at m, the legs' times their units
// (Figures says the units): what Analyze counts, without the rest of
// its work, for a page that marks many positions.
func (s *Strategy) Greeks(m *Market) pricing.Greeks {
	var t pricing.Greeks
	for i := range s.Legs {
		u := s.Legs[i].Units()
		g := s.legGreeks(m, i)
		t.Delta += u * g.Delta
		t.Gamma += u * g.Gamma
		t.Theta += u * g.Theta
		t.Vega += u * g.Vega
	}
	return t
}

func (s *Strategy) stockOnly() bool {
	for i := range s.Legs {
		if s.Legs[i].Option() {
			return false
		}
	}
	return true
}

// legGreeks are leg i's greeks per share: the service's, else the
// chain's model's from its IV and carry; the underlying's delta is 1.
func (s *Strategy) legGreeks(m *Market, i int) pricing.Greeks {
	l := &s.Legs[i]
	q := m.quote(i)
	switch {
	case l.Kind == Stock:
		return pricing.Greeks{Delta: 1}
	case q.HasGreeks:
		return q.Greeks
	case math.IsNaN(q.IV) || math.IsNaN(m.Spot):
		return pricing.Greeks{Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN()}
	}
	_, g := pricing.Compute(legParams(l, m.Spot, legYears(l, m.Now), q.IV, m.carry(i).Carry))
	return g
}

// upSlope is the P&L's slope (dollars per 1.00 of the underlying) far
// above every strike: each call and the underlying count their units.
func (s *Strategy) upSlope() float64 {
	slope := 0.0
	for i := range s.Legs {
		if k := s.Legs[i].Kind; k == Call || k == Stock {
			slope += s.Legs[i].Units()
		}
	}
	return slope
}

// breakpoints are where the P&L at the first expiry can turn: zero and
// the strikes (it is straight between them when every leg expires then);
// with later legs, repriced by BSM, a fine grid as well.
func (s *Strategy) breakpoints(spot float64, curved bool) []float64 {
	xs := []float64{0}
	hi := spot
	for i := range s.Legs {
		if s.Legs[i].Option() {
			xs = append(xs, s.Legs[i].Strike)
			hi = max(hi, s.Legs[i].Strike)
		}
	}
	if curved && hi > 0 && !math.IsNaN(hi) {
		const n = 600
		for j := 1; j <= n; j++ {
			xs = append(xs, 3*hi*float64(j)/n)
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// extremes are the largest profit and loss at t over xs, unbounded where
// the slope beyond the last strike says so.
func (s *Strategy) extremes(p *Pricer, xs []float64, t time.Time) (hi, lo float64) {
	hi, lo = math.Inf(-1), math.Inf(1)
	for _, x := range xs {
		v := p.PnL(x, t)
		hi, lo = max(hi, v), min(lo, v)
	}
	switch up := s.upSlope(); {
	case up > 1e-9:
		hi = math.Inf(1)
	case up < -1e-9:
		lo = math.Inf(-1)
	}
	return hi, min(lo, 0)
}

// roots are the breakevens: where the P&L at t crosses zero between the
// breakpoints (exact for straight pieces, refined by bisection on
// curved ones), and beyond the last one along the upward slope.
func roots(p *Pricer, xs []float64, t time.Time, slope float64) []float64 {
	var out []float64
	add := func(x float64) {
		if len(out) == 0 || math.Abs(out[len(out)-1]-x) > 1e-9 {
			out = append(out, x)
		}
	}
	prev := p.PnL(xs[0], t)
	for j := 1; j < len(xs); j++ {
		a, b := xs[j-1], xs[j]
		v := p.PnL(b, t)
		if prev != 0 && v != 0 && (prev < 0) != (v < 0) {
			add(bisect(p, a, b, prev, t))
		} else if v == 0 && prev != 0 && j < len(xs)-1 {
			add(b)
		}
		prev = v
	}
	last := xs[len(xs)-1]
	if slope != 0 && prev != 0 && (prev < 0) == (slope > 0) {
		add(last - prev/slope)
	}
	return out
}

// bisect finds the zero between a and b (f(a)=fa, opposite signs): the
// straight line's root, refined while the curve bends.
func bisect(p *Pricer, a, b, fa float64, t time.Time) float64 {
	fb := p.PnL(b, t)
	for range 60 {
		x := a - fa*(b-a)/(fb-fa)
		fx := p.PnL(x, t)
		if math.Abs(fx) < 1e-7 || b-a < 1e-9 {
			return x
		}
		if (fx < 0) == (fa < 0) {
			a, fa = x, fx
		} else {
			b, fb = x, fx
		}
	}
	return (a + b) / 2
}
