package sim

import (
	"math"
	"sync"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
)

// dayState is what one symbol's day inherits from the previous trading
// day: its closing iv30, the closing mids of the contracts (each contract's
// option_prev_day_close) and the open interest. Each part is computed on
// first use: the scanner needs open interest and iv30 of a hundred symbols,
// a chain needs the closing mids of one.
type dayState struct {
	b    *book
	prev *book // the previous trading day's listing; nil before the first day

	ivOnce sync.Once
	iv     api.Float // previous close's iv30, percentage points

	oiOnce  sync.Once
	oi      []int64
	oiTotal int64

	midMu   sync.Mutex
	prevMid []float64 // NaN: not listed at the previous close, or not yet asked for
	midDone []bool    // by series of b: its prevMid are set
}

// state returns the day state of b's day.
func (m *Market) state(b *book) *dayState {
	st, _ := m.states.get(dayKey{b.sec.Symbol, b.date}, func() (*dayState, bool) {
		st := &dayState{b: b}
		if p, ok := m.book(b.sec, nyse.PrevTradingDay(b.date)); ok {
			st.prev = p
		}
		return st, true
	})
	return st
}

// prevIV30 is the iv30 of the previous trading day's close, in percentage
// points as the field is, so that the change is the difference of two
// published values.
func (st *dayState) prevIV30() api.Float {
	st.ivOnce.Do(func() {
		if st.prev == nil {
			return
		}
		c := st.prev.at(nyse.SessionClose(st.prev.date))
		if iv, ok := c.iv30(); ok {
			st.iv = api.Some(round(100*iv, 2))
		}
	})
	return st.iv
}

// openInterest is start-of-day open interest: a base that is highest near
// the money and at the monthly expiries (where positions gather), plus half
// of the contract's volume on the previous trading day, so open interest
// grows with yesterday's trading as it does when new positions open.
func (st *dayState) openInterest(m *Market) ([]int64, int64) {
	st.oiOnce.Do(func() {
		b := st.b
		var ok bool
		if st.oi, ok = m.oiFile.load(b.sec.Symbol, b.date, b.n); ok {
			st.total()
			return
		}
		st.oi = make([]int64, b.n)
		for i := range b.series {
			s := &b.series[i]
			for k := range s.Strikes {
				st.oi[s.base+2*k] = b.baseOI(s, k, false)
				st.oi[s.base+2*k+1] = b.baseOI(s, k, true)
			}
		}
		if st.prev != nil {
			// Yesterday's trades, if not cached whole, are drawn again
			// without caching them: the scanner needs this for every
			// symbol, and only the volumes.
			sk, ok := m.skelCache(st.prev.date).peek(dayKey{st.prev.sec.Symbol, st.prev.date})
			if !ok || !sk.whole {
				sk = generate(st.prev)
			}
			vol := sk.volumes(st.prev.n)
			matchContracts(st.prev, b, nil, func(pi, ci int) { st.oi[ci] += vol[pi] / 2 })
			m.oiFile.store(b.sec.Symbol, b.date, st.oi)
		}
		st.total()
	})
	return st.oi, st.oiTotal
}

func (st *dayState) total() {
	for _, v := range st.oi {
		st.oiTotal += v
	}
}

