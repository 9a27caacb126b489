package sim

import (
	"math"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// Sweeps. An intermarket sweep order (ISO) takes the best price on several
// exchanges at once: one order, one contract, one side, split by its
// router into pieces that print within a few milliseconds on as many
// exchanges, with nothing else of that underlying printing between them.
// The simulated tape makes its sweeps so, and makes sure that nothing else
// looks like one: a client's sweep rule (tas.InSweep: one contract, one
// side, adjacent in sequence, within a few milliseconds, two or more
// exchanges) finds every sweep whole and nothing else.
//
//   - Rate: an order is a sweep with probability sweepShare, and
//     sweepShareNear in a same-day contract struck within nearMoney of the
//     underlying, where the flow is most urgent. With 2 to 5 pieces a
//     sweep, that is about 3 % of the prints in general and about 10 %
//     of the prints of same-day contracts near the money.
//   - Shape: 2 to 5 pieces, each on another exchange, within sweepSpread
//     milliseconds of the first; all at the ask and the last sometimes a
//     tick through it (a buyer lifting offers), or all at the bid and
//     through it (a seller hitting bids); only in a contract quoted on both
//     sides through the sweep's span (a print without a bid is No Market).
//   - Separation: two prints of one contract next to each other in the
//     underlying's sequence (a canceled print or cancel message between
//     them does not part them) are either pieces of one sweep or more
//     than sweepApart milliseconds apart. An order worked in pieces waits
//     longer than that between them; two orders that meet by chance in
//     one contract within it are told apart by moving the later one to
//     the other side of the same strike, or dropping it if it is a sweep
//     (separate).
const (
	sweepShare     = 0.015
	sweepShareNear = 0.06
	nearMoney      = 0.005 // |strike / underlying - 1|
	sweepSpread    = 3     // ms from a sweep's first piece to its last
	sweepApart     = 25    // ms: the least gap between adjacent prints of one contract that are not one sweep
	blockShare     = 0.003 // an order is a block print with this probability
)

// order adds one order at t in contract ci: a sweep, a block or an
// ordinary burst of prints.
func (g *gen) order(t api.TimeOfDay, ci int32) {
	share := sweepShare
	if g.nearMoney(t, ci) {
		share = sweepShareNear
	}
	r := g.rng.Float64()
	switch {
	case r < share:
		if !g.sweep(t, ci) {
			g.cluster(t, ci)
		}
	case r < share+blockShare:
		g.block(t, ci)
	default:
		g.cluster(t, ci)
	}
}

// nearMoney reports whether ci expires today and is struck within
// nearMoney of the underlying at t.
func (g *gen) nearMoney(t api.TimeOfDay, ci int32) bool {
	s, k, _ := g.b.contract(int(ci))
	if s.days != 0 {
		return false
	}
	S := g.b.day.Price(t - t%1000)
	return math.Abs(s.Strikes[k]/S-1) <= nearMoney
}

// sweep adds a sweep of 2 to 5 pieces at t, all stamped t for now (spread
// spreads them once the day is sorted), and reports false when one cannot
// start at t: too close to the previous sweep (sweeps never overlap) or
// to the close, or in a contract without a two-sided market through its
// span. A print where there is no bid is No Market, neither side, and no
// one sweeps such a contract.
func (g *gen) sweep(t api.TimeOfDay, ci int32) bool {
	if t <= g.lastSweep+sweepSpread || t+sweepSpread >= g.close {
		return false
	}
	for _, at := range [...]api.TimeOfDay{t, t + sweepSpread} {
		c := g.b.at(at - at%1000)
		if !c.hasBid(int(ci)) {
			return false
		}
	}
	g.lastSweep = t
	kind := sweepBuy
	if g.rng.IntN(2) == 0 {
		kind = sweepSell
	}
	n := 2 + g.rng.IntN(4)
	ex := market.OptionExchanges
	perm := g.rng.Perm(len(ex))
	for i := 0; i < n && i < len(perm); i++ {
		var level uint8
		if i == n-1 && g.rng.Float64() < 0.35 {
			level = 1
		}
		g.out = append(g.out, skelTrade{t: t, pt: t, ci: ci, size: int32(1 + g.rng.IntN(50)), rnd: g.rng.Uint32(),
			exch: ex[perm[i]], cond: market.CondSweep, flag: uint8(api.TradeNormal), kind: kind, level: level,
			part: uint8(i + 1)})
	}
	return true
}

// spread gives a sorted day's sweeps their spread in time: each piece 0 or
// 1 ms after the one before, at most sweepSpread after the first. A sweep's
// pieces sort together (one time, consecutive generation order), and a
// print that then falls inside a sweep's span, sorted after it, is stamped
// at its last piece, so the day stays in time order with nothing between
// the pieces.
func (out skelTrades) spread() {
	for i := range out {
		st := &out[i]
		if st.part > 1 {
			prev := &out[i-1]
			st.t = min(prev.t+api.TimeOfDay(st.rnd>>16&1), out[i-int(st.part)+1].t+sweepSpread)
			st.pt = st.t
			continue
		}
		if i > 0 && st.t < out[i-1].t {
			late := out[i-1].t
			if st.flag == uint8(api.TradeNormal) {
				st.pt = late // priced at its new moment; a canceled print and its cancel message keep theirs
			}
			st.t = late
		}
	}
}

// separate keeps prints apart that are not one sweep, and returns the day
// without the sweeps it drops. A print adjacent in sequence to an earlier
// print of its contract (over canceled prints and cancel messages of it)
// and within sweepApart of it moves to the other side of its strike: the
// contract before it in sequence is then another, so the move makes no
// new neighbour behind it, and the prints after it are checked in their
// turn. A sweep in that place is dropped, all its pieces, rather than
// moved: the other side may have no bid to hit (see sweep).
func (out skelTrades) separate(b *book) skelTrades {
	w := 0 // out[:w] is the day so far, compacted
	for i := 0; i < len(out); {
		n := 1
		for out[i].part == 1 && i+n < len(out) && out[i+n].part > 1 {
			n++
		}
		st := &out[i]
		if st.flag == uint8(api.TradeNormal) && out[:w].follows(st) {
			if st.part == 1 {
				i += n
				continue
			}
			st.ci = b.otherSide(st.ci)
		}
		w += copy(out[w:], out[i:i+n])
		i += n
	}
	return out[:w]
}

// follows reports whether st, printed next, would come within sweepApart
// of the last print of its contract in day, with nothing between them but
// canceled prints and cancel messages of that contract.
func (day skelTrades) follows(st *skelTrade) bool {
	k := len(day) - 1
	for k >= 0 && day[k].ci == st.ci && day[k].flag != uint8(api.TradeNormal) {
		k--
	}
	return k >= 0 && day[k].ci == st.ci && st.t-day[k].t <= sweepApart
}

// otherSide is the contract of the other type at ci's strike and expiry.
func (b *book) otherSide(ci int32) int32 {
	s, k, put := b.contract(int(ci))
	n := s.base + 2*k
	if !put {
		n++
	}
	return int32(n)
}
