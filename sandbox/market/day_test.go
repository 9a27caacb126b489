package market

import (
	"math"
	"sync"
	"testing"

	"chainwatch/api"
	"chainwatch/market"
)

func TestDaySession(t *testing.T) {
	u := Default()
	for _, sym := range []string{"SPX", "AAPL", "SPY", "VIX", "BRK.A", "F"} {
		s := lookup(t, u, sym)
		for _, d := range []api.Date{Anchor, 20261127, 20200316, 20030505} {
			day, ok := u.Day(s, d)
			if !ok {
				t.Fatalf("%s %v: no day", sym, d)
			}
			checkDay(t, u, s, day)
		}
	}
}

func checkDay(t *testing.T, u *Universe, s *Security, day *Day) {
	t.Helper()
	d := day.Date
	if day.CloseTime != market.SessionClose(d) {
		t.Errorf("%s %v: close time %v", s.Symbol, d, day.CloseTime)
	}
	if day.PrevClose != u.Close(s, market.PrevTradingDay(d)) || day.Close != u.Close(s, d) {
		t.Errorf("%s %v: closes %v %v disagree with the daily path", s.Symbol, d, day.PrevClose, day.Close)
	}
	if day.Price(0) != day.PrevClose || day.Price(market.SessionOpen-1) != day.PrevClose {
		t.Errorf("%s %v: before the open the price is not the previous close", s.Symbol, d)
	}
	if day.Price(market.SessionOpen) != day.Open || day.Price(day.CloseTime) != day.Close || day.Price(api.DayMillis-1) != day.Close {
		t.Errorf("%s %v: path does not start at Open and end at Close", s.Symbol, d)
	}
	if len(day.path) != int(day.CloseTime-market.SessionOpen)/1000 || len(day.path) > 23400 {
		t.Errorf("%s %v: %d seconds", s.Symbol, d, len(day.path))
	}
	if g := math.Abs(math.Log(day.Open / day.PrevClose)); g > 0.2 {
		t.Errorf("%s %v: opening gap %.3f", s.Symbol, d, g)
	}
	// Continuity: no one-second move above 1 % (VIX: 3 %), and the last
	// second is near the close.
	limit := 0.01
	if s.Symbol == "VIX" {
		limit = 0.03
	}
	prev := day.raw(0)
	for k := 1; k < len(day.path); k++ {
		p := day.raw(k)
		if math.Abs(math.Log(p/prev)) > limit {
			t.Fatalf("%s %v: jump of %.4f at second %d", s.Symbol, d, math.Log(p/prev), k)
		}
		prev = p
	}
	if math.Abs(math.Log(prev/day.Close)) > limit {
		t.Errorf("%s %v: last second %v far from close %v", s.Symbol, d, prev, day.Close)
	}
	var lastHi, lastLo, lastVol = 0.0, math.Inf(1), int64(0)
	for tm := market.SessionOpen - 1000; tm <= day.CloseTime+1000; tm += 60_000 + 7 {
		hi, lo := day.HighLow(tm)
		p := day.Price(tm)
		if tm >= market.SessionOpen && (p > hi || p < lo) {
			t.Fatalf("%s %v %v: price %v outside [%v, %v]", s.Symbol, d, tm, p, lo, hi)
		}
		if tm >= market.SessionOpen && (hi < lastHi || lo > lastLo) {
			t.Fatalf("%s %v %v: high/low went back", s.Symbol, d, tm)
		}
		lastHi, lastLo = hi, lo
		v := day.Volume(tm)
		if v < lastVol {
			t.Fatalf("%s %v %v: volume fell", s.Symbol, d, tm)
		}
		lastVol = v
		if vol := day.Vol(tm); vol < 0.03 || vol > 3 {
			t.Fatalf("%s %v %v: vol %v", s.Symbol, d, tm, vol)
		}
		if size := day.LastSize(tm); (s.Kind == Index) != (size == 0) {
			t.Fatalf("%s %v %v: last size %d", s.Symbol, d, tm, size)
		}
	}
	if day.Vol(0) != u.VolLevel(s, market.PrevTradingDay(d)) || day.Vol(day.CloseTime) != u.VolLevel(s, d) {
		t.Errorf("%s %v: vol does not run from yesterday's level to today's", s.Symbol, d)
	}
	if s.Kind != Index {
		total := day.Volume(day.CloseTime)
		if total < s.AvgVolume/4 || total > s.AvgVolume*6 {
			t.Errorf("%s %v: volume %d against an average %d", s.Symbol, d, total, s.AvgVolume)
		}
		if day.Volume(day.CloseTime-1) >= total || day.Volume(market.SessionOpen) <= 0 {
			t.Errorf("%s %v: no opening or closing cross", s.Symbol, d)
		}
	}
}

func TestDayNotAvailable(t *testing.T) {
	u := Default()
	meta := lookup(t, u, "META")
	for _, d := range []api.Date{20261121, 20261126, 20120517} {
		if _, ok := u.Day(meta, d); ok {
			t.Errorf("META has a day on %v", d)
		}
	}
	if _, ok := u.Day(meta, 20120518); !ok {
		t.Error("META has no first day")
	}
}

// TestVolumeProfile checks the U shape: the first and last half hours
// trade more per minute than the middle of the day.
func TestVolumeProfile(t *testing.T) {
	u := Default()
	var first, mid, last float64
	for _, sym := range []string{"AAPL", "SPY", "JPM", "XOM"} {
		day, _ := u.Day(lookup(t, u, sym), Anchor)
		at := func(h, m int) float64 { return float64(day.Volume(api.NewTimeOfDay(h, m, 0, 0))) }
		first += at(10, 0) - at(9, 30)
		mid += at(13, 0) - at(12, 30)
		last += at(15, 59) - at(15, 29)
	}
	if first < 1.5*mid || last < 1.5*mid {
		t.Errorf("volume per half hour: first %.0f, middle %.0f, last %.0f", first, mid, last)
	}
}

func TestDayCacheBounded(t *testing.T) {
	u := newUniverse(4)
	s := lookup(t, u, "KO")
	d := api.Date(20260302)
	for i := 0; i < 12; i++ {
		u.Day(s, d)
		d = market.NextTradingDay(d)
	}
	if n := u.days.len(); n != 4 {
		t.Errorf("cache holds %d days, want 4", n)
	}
}

func TestConcurrentUse(t *testing.T) {
	u := newUniverse(8)
	syms := []string{"SPX", "SPY", "AAPL", "VIX", "QQQ"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				s, _ := u.Lookup(syms[(g+i)%len(syms)])
				d := market.LastTradingDay(dateOf(dayNum(20261001) + (g*7+i)%30))
				if day, ok := u.Day(s, d); !ok || day.Close != u.Close(s, d) {
					t.Errorf("%s %v: day disagrees", s.Symbol, d)
				}
				if i%5 == 0 {
					u.Series(s, d)
				}
			}
		}(g)
	}
	wg.Wait()
}

// BenchmarkDayBuild builds a day without the cache: an index (per-second
// bridge), a stock (bridge and volumes) and a tracker (volumes only; its
// index's day comes from the cache).
func BenchmarkDayBuild(b *testing.B) {
	u := Default()
	for _, sym := range []string{"SPX", "AAPL", "SPY", "VIX"} {
		m := u.model(lookup(b, u, sym))
		b.Run(sym, func(b *testing.B) {
			for b.Loop() {
				u.buildDay(m, Anchor)
			}
		})
	}
}

func BenchmarkDayCached(b *testing.B) {
	u := Default()
	s := lookup(b, u, "SPX")
	for b.Loop() {
		u.Day(s, Anchor)
	}
}
