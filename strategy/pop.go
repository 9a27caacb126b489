package strategy

import (
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/pricing"
)

// The probability of profit: the underlying lognormal at the legs' IV,
// drifting risk-neutrally at the chain's r - q unless a real-world drift
// is asked for (Market.RealWorld). Figures.PoPBasis words it.

// firstYears is the time in years to the first of the legs on expiry d
// to settle (an AM-settled root's at 09:30).
func (s *Strategy) firstYears(now time.Time, d api.Date) float64 {
	t := math.Inf(1)
	for i := range s.Legs {
		if l := &s.Legs[i]; l.Option() && l.Expiry == d {
			t = min(t, legYears(l, now))
		}
	}
	if math.IsInf(t, 1) {
		return YearsTo(now, d)
	}
	return t
}

// drift is the underlying's drift a year that PoP assumes: the market's
// real-world one, else the risk-neutral r - q of the first leg on
// expiry d.
func (s *Strategy) drift(m *Market, d api.Date) float64 {
	if m.RealWorld {
		return m.Drift
	}
	for i := range s.Legs {
		if l := &s.Legs[i]; l.Option() && l.Expiry == d {
			c := m.carry(i)
			return c.R - c.Q
		}
	}
	return DefaultCarry.R - DefaultCarry.Q
}

// sigma is the IV the probability assumes: the quantity-weighted mean of
// the IVs of the legs expiring on d.
func (s *Strategy) sigma(m *Market, d api.Date) float64 {
	sum, w := 0.0, 0.0
	for i := range s.Legs {
		l := &s.Legs[i]
		q := m.quote(i)
		if l.Option() && l.Expiry == d && !math.IsNaN(q.IV) && q.IV > 0 {
			n := math.Abs(float64(l.Qty))
			sum += n * q.IV
			w += n
		}
	}
	if w == 0 {
		return math.NaN()
	}
	return sum / w
}

// pop is the lognormal probability, at drift mu a year, that the P&L at
// t is above zero: the chance of each stretch between breakevens where
// it is.
func pop(p *Pricer, bes []float64, t time.Time, spot, mu, sigma, T float64) float64 {
	if math.IsNaN(sigma) || math.IsNaN(spot) || T <= 0 {
		return math.NaN()
	}
	sd := sigma * math.Sqrt(T)
	cdf := func(x float64) float64 {
		if x <= 0 {
			return 0
		}
		return pricing.NormCDF((math.Log(x/spot) - (mu-sigma*sigma/2)*T) / sd)
	}
	edges := append([]float64{0}, bes...)
	prob := 0.0
	for j, a := range edges {
		b, probe := math.Inf(1), a*2+1
		if j+1 < len(edges) {
			b = edges[j+1]
			probe = (a + b) / 2
		}
		if p.PnL(probe, t) > 0 {
			hi := 1.0
			if !math.IsInf(b, 1) {
				hi = cdf(b)
			}
			prob += hi - cdf(a)
		}
	}
	return prob
}
