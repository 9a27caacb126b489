package pricing

import (
	"math"
	"testing"
)

// TestAmericanValueIsTheJets: the value alone (what quotes use) is the
// value the jets carry, to rounding, wherever the trigger is in reach.
func TestAmericanValueIsTheJets(t *testing.T) {
	n := 0
	americanGrid(func(p Params) {
		plain, j := americanValue(p), americanJet(p)
		if d := math.Abs(plain - j.v); d > 1e-12*math.Max(p.K, plain) {
			t.Errorf("%+v: value %v, jets %v", p, plain, j.v)
		}
		if !far(p) {
			n++
		}
	})
	if n < 500 {
		t.Errorf("only %d options with the trigger in reach", n)
	}
}

// TestPriceRangeBracketsPrice holds PriceRange around Price over a grid
// of moneyness, expiries from minutes to years, vols, rates and dividend
// yields, calls and puts: exact where Price is the European value (or
// the intrinsic one), else lo <= Price <= hi.
func TestPriceRangeBracketsPrice(t *testing.T) {
	exact, brackets := 0, 0
	for _, S := range []float64{20, 60, 85, 95, 99, 100, 101, 105, 115, 140, 250, 1000} {
		for _, T := range []float64{1e-5, 2e-4, 7e-4, 3e-3, 0.02, 0.08, 0.25, 1, 3} {
			for _, v := range []float64{0.02, 0.08, 0.15, 0.3, 0.6, 1.2, 2.5} {
				for _, rq := range [][2]float64{{0.04, 0}, {0.04, 0.012}, {0.038, 0.0115}, {0.05, 0.08}, {0, 0.03}, {-0.005, 0.01}, {0.1, 0}} {
					for _, call := range []bool{true, false} {
						p := Params{S: S, K: 100, T: T, R: rq[0], Q: rq[1], Vol: v, Call: call, American: true}
						price := Price(p)
						lo, hi := PriceRange(p)
						switch {
						case lo == hi:
							exact++
							if lo != price {
								t.Fatalf("%+v: PriceRange %v exactly, Price %v", p, lo, price)
							}
						case !(lo <= price && price <= hi):
							t.Fatalf("%+v: Price %v outside PriceRange [%v, %v]", p, price, lo, hi)
						default:
							brackets++
						}
					}
				}
			}
		}
	}
	if exact == 0 || brackets == 0 {
		t.Fatalf("%d exact, %d bracketed: the grid misses a case", exact, brackets)
	}
	eu := Params{S: 101, K: 100, T: 0.1, R: 0.04, Q: 0.01, Vol: 0.2, Call: false}
	if lo, hi := PriceRange(eu); lo != Price(eu) || hi != lo {
		t.Fatalf("European: PriceRange [%v, %v], Price %v", lo, hi, Price(eu))
	}
}
