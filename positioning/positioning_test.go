package positioning

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/pricing"
)

// rawKey names one expiry of one root in a raw snapshot.
type rawKey struct {
	date api.Date
	root string
}

// oiOf is a raw contract's open interest as the figures count it.
func oiOf(o *api.OptionData) float64 {
	if !o.OpenInterest.Valid || o.OpenInterest.V < 0 {
		return 0
	}
	return float64(o.OpenInterest.V)
}

// TestMaxPainByBruteForce: every expiry's max pain is the strike where,
// trying each strike of the expiry in turn as the settlement price and
// summing over the raw snapshot's contracts what the holders' calls and
// puts are worth there, the sum is least (the lowest strike on a tie).
func TestMaxPainByBruteForce(t *testing.T) {
	for seed := range uint64(6) {
		snap := fixture(9, 41, seed)
		c := FromSnapshot(snap, day, at)
		raw := map[rawKey][]*api.OptionData{}
		for i := range snap.Options {
			o := &snap.Options[i]
			raw[rawKey{o.Expiry, o.Root}] = append(raw[rawKey{o.Expiry, o.Root}], o)
		}
		f := Compute(c, Range{Kind: AllExpiries}.Select(c))
		if len(f.MaxPain) != len(raw) || len(raw) < 9 {
			t.Fatalf("seed %d: %d max pains for %d expiries", seed, len(f.MaxPain), len(raw))
		}
		for _, p := range f.MaxPain {
			opts := raw[rawKey{p.Date, p.Root}]
			want, wantPain := math.NaN(), math.Inf(1)
			for _, cand := range opts {
				pain := 0.0
				for _, o := range opts {
					if o.OptionType == api.Call {
						pain += oiOf(o) * max(cand.Strike-o.Strike, 0)
					} else {
						pain += oiOf(o) * max(o.Strike-cand.Strike, 0)
					}
				}
				if pain < wantPain || pain == wantPain && cand.Strike < want {
					want, wantPain = cand.Strike, pain
				}
			}
			if p.Strike != want {
				t.Errorf("seed %d, %s %s: max pain %v, brute force %v", seed, p.Date, p.Root, p.Strike, want)
			}
		}
	}
}

// TestMaxPainWithoutOpenInterest: an expiry nobody holds has no max pain.
func TestMaxPainWithoutOpenInterest(t *testing.T) {
	rows := []Row{{Strike: 1, Call: nullSide, Put: nullSide}, {Strike: 2, Call: Side{OI: 0}, Put: Side{OI: 0}}}
	if v := MaxPain(rows); !math.IsNaN(v) {
		t.Fatalf("max pain %v without open interest", v)
	}
	rows[1].Put.OI = 5 // a put at 2: worth least settling at 2
	if v := MaxPain(rows); v != 2 {
		t.Fatalf("max pain %v, want 2", v)
	}
}

