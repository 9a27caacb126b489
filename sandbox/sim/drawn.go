package sim

import (
	"chainwatch/api"
	nyse "chainwatch/market"
)

// A day's trades are drawn as far as they are read, not whole: a chain at
// 11:00 counts and prices the morning's trades, and the afternoon's need
// not exist yet. The orders of a day are drawn in time order from one
// generator (generate), and a trade never prints before its order nor
// moves earlier when the day is sorted and its sweeps spread and kept
// apart (each of which looks only at the trades before it), so the trades
// drawn from the orders through a time are the whole day's trades through
// that time, to the last field: generateThrough keeps those and drops the
// rest. A later reader who needs more draws the day again through a later
// time, and the priced trades carry over to the longer day.

// drawAhead is how far past the time asked for a day is drawn, so that
// the reads of a live day, a second later each, find it drawn for a while.
const drawAhead = 30 * 60_000

// drawUntil is the time through which a day is drawn for a reader of time
// t: drawAhead past it (past the open for a time before it), at most the
// close.
func drawUntil(date api.Date, t api.TimeOfDay) api.TimeOfDay {
	return min(max(t, nyse.SessionOpen)+drawAhead, nyse.SessionClose(date))
}

// skeletonThrough returns b's trades through t at least (the day drawn
// through drawUntil), generated once for each stretch of the day.
func (m *Market) skeletonThrough(b *book, t api.TimeOfDay) (*skeleton, bool) {
	k := dayKey{b.sec.Symbol, b.date}
	t = min(t, nyse.SessionClose(b.date))
	draw := func() (*skeleton, bool) { return generateThrough(b, drawUntil(b.date, t)), true }
	cache := m.skelCache(b.date)
	sk, ok := cache.get(k, draw)
	if ok && sk.until < t {
		cache.forget(k, func(old *skeleton) bool { return old.until < t })
		if sk, ok = cache.get(k, draw); ok && sk.until < t {
			return draw() // a shorter day drawn meanwhile for another reader
		}
	}
	return sk, ok
}

// skelCache is where date's skeletons are kept. A day before today's is
// kept in a cache of its own, bounded by the trades it holds: the scanner
// keeps the whole market's today, but a backfill asks for the close of
// one day after another, and each day's skeleton (tens of thousands of
// trades) held in the entry-bounded cache of today's would add up to
// hundreds of MB.
func (m *Market) skelCache(date api.Date) *lru[dayKey, *skeleton] {
	if date < api.DateOf(m.now().In(api.Eastern)) {
		return m.pastSk
	}
	return m.skels
}

// tradeDayThrough returns b's day of trades drawn through t at least,
// priced as read. A day drawn further carries over the prices of the
// shorter one.
func (m *Market) tradeDayThrough(b *book, t api.TimeOfDay) (*tradeDay, bool) {
	k := dayKey{b.sec.Symbol, b.date}
	t = min(t, nyse.SessionClose(b.date))
	var shorter *tradeDay
	draw := func() (*tradeDay, bool) {
		sk, ok := m.skeletonThrough(b, t)
		if !ok {
			return nil, false
		}
		td := priceTrades(b, sk)
		if shorter != nil {
			td.carry(shorter)
		}
		return td, true
	}
	td, ok := m.trades.get(k, draw)
	if ok && td.sk.until < t {
		shorter = td
		m.trades.forget(k, func(old *tradeDay) bool { return old.sk.until < t })
		if td, ok = m.trades.get(k, draw); ok && td.sk.until < t {
			return draw() // a shorter day drawn meanwhile for another reader
		}
	}
	return td, ok
}

// carry takes over the prices of the trades short has priced: the same
// trades, a shorter day of them.
func (td *tradeDay) carry(short *tradeDay) {
	short.mu.Lock()
	defer short.mu.Unlock()
	n := min(int(short.priced.Load()), len(td.px))
	hi := n
	if short.through != nil {
		td.through = make([]int, len(short.through))
		for s, t := range short.through {
			td.through[s] = min(max(t, n), len(td.px))
			hi = max(hi, td.through[s])
		}
	}
	copy(td.px[:hi], short.px[:hi])
	td.priced.Store(int64(n))
}
