package market

import (
	"math"

	"chainwatch/api"
	"chainwatch/market"
)

// Day is one trading day of one security: the session's open and close
// and its path second by second. It is immutable once built and shared by
// every caller (Universe caches it), so its methods are safe for
// concurrent use.
//
// Before 09:30 the state is the previous close; from CloseTime on it is
// the close; in between, prices come from a per-second Brownian bridge
// from Open to Close, with more movement near the open and the close, as
// real sessions have.
type Day struct {
	Date                   api.Date
	PrevClose, Open, Close float64
	CloseTime              api.TimeOfDay

	path   []float32 // unrounded price at each second from 09:30:00, in base units
	scale  float64   // path multiplier: a tracker shares its index's path
	hiBlk  []float32 // running maximum of path through the end of each minute
	loBlk  []float32 // running minimum likewise
	logPC  float64   // log PrevClose (unrounded path units x scale)
	cumVol []float64 // volume through the start of each minute; last entry is before the closing cross
	total  int64     // the day's volume, closing cross included
	cross  [2]int64  // previous day's closing cross, this day's
	sizes  uint64    // key of the trade-size draws
	big    float64   // trade sizes shrink for high-priced shares
	vol    [2]float64
	lambda float64
	trades bool // false for indices: no volume, no trade sizes
}

// second returns the index of the second that holds t (t within the session).
func (d *Day) second(t api.TimeOfDay) int {
	k := int(t-market.SessionOpen) / 1000
	return min(k, len(d.path)-1)
}

// raw returns the unrounded price at second k.
func (d *Day) raw(k int) float64 { return float64(d.path[k]) * d.scale }

// Price returns the underlying's price at t: the previous close before
// 09:30, the close from CloseTime, the per-second path in between.
func (d *Day) Price(t api.TimeOfDay) float64 {
	switch {
	case t < market.SessionOpen:
		return d.PrevClose
	case t >= d.CloseTime:
		return d.Close
	}
	k := d.second(t)
	if k == 0 {
		return d.Open
	}
	return round2(d.raw(k))
}

// HighLow returns the session's high and low from 09:30 through t (Open
// for both before the open).
func (d *Day) HighLow(t api.TimeOfDay) (hi, lo float64) {
	if t < market.SessionOpen {
		return d.Open, d.Open
	}
	k := d.second(t)
	b := k / 60
	h, l := d.path[b*60], d.path[b*60]
	if b > 0 {
		h, l = max(h, d.hiBlk[b-1]), min(l, d.loBlk[b-1])
	}
	for _, p := range d.path[b*60 : k+1] {
		h, l = max(h, p), min(l, p)
	}
	hi, lo = round2(float64(h)*d.scale), round2(float64(l)*d.scale)
	hi, lo = max(hi, d.Open), min(lo, d.Open)
	if t >= d.CloseTime {
		hi, lo = max(hi, d.Close), min(lo, d.Close)
	}
	return hi, lo
}

// Volume returns the shares traded from 09:30 through t: the opening
// cross at 09:30, a U-shaped flow through the day, the closing cross at
// CloseTime. Zero for indices.
func (d *Day) Volume(t api.TimeOfDay) int64 {
	switch {
	case !d.trades || t < market.SessionOpen:
		return 0
	case t >= d.CloseTime:
		return d.total
	}
	x := int(t - market.SessionOpen)
	i := min(x/60000, len(d.cumVol)-2)
	frac := float64(x-i*60000) / 60000
	return int64(d.cumVol[i] + (d.cumVol[i+1]-d.cumVol[i])*min(frac, 1))
}

// LastSize returns the size of the last underlying trade at or before t:
// before the open the previous session's closing cross, from CloseTime
// this session's, the opening cross in the first second. Zero for indices.
func (d *Day) LastSize(t api.TimeOfDay) int64 {
	switch {
	case !d.trades:
		return 0
	case t < market.SessionOpen:
		return d.cross[0]
	case t >= d.CloseTime:
		return d.cross[1]
	}
	k := d.second(t)
	if k == 0 {
		return int64(d.cumVol[0])
	}
	return tradeSize(d.sizes, uint64(k), d.big)
}

// tradeSize draws a trade size: odd lots, round lots, a few thousand
// shares and a heavy tail of blocks; fewer shares for high-priced stocks.
func tradeSize(key, k uint64, big float64) int64 {
	u := unit(key, k)
	v := unit(key, k+1<<40)
	var n float64
	switch {
	case u < 0.25:
		n = 1 + math.Floor(v*99)
	case u < 0.75:
		n = 100
	case u < 0.88:
		n = 100 * (2 + math.Floor(v*4))
	case u < 0.97:
		n = 100 * (5 + math.Floor(v*26))
	default:
		n = 100 * math.Floor(30*math.Exp(3.5*v))
	}
	return max(1, int64(n*big))
}

// Vol returns the 30-day ATM vol level at t: the previous day's level
// before the open, the day's level from the close, and in between a blend
// that also answers the price at once (leverage: a sell-off lifts vol).
func (d *Day) Vol(t api.TimeOfDay) float64 {
	switch {
	case t < market.SessionOpen:
		return d.vol[0]
	case t >= d.CloseTime:
		return d.vol[1]
	}
	return d.volAt(d.second(t))
}

// volAt is Vol at second k of the session.
func (d *Day) volAt(k int) float64 {
	n := float64(d.CloseTime-market.SessionOpen) / 1000
	f := float64(k) / n
	r := math.Log(d.Close) - d.logPC
	lv := math.Log(d.vol[0]) + f*(math.Log(d.vol[1])-math.Log(d.vol[0])+d.lambda*r) -
		d.lambda*(math.Log(d.raw(k))-d.logPC)
	return math.Max(0.03, math.Min(3, math.Exp(lv)))
}