// baseOI is the deterministic part of a contract's open interest. Each
// series holds a total that is largest at the monthlies (quarterlies most)
// and shrinks with time to expiry; it is spread over strikes as a normal
// density in standard deviations from the previous close, each strike
// taking its share of the density (so a dense grid does not multiply the
// total), out-of-the-money sides a little more.
func (b *book) baseOI(s *series, k int, put bool) int64 {
	K, S0 := s.Strikes[k], b.day.PrevClose
	T := math.Max(float64(s.days), 1) / 365
	sd := b.sec.Vol * math.Sqrt(T)
	x := math.Log(K/S0) / sd
	lo, hi := s.Strikes[max(k-1, 0)], s.Strikes[min(k+1, len(s.Strikes)-1)]
	dx := math.Log(hi/lo) / float64(max(min(k+1, len(s.Strikes)-1)-max(k-1, 0), 1)) / sd
	const w = 1.8 // width of the open interest, in standard deviations
	share := math.Exp(-x*x/(2*w*w)) / (w * 2.5066282746310002) * dx
	if put == (K < S0) { // out of the money: where hedges and lottery tickets sit
		share *= 1.3
	} else {
		share *= 0.7
	}
	ef := 1.0
	switch {
	case s.monthly:
		ef = 3
		if m := s.Expiry.Month(); m%3 == 0 {
			ef = 4
		}
	case s.days <= 1:
		ef = 0.5
	}
	total := min(max(float64(b.sec.AvgVolume)/300, 5_000), 200_000)
	switch {
	case b.sec.Symbol == "SPX" || b.sec.Symbol == "SPY":
		total = 150_000
	case b.sec.Kind == market.Index: // indices report no share volume
		total = 20_000
	}
	h := mix(s.seed ^ uint64(k)<<1 ^ 0x5eed)
	if put {
		h = mix(h)
	}
	oi := total / 2 * ef * share * (0.4 + 1.2*unit(h)) / (1 + 0.7*math.Sqrt(T))
	if oi < 1 {
		// A few stray contracts in the far wings, never none: a strike
		// stays listed for the positions opened on it (market/listing.go).
		return 1 + int64(h>>59)
	}
	return int64(oi)
}

// prevClose returns the previous trading day's closing mid of each
// contract of the expiries x: the quote computed at that day's close on
// that day's path, as the chain showed it then. NaN where the contract was
// not listed, and for the other expiries unless an earlier caller asked
// for them (a chain of one week prices that week's closes, not a year's).
// The slice is shared: its entries for x are final once returned, and
// later callers only fill other series.
func (st *dayState) prevClose(x Expiries) []float64 {
	st.midMu.Lock()
	defer st.midMu.Unlock()
	if st.prevMid == nil {
		st.prevMid = make([]float64, st.b.n)
		for i := range st.prevMid {
			st.prevMid[i] = math.NaN()
		}
		st.midDone = make([]bool, len(st.b.series))
	}
	if st.prev == nil {
		return st.prevMid
	}
	want := func(i int) bool { return x.keep(st.b.series[i].Expiry) && !st.midDone[i] }
	var c tickCtx
	have := false
	var e expiry
	var last *series
	matchContracts(st.prev, st.b, want, func(pi, ci int) {
		if !have {
			c, have = st.prev.at(nyse.SessionClose(st.prev.date)), true
		}
		s, k, put := st.prev.contract(pi)
		if s != last {
			e, last = c.expiry(s), s
		}
		q := c.quote(s, &e, k, put)
		st.prevMid[ci] = q.mid()
	})
	for i := range st.b.series {
		if x.keep(st.b.series[i].Expiry) {
			st.midDone[i] = true
		}
	}
	return st.prevMid
}

// matchContracts calls f for every contract listed in both books, with its
// number in each: series by root and expiry, strikes merged in order; only
// for the series of to whose index keep takes (all of them when keep is
// nil).
func matchContracts(from, to *book, keep func(i int) bool, f func(fi, ti int)) {
	type key struct {
		root   string
		expiry api.Date
	}
	idx := make(map[key]int, len(from.series))
	for i := range from.series {
		idx[key{from.series[i].Root, from.series[i].Expiry}] = i
	}
	for i := range to.series {
		t := &to.series[i]
		if keep != nil && !keep(i) {
			continue
		}
		j, ok := idx[key{t.Root, t.Expiry}]
		if !ok {
			continue
		}
		fs := &from.series[j]
		a, b := 0, 0
		for a < len(fs.Strikes) && b < len(t.Strikes) {
			ka, kb := math.Round(fs.Strikes[a]*1000), math.Round(t.Strikes[b]*1000)
			switch {
			case ka < kb:
				a++
			case ka > kb:
				b++
			default:
				f(fs.base+2*a, t.base+2*b)
				f(fs.base+2*a+1, t.base+2*b+1)
				a++
				b++
			}
		}
	}
}