// TestGEXByPlainLoop: per strike and in total, the dealers' gamma
// exposure, open interest and volume of a range are those of a plain
// loop over the raw snapshot's contracts in it: gamma x OI x 100 x spot²
// x 0.01, calls positive and puts negative; and the walls and the
// put/call ratio follow from them.
func TestGEXByPlainLoop(t *testing.T) {
	snap := fixture(20, 61, 3)
	// Every gamma sent: an estimated one is TestEstimatedGamma's.
	for i := range snap.Options {
		if o := &snap.Options[i]; !o.Gamma.Valid {
			o.Gamma = api.Some(0.0001)
		}
	}
	c := FromSnapshot(snap, day, at)
	spot := snap.Underlying.Spot()
	for _, tc := range []struct {
		r    Range
		keep func(d api.Date) bool
	}{
		{Range{Kind: AllExpiries}, func(api.Date) bool { return true }},
		{Range{Kind: WithinDays, Days: 10}, func(d api.Date) bool { return day.DaysUntil(d) <= 10 }},
		{Range{Kind: FirstFrom}, func(d api.Date) bool { return d == day }},
		{Range{Kind: OnDate, Date: day.AddDays(4)}, func(d api.Date) bool { return d == day.AddDays(4) }},
	} {
		f := Compute(c, tc.r.Select(c))
		type sums struct{ callOI, putOI, callVol, putVol, gex float64 }
		by := map[float64]*sums{}
		var total sums
		for i := range snap.Options {
			o := &snap.Options[i]
			if !tc.keep(o.Expiry) {
				continue
			}
			s := by[o.Strike]
			if s == nil {
				s = &sums{}
				by[o.Strike] = s
			}
			vol := 0.0
			if o.Volume.Valid {
				vol = float64(o.Volume.V)
			}
			g := 0.0
			if o.Gamma.Valid {
				g = o.Gamma.V * oiOf(o) * 100 * spot * spot * 0.01
			}
			if o.OptionType == api.Put {
				s.putOI += oiOf(o)
				s.putVol += vol
				s.gex -= g
				total.putOI += oiOf(o)
				total.putVol += vol
				total.gex -= g
			} else {
				s.callOI += oiOf(o)
				s.callVol += vol
				s.gex += g
				total.callOI += oiOf(o)
				total.callVol += vol
				total.gex += g
			}
		}
		if len(f.Rows) != len(by) {
			t.Fatalf("%s: %d rows, %d strikes", tc.r.Label(), len(f.Rows), len(by))
		}
		wantCW, wantPW, bestC, bestP := math.NaN(), math.NaN(), 0.0, 0.0
		for i := range f.Rows {
			r := &f.Rows[i]
			s := by[r.Strike]
			if s == nil || float64(r.CallOI) != s.callOI || float64(r.PutOI) != s.putOI ||
				float64(r.CallVolume) != s.callVol || float64(r.PutVolume) != s.putVol || !near(r.GEX(), s.gex, 1e-6*math.Abs(total.gex)) {
				t.Fatalf("%s: strike %v is %+v (GEX %v), a plain loop %+v", tc.r.Label(), r.Strike, *r, r.GEX(), s)
			}
			if i > 0 && f.Rows[i-1].Strike >= r.Strike {
				t.Fatalf("%s: rows not ascending at %v", tc.r.Label(), r.Strike)
			}
		}
		for k, s := range by {
			if k >= spot && (s.callOI > bestC || s.callOI == bestC && s.callOI > 0 && k < wantCW) {
				wantCW, bestC = k, s.callOI
			}
			if k <= spot && (s.putOI > bestP || s.putOI == bestP && s.putOI > 0 && k > wantPW) {
				wantPW, bestP = k, s.putOI
			}
		}
		if float64(f.CallOI) != total.callOI || float64(f.PutOI) != total.putOI || !near(f.GEX, total.gex, 1e-6*math.Abs(total.gex)) ||
			!near(f.CallGEX+f.PutGEX, f.GEX, 1e-9*math.Abs(f.GEX)) || f.PCOI != total.putOI/total.callOI {
			t.Errorf("%s: totals %+v, a plain loop %+v", tc.r.Label(), f, total)
		}
		if f.CallWall != wantCW || f.PutWall != wantPW {
			t.Errorf("%s: walls %v / %v, a plain loop %v / %v", tc.r.Label(), f.CallWall, f.PutWall, wantCW, wantPW)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// knownFlip is a chain of one call at 6100 and one put at 5900 of the
// same expiry, IV and open interest: the exposure, S x OI x (φ(d1 call) -
// φ(d1 put)) / (σ√T), changes sign once, where the two d1 are opposite:
// at √(6100 x 5900) x e^(-σ²T/2).
func knownFlip(iv float64, days int) (*Chain, float64) {
	exp := day.AddDays(days)
	snap := &api.SymbolWithOptions{}
	snap.Symbol, snap.LastTradePrice, snap.Timestamp = "SPX", api.Some(6001.5), api.NewTimeOfDay(10, 0, 0, 0)
	for _, o := range []struct {
		typ    api.OptionType
		strike float64
	}{{api.Call, 6100}, {api.Put, 5900}} {
		// The gamma the service would send: the curve is scaled to it.
		_, g := pricing.Compute(pricing.Params{S: 6001.5, K: o.strike, T: market.YearsTo(exp, at), Vol: iv, Call: o.typ == api.Call})
		snap.Options = append(snap.Options, api.OptionData{Root: "SPXW", Expiry: exp, Strike: o.strike, OptionType: o.typ,
			OpenInterest: api.Some(int64(1000)), IV: api.Some(iv), Gamma: api.Some(g.Gamma)})
	}
	c := FromSnapshot(snap, day, at)
	sd2 := iv * iv * c.Exps[0].T
	return c, math.Sqrt(6100*5900) * math.Exp(-sd2/2)
}

// TestZeroGammaWhereKnown: the level found is the one the closed form
// gives, to a millionth of spot, whatever the expiry's IV and distance.
func TestZeroGammaWhereKnown(t *testing.T) {
	for _, tc := range []struct {
		iv   float64
		days int
	}{{0.2, 7}, {0.12, 2}, {0.35, 30}, {0.2, 0}} {
		c, want := knownFlip(tc.iv, tc.days)
		sel := Range{Kind: AllExpiries}.Select(c)
		for _, n := range []int{ZeroGammaGrid, 7} {
			got := NewCurve(c, sel).ZeroGamma(c.Spot, n)
			if math.Abs(got.Level-want) > c.Spot*2e-6 || got.Sign != 0 {
				t.Errorf("IV %v, %d days, grid %d: zero gamma %+v, want %v", tc.iv, tc.days, n, got, want)
			}
			if cv := NewCurve(c, sel); cv.At(want*0.99) >= 0 || cv.At(want*1.01) <= 0 {
				t.Errorf("IV %v, %d days: the exposure is not negative below the level and positive above", tc.iv, tc.days)
			}
		}
	}
}

// TestZeroGammaNone: with calls alone the exposure is positive over the
// whole range: no level, and the sign says which way it leans.
func TestZeroGammaNone(t *testing.T) {
	c, _ := knownFlip(0.2, 7)
	c.Exps[0].Rows = c.Exps[0].Rows[1:] // the call at 6100 only
	got := NewCurve(c, []int{0}).ZeroGamma(c.Spot, ZeroGammaGrid)
	if !math.IsNaN(got.Level) || got.Sign != 1 {
		t.Fatalf("calls only: %+v", got)
	}
	empty := NewCurve(c, nil).ZeroGamma(c.Spot, ZeroGammaGrid)
	if !math.IsNaN(empty.Level) || empty.Sign != 0 {
		t.Fatalf("nothing held: %+v", empty)
	}
}

// TestCurveIsBSMGamma: a contract's repriced exposure is the sandbox's
// Black-Scholes-Merton gamma (no rate, no dividend) x OI x 100 x S² x
// 0.01, at spots across the range and for expiries from a minute away
// (priced as a minute, as the service does) to a year.
func TestCurveIsBSMGamma(t *testing.T) {
	for _, days := range []int{0, 1, 30, 365} {
		c, _ := knownFlip(0.25, days)
		c.Exps[0].Rows = c.Exps[0].Rows[1:] // the call at 6100
		r := c.Exps[0].Rows[0]
		cv := NewCurve(c, []int{0})
		spots := []float64{5400, 5900, 6000, 6099, 6100, 6101, 6300, 6600}
		wants := make([]float64, len(spots))
		peak := 0.0
		for i, s := range spots {
			_, g := pricing.Compute(pricing.Params{S: s, K: r.Strike, T: c.Exps[0].T, Vol: float64(r.Call.IV), Call: true})
			wants[i] = g.Gamma * 1000 * 100 * s * s * 0.01
			peak = max(peak, wants[i])
		}
		for i, s := range spots {
			// Far in the tail (beyond 9 standard deviations) a contract
			// counts as nothing: relative to its peak, it is.
			if got := cv.At(s); !near(got, wants[i], 1e-9*peak) {
				t.Errorf("%d days, spot %v: %v, bsm %v", days, s, got, wants[i])
			}
		}
	}
}

// TestGridIsAt: the grid's walk gives the exposure At computes directly,
// at every spot, on a busy chain.
func TestGridIsAt(t *testing.T) {
	c := FromSnapshot(fixture(24, 120, 5), day, at)
	cv := NewCurve(c, Range{Kind: AllExpiries}.Select(c))
	spots, gex := cv.Grid(c.Spot*0.9, c.Spot*1.1, 97)
	scale := 0.0
	for _, g := range gex {
		scale = max(scale, math.Abs(g))
	}
	if scale == 0 || cv.Len() < 1000 {
		t.Fatalf("a flat curve: %d contracts", cv.Len())
	}
	for i, s := range spots {
		if want := cv.At(s); !near(gex[i], want, 1e-9*scale) {
			t.Errorf("spot %v: grid %v, At %v", s, gex[i], want)
		}
	}
}

// TestRanges: which expiries each range takes.
func TestRanges(t *testing.T) {
	c := FromSnapshot(fixture(20, 3, 1), day, at) // expiries every two days from Tue Nov 24
	dates := func(r Range) []api.Date {
		var out []api.Date
		for _, i := range r.Select(c) {
			if n := len(out); n == 0 || out[n-1] != c.Exps[i].Date {
				out = append(out, c.Exps[i].Date)
			}
		}
		return out
	}
	for _, tc := range []struct {
		r     Range
		first api.Date
		n     int
	}{
		{Range{Kind: FirstFrom}, day, 1},
		{Range{Kind: FirstFrom, Days: 3}, day.AddDays(4), 1},
		{Range{Kind: ThisWeek}, day, 2}, // Tue 24, Thu 26 (Fri 27 is not listed)
		{Range{Kind: WithinDays, Days: 30}, day, 16},
		{Range{Kind: AllExpiries}, day, 20},
		{Range{Kind: OnDate, Date: day.AddDays(8)}, day.AddDays(8), 1},
		{Range{Kind: OnDate, Date: day.AddDays(1)}, 0, 0},
	} {
		got := dates(tc.r)
		if len(got) != tc.n || tc.n > 0 && got[0] != tc.first {
			t.Errorf("%s: %v", tc.r.Label(), got)
		}
	}
	// Both roots of a date are one expiry of the range.
	if sel := (Range{Kind: OnDate, Date: day.AddDays(4)}).Select(c); len(sel) != 2 || c.Exps[sel[0]].Root != "SPX" || c.Exps[sel[1]].Root != "SPXW" {
		t.Errorf("both roots of a date: %v", sel)
	}
}

// TestFromSnapshotNulls: a null count is -1, a null float NaN; settled
// expiries are left out; the data's time is the underlying's timestamp.
func TestFromSnapshotNulls(t *testing.T) {
	snap := fixture(2, 1, 9)
	old := snap.Options[0]
	old.Expiry = day.AddDays(-1)
	snap.Options = append([]api.OptionData{old}, snap.Options...)
	snap.Options[1].OpenInterest, snap.Options[1].Gamma = api.Int{}, api.Float{}
	c := FromSnapshot(snap, day, at.Add(3*time.Hour))
	if len(c.Exps) != 2 || c.Exps[0].Date != day {
		t.Fatalf("expiries %+v", c.Exps)
	}
	call := c.Exps[0].Rows[0].Call
	if call.OI != -1 || !math.IsNaN(float64(call.Gamma)) || !c.AsOf.Equal(at) {
		t.Fatalf("nulls %+v, as of %v", call, c.AsOf)
	}
	if want := 6.0 / 24 / 365; math.Abs(c.Exps[0].T-want) > 1e-12 {
		t.Fatalf("T %v, want %v (10:00 to the 16:00 close)", c.Exps[0].T, want)
	}
}
