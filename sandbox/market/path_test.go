package market

import (
	"math"
	"testing"

	"chainwatch/api"
	"chainwatch/market"
)

func lookup(t testing.TB, u *Universe, sym string) *Security {
	t.Helper()
	s, ok := u.Lookup(sym)
	if !ok {
		t.Fatalf("%s not in the universe", sym)
	}
	return s
}

func TestAnchorCloseIsPrice(t *testing.T) {
	u := Default()
	for _, s := range u.All() {
		if got := u.Close(s, Anchor); got != s.Price {
			t.Errorf("%s: close on Anchor %v, want %v", s.Symbol, got, s.Price)
		}
		if got := u.VolLevel(s, Anchor); math.Abs(got-s.Vol) > 1e-12 {
			t.Errorf("%s: vol on Anchor %v, want %v", s.Symbol, got, s.Vol)
		}
		if got := u.Close(s, 20261122); got != s.Price {
			t.Errorf("%s: Sunday after Anchor closes at %v, want Friday's %v", s.Symbol, got, s.Price)
		}
	}
}

func TestDeterminism(t *testing.T) {
	a, b := Default(), newUniverse(4)
	for _, sym := range []string{"SPX", "AAPL", "VIX", "SPY", "TLT"} {
		sa, sb := lookup(t, a, sym), lookup(t, b, sym)
		for _, d := range []api.Date{20030505, 20110615, 20200323, 20250613, 20261119} {
			if a.Close(sa, d) != b.Close(sb, d) || a.VolLevel(sa, d) != b.VolLevel(sb, d) {
				t.Errorf("%s %v: two universes disagree", sym, d)
			}
			da, _ := a.Day(sa, d)
			db, _ := b.Day(sb, d)
			for tm := market.SessionOpen; tm < da.CloseTime; tm += 997 * 13 {
				if da.Price(tm) != db.Price(tm) || da.Volume(tm) != db.Volume(tm) || da.Vol(tm) != db.Vol(tm) {
					t.Fatalf("%s %v %v: days disagree", sym, d, tm)
				}
			}
		}
	}
}

// TestRealisedVol checks that daily log returns over five years have a
// standard deviation near the implied vol (a little under, as realised
// vol is), earnings jumps included.
func TestRealisedVol(t *testing.T) {
	u := Default()
	for _, sym := range []string{"SPX", "AAPL", "KO", "TSLA", "XLE", "TLT"} {
		s := lookup(t, u, sym)
		var sum, sq float64
		n := 0
		prev := u.Close(s, 20211231)
		for d := market.NextTradingDay(20211231); d <= Anchor; d = market.NextTradingDay(d) {
			c := u.Close(s, d)
			r := math.Log(c / prev)
			sum, sq, n = sum+r, sq+r*r, n+1
			prev = c
		}
		mean := sum / float64(n)
		sd := math.Sqrt((sq/float64(n)-mean*mean)*252) / s.Vol
		if sd < 0.75 || sd > 1.2 {
			t.Errorf("%s: realised vol is %.2f of the implied vol", sym, sd)
		}
	}
}

func TestTrackers(t *testing.T) {
	u := Default()
	spx, spy, xsp := lookup(t, u, "SPX"), lookup(t, u, "SPY"), lookup(t, u, "XSP")
	googl, goog := lookup(t, u, "GOOGL"), lookup(t, u, "GOOG")
	vix := lookup(t, u, "VIX")
	for d := api.Date(20110103); d <= Anchor; d = dateOf(dayNum(d) + 37) {
		x := u.Close(spx, d)
		if r := u.Close(spy, d) / x * 10; math.Abs(r-spy.Price/spx.Price*10) > 0.001 {
			t.Errorf("%v: SPY/SPX*10 = %v", d, r)
		}
		if math.Abs(u.Close(xsp, d)-x/10) > 0.0051 {
			t.Errorf("%v: XSP %v, SPX %v", d, u.Close(xsp, d), x)
		}
		if r := u.Close(goog, d) / u.Close(googl, d); math.Abs(r-goog.Price/googl.Price) > 0.001 {
			t.Errorf("%v: GOOG/GOOGL = %v", d, r)
		}
		if v, want := u.Close(vix, d), 100*u.VolLevel(spx, d)*vix.Price/(100*spx.Vol); math.Abs(v-want) > 0.0051 {
			t.Errorf("%v: VIX %v, want %v from the SPX vol level", d, v, want)
		}
		if u.VolLevel(spy, d) != u.VolLevel(spx, d) {
			t.Errorf("%v: SPY and SPX vol levels differ", d)
		}
	}
}

func TestVolLevelBounds(t *testing.T) {
	u := Default()
	for _, s := range u.All() {
		for d := api.Date(20030102); d <= Anchor; d = dateOf(dayNum(d) + 91) {
			v := u.VolLevel(s, d) / s.Vol
			if v < 0.49 || v > 3.33 {
				t.Errorf("%s %v: vol level %.2f x Vol", s.Symbol, d, v)
			}
		}
	}
}

// TestLeverage checks that on the S&P 500 vol rises when the price falls:
// daily changes of log price and log vol are clearly negatively correlated.
func TestLeverage(t *testing.T) {
	u := Default()
	spx := lookup(t, u, "SPX")
	var xs, ys []float64
	pc, pv := u.Close(spx, 20191231), u.VolLevel(spx, 20191231)
	for d := market.NextTradingDay(20191231); d <= Anchor; d = market.NextTradingDay(d) {
		c, v := u.Close(spx, d), u.VolLevel(spx, d)
		xs, ys = append(xs, math.Log(c/pc)), append(ys, math.Log(v/pv))
		pc, pv = c, v
	}
	if c := correlation(xs, ys); c > -0.3 {
		t.Errorf("price/vol correlation %.2f, want clearly negative", c)
	}
}

func correlation(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(ys))
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestPastIsCheaper(t *testing.T) {
	u := Default()
	lower := 0
	stocks := 0
	for _, s := range u.All() {
		if s.Kind != Stock || s.Since > 20030102 {
			continue
		}
		stocks++
		c := u.Close(s, 20030505)
		if c < s.Price {
			lower++
		}
		if c < 0.5 || c > 5*s.Price {
			t.Errorf("%s: implausible 2003 close %v against %v", s.Symbol, c, s.Price)
		}
	}
	if lower < stocks*3/4 {
		t.Errorf("only %d of %d stocks were cheaper in 2003", lower, stocks)
	}
	if c := u.Close(lookup(t, u, "SPX"), 20030505); c < 500 || c > 2500 {
		t.Errorf("SPX in 2003 at %v", c)
	}
}

func BenchmarkClose(b *testing.B) {
	u := Default()
	s := lookup(b, u, "AAPL")
	d := api.Date(20150615)
	for b.Loop() {
		u.Close(s, d)
	}
}

func BenchmarkVolLevel(b *testing.B) {
	u := Default()
	s := lookup(b, u, "AAPL")
	d := api.Date(20150615)
	for b.Loop() {
		u.VolLevel(s, d)
	}
}
