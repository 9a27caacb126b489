package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// TradesAndQuotes returns the trades and quotes of one symbol, a stock or a
// listed contract by its canonical OSI symbol, from `from` to
// min(to, at.Time), both ends included, in time order.
//
// Each of several exchanges quotes the symbol around the NBBO of the moment
// (the option's quote as the chain computes it, the stock's quote) and
// updates its quote every few seconds; every update is a record carrying
// the exchange's bid and ask, the NBBO after it, the exchanges at the best
// bid and ask, and flag bits saying whether this exchange's bid or ask is
// the NBBO's. Trades are interleaved: for an option its trades of
// option-trades (with the NBBO they printed against), for a stock its
// prints against the exchanges' NBBO. Sequence numbers are the symbol's own
// trades-and-quotes stream, rising from 1 at the open in time order.
//
// Each minute is generated on its own (the exchanges' quotes are refreshed
// from the NBBO at the minute's start, and the number of records of a
// minute is known without generating it), so a narrow window costs a
// minute's work and every window sees the same records. A full day of one
// symbol is under 40,000 records. False: unknown symbol, an index, an OSI
// symbol not in canonical form or not listed, or no data that day.
func (m *Market) TradesAndQuotes(symbol string, at Moment, from, to api.TimeOfDay) ([]api.TAQRecord, bool) {
	var st *taqStream
	if o, err := api.ParseOSI(symbol); err == nil {
		if o.String() != symbol {
			return nil, false
		}
		b, ci, ok := m.contractOf(o, at.Date)
		if !ok {
			return nil, false
		}
		td, ok := m.tradeDay(b)
		if !ok {
			return nil, false
		}
		st = optionStream(b, td, ci)
	} else {
		sec, ok := m.u.Lookup(symbol)
		if !ok || sec.Kind == market.Index {
			return nil, false
		}
		day, ok := m.u.Day(sec, at.Date)
		if !ok {
			return nil, false
		}
		st = stockStream(sec, day)
	}
	return st.window(from, min(to, at.Time)), true
}

// taqStream is one symbol's trades-and-quotes day, minute by minute.
type taqStream struct {
	open, close api.TimeOfDay
	count       func(mi int) int                        // records in minute mi
	minute      func(mi int, seq int64) []api.TAQRecord // the records, numbered from seq+1
}

// window returns the records with a time in [from, end].
func (s *taqStream) window(from, end api.TimeOfDay) []api.TAQRecord {
	out := []api.TAQRecord{}
	if end < from {
		return out
	}
	var seq int64
	for mi := 0; ; mi++ {
		start := s.open + api.TimeOfDay(mi)*60_000
		if start > end || start > s.close {
			return out
		}
		if start+60_000 <= from {
			seq += int64(s.count(mi))
			continue
		}
		recs := s.minute(mi, seq)
		seq += int64(len(recs))
		for _, r := range recs {
			if t := r.Time(); t >= from && t <= end {
				out = append(out, r)
			}
		}
	}
}

// base is the consolidated quote of a moment, in cents: the option's
// quote as the chain computes it, or the stock's.
type base struct {
	bid, ask, bidSz, askSz int64
}

// exchState is one exchange quoting the symbol: how many ticks it stands
// off the consolidated quote on each side, and its share of the quoted
// depth on each. Exchanges follow the consolidated quote as the underlying
// moves (market makers requote together), their sizes with its depth, and
// publish a record when they change their stance; at least one exchange is
// always at each side of the consolidated quote, so the NBBO of the
// records, prices and sizes, is the chain's quote of that second (as the
// trades' NBBO is) and is never crossed by stale quotes.
type exchState struct {
	id                 uint8
	offBid, offAsk     int
	bidShare, askShare float64
}

// panel is the exchanges quoting one symbol.
type panel struct {
	ex   []exchState
	tick func(cents int64) int64
}

// newPanel draws every exchange's stance from the quote q.
func newPanel(rng *rand.Rand, ids []uint8, q base, tick func(int64) int64) *panel {
	p := &panel{ex: make([]exchState, len(ids)), tick: tick}
	for i, id := range ids {
		p.ex[i].id = id
		p.stance(rng, i, q)
	}
	if i := rng.IntN(len(ids)); !p.atSide(-1, true) {
		p.ex[i].offBid = 0
	}
	if i := rng.IntN(len(ids)); !p.atSide(-1, false) {
		p.ex[i].offAsk = 0
	}
	return p
}

// atSide reports whether an exchange other than skip is at the
// consolidated bid (or ask).
func (p *panel) atSide(skip int, bid bool) bool {
	for j := range p.ex {
		if j != skip && (bid && p.ex[j].offBid == 0 || !bid && p.ex[j].offAsk == 0) {
			return true
		}
	}
	return false
}

