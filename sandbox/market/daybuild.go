package market

import (
	"math"

	"chainwatch/api"
	"chainwatch/market"
)

// Building a Day. The close is the daily path's; the open gaps from the
// previous close by a share of the day's move plus noise (and the whole
// earnings jump on a report's reaction day); the session in between is a
// Brownian bridge in log price whose variance runs faster near the open
// and the close. Trackers reuse their index's path scaled by their ratio,
// and the VIX's path is 100 x the S&P 500's intraday vol level, so the
// VIX spikes in the very second SPX drops.

// Day returns the session of s on d, false if d is not a trading day or
// is before s.Since. Days are cached (bounded), so a caller may ask again
// cheaply within a request or a tick.
func (u *Universe) Day(s *Security, d api.Date) (*Day, bool) {
	m := u.model(s)
	if m == nil || !market.IsTradingDay(d) || d < s.Since {
		return nil, false
	}
	return u.day(m, d), true
}

// day returns the cached or new Day of a model (no Since check: a
// tracker may be older than its base's data is shown).
func (u *Universe) day(m *model, d api.Date) *Day {
	key := dayKey{m.sec.Symbol, d}
	if day, ok := u.days.get(key); ok {
		return day
	}
	return u.days.put(key, u.buildDay(m, d))
}

// buildDay computes a Day without the cache.
func (u *Universe) buildDay(m *model, d api.Date) *Day {
	s := m.sec
	n := dayNum(d)
	np := prevTrading(n)
	day := &Day{
		Date: d, CloseTime: market.SessionClose(d), scale: 1,
		PrevClose: round2(math.Exp(m.logClose(np))), Close: round2(math.Exp(m.logClose(n))),
		logPC: m.logClose(np), lambda: m.lambda,
		vol:    [2]float64{s.Vol * math.Exp(m.logVolMult(np)), s.Vol * math.Exp(m.logVolMult(n))},
		trades: s.Kind != Index, sizes: mix(m.key, uint64(n), 7), big: math.Min(1, 300/s.Price),
	}
	secs := int(day.CloseTime-market.SessionOpen) / 1000
	switch m.kind {
	case trackPath:
		b := u.day(m.base, d)
		day.path, day.hiBlk, day.loBlk, day.scale = b.path, b.hiBlk, b.loBlk, m.ratio
		day.Open = round2(b.raw(0) * m.ratio)
		day.lambda = m.base.lambda
	case vixPath:
		b := u.day(m.base, d)
		day.path = make([]float32, secs)
		for k := range day.path {
			day.path[k] = float32(100 * m.ratio * b.volAt(k))
		}
		day.Open = round2(day.raw(0))
		day.blocks()
	default:
		day.bridge(m, n, np, secs)
		day.blocks()
	}
	if day.trades {
		day.volumes(m, n, np, secs)
	}
	return day
}

// bridge fills the per-second path of an own-path day.
func (day *Day) bridge(m *model, n, np, secs int) {
	lp, lc := m.logClose(np), m.logClose(n)
	r := lc - lp
	sd := realisedShare * math.Sqrt(day.vol[0]*day.vol[1]) / math.Sqrt(252)
	rng := newRand(mix(m.key, uint64(n)), 1)
	jump := m.jump(n) - m.jump(np)
	gap := 0.3*(r-jump) + 0.3*sd*rng.NormFloat64()
	if m.earn.when != api.DuringMarket {
		gap += jump
	}
	lo := lp + gap
	// Variance clock: cum[k] is the share of the session's variance
	// elapsed at second k; the bridge is exact in that clock.
	w := make([]float64, secs+1)
	for k := 1; k <= secs; k++ {
		x := float64(k) / float64(secs)
		w[k] = w[k-1] + 1 + 2*math.Exp(-x/0.04) + 0.8*math.Exp(-(1-x)/0.03)
	}
	sdSec := sd * math.Sqrt(0.85/w[secs])
	b := make([]float64, secs+1)
	for k := 1; k <= secs; k++ {
		b[k] = b[k-1] + sdSec*math.Sqrt(w[k]-w[k-1])*rng.NormFloat64()
	}
	day.path = make([]float32, secs)
	for k := range day.path {
		f := w[k] / w[secs]
		day.path[k] = float32(math.Exp(lo + b[k] - f*b[secs] + f*(lc-lo)))
	}
	day.Open = round2(math.Exp(lo))
}

// blocks computes the running minute maxima and minima for HighLow.
func (day *Day) blocks() {
	nb := (len(day.path) + 59) / 60
	day.hiBlk, day.loBlk = make([]float32, nb), make([]float32, nb)
	h, l := day.path[0], day.path[0]
	for i, p := range day.path {
		h, l = max(h, p), min(l, p)
		if i%60 == 59 || i == len(day.path)-1 {
			day.hiBlk[i/60], day.loBlk[i/60] = h, l
		}
	}
}

// volumes fills the day's volume profile and crosses.
func (day *Day) volumes(m *model, n, np, secs int) {
	s := m.sec
	rng := newRand(mix(m.key, uint64(n)), 2)
	sd := realisedShare * day.vol[1] / math.Sqrt(252)
	r := math.Abs(math.Log(day.Close / day.PrevClose))
	total := float64(s.AvgVolume) * math.Exp(0.25*rng.NormFloat64()-0.03) * (0.8 + 0.2*math.Min(5, r/sd))
	if m.jump(n) != m.jump(np) {
		total *= 2.5
	}
	mins := (secs + 59) / 60
	wts := make([]float64, mins)
	sum := 0.0
	for i := range wts {
		wts[i] = (1 + 2.5*math.Exp(-float64(i)/20) + 2*math.Exp(-float64(mins-1-i)/20)) * math.Exp(0.3*rng.NormFloat64())
		sum += wts[i]
	}
	day.cumVol = make([]float64, mins+1)
	day.cumVol[0] = math.Round(0.01 * total * math.Exp(0.3*rng.NormFloat64()))
	for i, w := range wts {
		day.cumVol[i+1] = day.cumVol[i] + total*w/sum
	}
	day.cross = [2]int64{closingCross(m, np), closingCross(m, n)}
	day.total = int64(day.cumVol[mins]) + day.cross[1]
}

// closingCross is the size of a day's closing auction print, drawn from
// (symbol, day) alone so that the next day knows it without building
// this one.
func closingCross(m *model, n int) int64 {
	return int64(float64(m.sec.AvgVolume) * 0.06 * math.Exp(0.3*normal(m.key, uint64(n)<<8|3)))
}
