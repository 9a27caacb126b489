package pricing_test

import (
	"math"
	"testing"

	"chainwatch/pricing"
	"chainwatch/sandbox/market"
)

// chainAt is a chain priced by the model at (r, q) with a skewed smile:
// each contract's mid and the IV it was priced at, as the service
// publishes them.
func chainAt(s, t, r, q float64, american bool, strikes []float64) []pricing.CarryQuote {
	var out []pricing.CarryQuote
	for _, k := range strikes {
		vol := 0.2 - 0.3*math.Log(k/s)
		for _, call := range []bool{true, false} {
			p := pricing.Params{S: s, K: k, T: t, R: r, Q: q, Vol: vol, Call: call, American: american}
			out = append(out, pricing.CarryQuote{Strike: k, Call: call, Mid: pricing.Price(p), IV: vol})
		}
	}
	return out
}

func TestImpliedCarryRecoversTheModelsInputs(t *testing.T) {
	strikes := []float64{640, 660, 680, 690, 700, 705, 710, 720, 740, 760}
	cases := []struct {
		name        string
		t, r, q     float64
		american    bool
		tolR, tolQ  float64
		wantTheFail bool
	}{
		{name: "European, a year", t: 1, r: 0.0425, q: 0.0125, tolR: 1e-6, tolQ: 1e-6},
		{name: "European, a month", t: 30.0 / 365, r: 0.035, q: 0.02, tolR: 1e-5, tolQ: 1e-5},
		{name: "American, a quarter", t: 0.25, r: 0.045, q: 0.013, american: true, tolR: 1e-5, tolQ: 1e-5},
		// A European fit would put the puts' early exercise premium in
		// a negative rate, where the American model has none.
		{name: "American, two weeks", t: 14.0 / 365, r: 0.038, q: 0.0115, american: true, tolR: 1e-5, tolQ: 1e-5},
		{name: "American, no dividend", t: 0.5, r: 0.05, q: 0, american: true, tolR: 1e-5, tolQ: 1e-5},
		{name: "an hour left", t: 1.0 / (365 * 24), r: 0.04, q: 0.01, wantTheFail: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			quotes := chainAt(702.5, tc.t, tc.r, tc.q, tc.american, strikes)
			c, ok := pricing.ImpliedCarry(702.5, tc.t, tc.american, quotes)
			if tc.wantTheFail {
				if ok {
					t.Fatalf("an hour's chain told carry %+v; it cannot", c)
				}
				return
			}
			if !ok {
				t.Fatal("ImpliedCarry: not ok")
			}
			if math.Abs(c.R-tc.r) > tc.tolR || math.Abs(c.Q-tc.q) > tc.tolQ {
				t.Fatalf("carry %+v, want r %v q %v", c, tc.r, tc.q)
			}
		})
	}
}

func TestImpliedCarryNeedsBothSides(t *testing.T) {
	quotes := chainAt(100, 0.5, 0.04, 0.01, false, []float64{95, 100, 105})
	var calls []pricing.CarryQuote
	for _, q := range quotes {
		if q.Call {
			calls = append(calls, q)
		}
	}
	if c, ok := pricing.ImpliedCarry(100, 0.5, false, calls); ok {
		t.Fatalf("calls alone told carry %+v", c)
	}
	if _, ok := pricing.ImpliedCarry(100, 0.5, false, nil); ok {
		t.Fatal("no quotes told a carry")
	}
	if _, ok := pricing.ImpliedCarry(100, 0, false, quotes); ok {
		t.Fatal("an expired chain told a carry")
	}
}

// Every symbol and option root the sandbox lists prices as the sandbox
// does: American unless it is an index.
func TestAmericanStyleAsTheSandboxLists(t *testing.T) {
	for _, s := range market.Default().Optionable() {
		want := s.Kind != market.Index
		if got := pricing.AmericanStyle(s.Symbol); got != want {
			t.Errorf("AmericanStyle(%s) = %v, want %v", s.Symbol, got, want)
		}
		for _, root := range s.Roots {
			if got := pricing.AmericanStyle(root); got != want {
				t.Errorf("AmericanStyle(%s root %s) = %v, want %v", s.Symbol, root, got, want)
			}
		}
	}
	if pricing.AmericanStyle("$spx") || !pricing.AmericanStyle("spy") {
		t.Error("case or a leading $ changes the style")
	}
}