// draw gives exchange i a new stance: on the consolidated quote half the
// time, else one or two ticks off; sizes a share of the quoted depth. If
// no other exchange is left at a side, this one takes it.
func (p *panel) draw(rng *rand.Rand, i int, q base) {
	p.stance(rng, i, q)
	if !p.atSide(i, true) {
		p.ex[i].offBid = 0
	}
	if !p.atSide(i, false) {
		p.ex[i].offAsk = 0
	}
}

func (p *panel) stance(rng *rand.Rand, i int, q base) {
	off := func() int {
		switch r := rng.Float64(); {
		case r < 0.5:
			return 0
		case r < 0.8:
			return 1
		}
		return 2
	}
	e := &p.ex[i]
	e.offBid, e.offAsk = off(), off()
	e.bidShare, e.askShare = 0.2+0.8*rng.Float64(), 0.2+0.8*rng.Float64()
}

// quoteOf is exchange e's quote when the consolidated quote is q. No bid
// stays no bid.
func (p *panel) quoteOf(e *exchState, q base) base {
	b := base{bid: q.bid, ask: q.ask,
		bidSz: max(1, int64(float64(q.bidSz)*e.bidShare)), askSz: max(1, int64(float64(q.askSz)*e.askShare))}
	for range e.offBid {
		if b.bid > 0 {
			b.bid = max(b.bid-p.tick(b.bid-1), 0)
		}
	}
	for range e.offAsk {
		b.ask += p.tick(b.ask)
	}
	if b.bid == 0 {
		b.bidSz = 0
	}
	return b
}

// record is the quote record of exchange i's update at t, with the NBBO
// and the first exchanges at it. The NBBO's sizes are the consolidated
// quote's depth, so they move with its prices (they were the first
// exchange's own size, which stood still while the prices moved).
func (p *panel) record(i int, q base, t api.TimeOfDay, seq int64) api.Quote {
	n := base{bid: -1, ask: math.MaxInt64}
	var bidEx, askEx uint8
	for j := range p.ex {
		x := p.quoteOf(&p.ex[j], q)
		if x.bid > n.bid {
			n.bid, bidEx = x.bid, p.ex[j].id
		}
		if x.ask < n.ask {
			n.ask, askEx = x.ask, p.ex[j].id
		}
	}
	n.bidSz, n.askSz = q.bidSz, q.askSz
	if n.bid <= 0 {
		n.bidSz = 0
	}
	e := p.quoteOf(&p.ex[i], q)
	var flag api.QuoteFlag
	if e.bid == n.bid {
		flag |= api.NBBOBestBid
	}
	if e.ask == n.ask {
		flag |= api.NBBOBestAsk
	}
	return api.Quote{
		BestAskExchange: askEx, BestBidExchange: bidEx,
		Bid: api.Some(dollars(e.bid)), BidSize: api.Some(e.bidSz),
		Ask: api.Some(dollars(e.ask)), AskSize: api.Some(e.askSz),
		Flag: flag, Time: t, ExchangeID: p.ex[i].id, ConditionID: market.QuoteRegular,
		SequenceNumber: seq,
		NBBOBid:        api.Some(dollars(n.bid)), NBBOBidSize: api.Some(n.bidSz),
		NBBOAsk: api.Some(dollars(n.ask)), NBBOAskSize: api.Some(n.askSz),
	}
}

// eventTimes draws n sorted times in [start, end).
func eventTimes(rng *rand.Rand, n int, start, end api.TimeOfDay) []api.TimeOfDay {
	if end <= start {
		return nil
	}
	ts := make([]api.TimeOfDay, n)
	for i := range ts {
		ts[i] = start + api.TimeOfDay(rng.IntN(int(end-start)))
	}
	slices.Sort(ts)
	return ts
}

// pickExchanges chooses n of ids for one symbol, deterministically.
func pickExchanges(ids []uint8, n int, h uint64) []uint8 {
	rng := rand.New(rand.NewPCG(h, mix(h)))
	perm := rng.Perm(len(ids))
	out := make([]uint8, 0, n)
	for _, i := range perm[:min(n, len(ids))] {
		out = append(out, ids[i])
	}
	slices.Sort(out)
	return out
}

// countIn is the number of sorted times in [start, start+60s).
func countIn(ts []api.TimeOfDay, start api.TimeOfDay) (lo, hi int) {
	lo = sort.Search(len(ts), func(i int) bool { return ts[i] >= start })
	hi = sort.Search(len(ts), func(i int) bool { return ts[i] >= start+60_000 })
	return lo, hi
}
