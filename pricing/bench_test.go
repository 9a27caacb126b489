package pricing

import (
	"math"
	"testing"
)

// benchParams is a chain-like mix: strikes from 70 % to 130 % of spot,
// expiries from a day to two years, calls and puts.
func benchParams() []Params {
	var ps []Params
	for _, T := range []float64{1.0 / 365, 7.0 / 365, 30.0 / 365, 0.25, 1, 2} {
		for K := 70.0; K <= 130; K += 2.5 {
			v := benchSmile(K, T)
			ps = append(ps,
				Params{S: 100, K: K, T: T, R: 0.045, Q: 0.013, Vol: v, Call: true},
				Params{S: 100, K: K, T: T, R: 0.045, Q: 0.013, Vol: v})
		}
	}
	return ps
}

var sink float64

// benchSmile is a skewed smile steepening toward expiry, the shape of the
// sandbox's surface (sandbox/sim keeps that one) without importing it.
func benchSmile(K, T float64) float64 {
	m := math.Log(K/100) / math.Sqrt(T)
	return 0.2 * (1 - 0.1*m + 0.05*m*m)
}

func BenchmarkPrice(b *testing.B) {
	ps := benchParams()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sink += Price(ps[i%len(ps)])
		i++
	}
}

func BenchmarkCompute(b *testing.B) {
	ps := benchParams()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		price, g := Compute(ps[i%len(ps)])
		sink += price + g.Delta + g.Gamma + g.Vega + g.Theta + g.Rho
		i++
	}
}

// BenchmarkImpliedVol inverts mid prices a little off theoretical value,
// as the sim does for quotes.
func BenchmarkImpliedVol(b *testing.B) {
	ps := benchParams()
	prices := make([]float64, 0, len(ps))
	kept := ps[:0]
	for _, p := range ps {
		price := math.Round(Price(p)*100)/100 + 0.005
		if lo, hi := Bounds(p); price > lo && price < hi {
			if _, ok := ImpliedVol(price, p); ok {
				prices = append(prices, price)
				kept = append(kept, p)
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := i % len(kept)
		v, _ := ImpliedVol(prices[j], kept[j])
		sink += v
		i++
	}
}

// americanParams is benchParams with American exercise and SPY's yield:
// most of its puts have their trigger in reach (the formula), most calls
// not (the European closed form).
func americanParams() []Params {
	ps := benchParams()
	for i := range ps {
		ps[i].American, ps[i].Q = true, 0.0115
	}
	return ps
}

func BenchmarkAmericanCompute(b *testing.B) {
	ps := americanParams()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		price, g := Compute(ps[i%len(ps)])
		sink += price + g.Delta + g.Gamma + g.Vega + g.Theta + g.Rho
		i++
	}
}

// BenchmarkAmericanImpliedVolFrom inverts mids a little off the value, from
// the value's vol and greeks, as the sim does for quotes.
func BenchmarkAmericanImpliedVolFrom(b *testing.B) {
	ps := americanParams()
	type start struct {
		p      Params
		v, mid float64
		g      Greeks
	}
	var kept []start
	for _, p := range ps {
		v, g := Compute(p)
		mid := math.Round(v*100)/100 + 0.005
		if lo, hi := Bounds(p); mid > lo+0.01 && mid < hi {
			if _, _, ok := ImpliedVolFrom(mid, p, v, g); ok {
				kept = append(kept, start{p, v, mid, g})
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s := &kept[i%len(kept)]
		v, g, _ := ImpliedVolFrom(s.mid, s.p, s.v, s.g)
		sink += v + g.Delta
		i++
	}
}

func TestNoAllocs(t *testing.T) {
	p := Params{S: 100, K: 95, T: 0.3, R: 0.04, Q: 0.01, Vol: 0.3}
	a := p
	a.American = true
	n := testing.AllocsPerRun(100, func() {
		price, g := Compute(p)
		v, _ := ImpliedVol(price, p)
		ap, ag := Compute(a)
		av, _, _ := ImpliedVolFrom(ap+0.01, a, ap, ag)
		sink += g.Delta + v + av
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
