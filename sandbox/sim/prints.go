package sim

import (
	"math"
	"sort"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// cluster adds a burst of ordinary prints starting at t in contract ci:
// one order worked in pieces a few hundred milliseconds apart (never
// within sweepApart, or two pieces would look like a sweep), mostly in one
// contract, now and then moving to a neighbouring strike or to the other
// side.
func (g *gen) cluster(t api.TimeOfDay, ci int32) {
	n := 1
	for n < 12 && g.rng.Float64() < 0.45 {
		n++
	}
	for range n {
		if t >= g.close {
			return
		}
		kind, cond := g.ordinaryKind()
		g.add(skelTrade{t: t, ci: ci, size: g.size(), exch: g.exchange(), cond: cond, kind: kind})
		t += api.TimeOfDay(sweepApart + 1 + g.rng.ExpFloat64()*200)
		if g.rng.Float64() < 0.35 {
			ci = g.neighbour(ci)
		}
	}
}

// ordinaryKind draws how an ordinary print meets the NBBO: on the bid or
// the ask, inside the spread (including multi-leg orders priced as a
// package), and rarely a late print outside the NBBO or a print during a
// momentary crossed market.
func (g *gen) ordinaryKind() (kind, cond uint8) {
	switch r := g.rng.Float64(); {
	case r < 0.33:
		return atBid, market.CondRegular
	case r < 0.66:
		return atAsk, market.CondRegular
	case r < 0.91:
		return atMid, market.CondRegular
	case r < 0.9945:
		return atMid, market.CondMultiLeg
	case r < 0.9970:
		return belowBid, market.CondLate
	case r < 0.9995:
		return aboveAsk, market.CondLate
	}
	return crossed, market.CondRegular
}

// block adds one large negotiated print (500 to 5,000 contracts) in ci.
func (g *gen) block(t api.TimeOfDay, ci int32) {
	size := int32(500 + 4500*math.Pow(g.rng.Float64(), 3))
	kinds := [...]uint8{atMid, atMid, atBid, atAsk}
	g.add(skelTrade{t: t, ci: ci, size: size, exch: g.exchange(),
		cond: market.CondBlock, kind: kinds[g.rng.IntN(len(kinds))]})
}

// add appends a print and, for about one in 500, its cancellation: the
// print stays with flag 1 and a cancel message (flag 2) of the same
// contract, price and size follows seconds to a minute later.
func (g *gen) add(p skelTrade) {
	p.pt = p.t
	p.rnd = g.rng.Uint32()
	p.flag = uint8(api.TradeNormal)
	if g.rng.Float64() < 0.002 {
		p.flag = uint8(api.TradeCanceled)
		c := p
		c.t = min(p.t+api.TimeOfDay(2000+g.rng.IntN(60_000)), g.close)
		c.flag, c.cond = uint8(api.TradeCancel), market.CondCanceled
		g.out = append(g.out, p, c)
		return
	}
	g.out = append(g.out, p)
}

// size draws a heavy-tailed print size: mostly 1 to 10 contracts, with a
// Pareto tail into the hundreds.
func (g *gen) size() int32 {
	switch r := g.rng.Float64(); {
	case r < 0.55:
		return int32(1 + g.rng.IntN(5))
	case r < 0.85:
		return int32(1 + g.rng.IntN(10))
	}
	x := 10 / math.Pow(1-g.rng.Float64(), 1/1.4)
	return int32(min(x, 499))
}

// exchange draws an option exchange, the first ones of the table busiest.
func (g *gen) exchange() uint8 {
	r := g.rng.Float64() * g.exWeights[len(g.exWeights)-1]
	i := sort.SearchFloat64s(g.exWeights, r)
	return market.OptionExchanges[min(i, len(g.exWeights)-1)]
}

// neighbour is a contract next to ci: the other side, or a strike away.
func (g *gen) neighbour(ci int32) int32 {
	s, k, put := g.b.contract(int(ci))
	switch g.rng.IntN(3) {
	case 0:
		put = !put
	case 1:
		k = max(k-1, 0)
	default:
		k = min(k+1, len(s.Strikes)-1)
	}
	n := s.base + 2*k
	if put {
		n++
	}
	return int32(n)
}
