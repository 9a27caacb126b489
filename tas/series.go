package tas

import (
	"cmp"
	"slices"

	"chainwatch/api"
)

// Series is a contract's trades of one day, held in sequence order and
// fetched incrementally: each request starts one past the last sequence
// number held (and no earlier than its time), so no trade is asked for,
// or paid for, twice; a page that overlaps what is held adds only what is
// new.
type Series struct {
	trades []Trade
	last   int64 // highest sequence number held; -1 none
}

// NewSeries is an empty series.
func NewSeries() *Series { return &Series{last: -1} }

// Reset empties the series (another contract, another day).
func (s *Series) Reset() { s.trades, s.last = s.trades[:0], -1 }

// Trades is what is held, oldest first. The caller must not modify it.
func (s *Series) Trades() []Trade { return s.trades }

// Len is the number of trades held.
func (s *Series) Len() int { return len(s.trades) }

// Next is where the next request starts: the sequence number after the
// last held (ok false before the first page: the whole day is asked) and
// the time of the last held trade, which bounds the window the service
// scans (inclusive: another print may share its millisecond).
func (s *Series) Next() (start int64, minTime api.TimeOfDay, ok bool) {
	if s.last < 0 {
		return 0, 0, false
	}
	return s.last + 1, s.trades[len(s.trades)-1].Time, true
}

// Add appends a page and returns how many trades were new. A page out of
// sequence order is sorted first; trades at or below the last held are
// dropped.
func (s *Series) Add(page []Trade) int {
	if !slices.IsSortedFunc(page, bySeq) {
		page = slices.Clone(page)
		slices.SortStableFunc(page, bySeq)
	}
	n := 0
	for _, t := range page {
		if t.Seq <= s.last {
			continue
		}
		s.trades = append(s.trades, t)
		s.last = t.Seq
		n++
	}
	return n
}

func bySeq(a, b Trade) int { return cmp.Compare(a.Seq, b.Seq) }

// Quote is the NBBO at a moment, from a record of trades-and-quotes.
type Quote struct {
	Seq      int64
	Time     api.TimeOfDay
	Bid, Ask float64 // NaN: none
}

// Mid is the quote's mid, NaN without a two-sided market.
func (q *Quote) Mid() float64 { return mid(q.Bid, q.Ask) }

// Quotes is a contract's NBBO through the day, incrementally like Series.
type Quotes struct {
	q    []Quote
	last int64
}

// NewQuotes is an empty quote series.
func NewQuotes() *Quotes { return &Quotes{last: -1} }

// Reset empties the series.
func (s *Quotes) Reset() { s.q, s.last = s.q[:0], -1 }

// All is what is held, oldest first. The caller must not modify it.
func (s *Quotes) All() []Quote { return s.q }

// Next is as Series.Next.
func (s *Quotes) Next() (start int64, minTime api.TimeOfDay, ok bool) {
	if s.last < 0 {
		return 0, 0, false
	}
	return s.last + 1, s.q[len(s.q)-1].Time, true
}

// Last is the newest quote held.
func (s *Quotes) Last() (Quote, bool) {
	if len(s.q) == 0 {
		return Quote{}, false
	}
	return s.q[len(s.q)-1], true
}

// AddTAQ appends the NBBO of each record of a trades-and-quotes page that
// is past the last held, and returns how many were new. Every kind of
// record carries the NBBO of its moment; a record that repeats the last
// NBBO held adds nothing to draw and is counted but not kept.
func (s *Quotes) AddTAQ(recs []api.TAQRecord) int {
	n := 0
	for i := range recs {
		r := &recs[i]
		seq := r.SequenceNumber()
		if seq <= s.last {
			continue
		}
		s.last = seq
		n++
		var bid, ask api.Float
		if r.Kind == api.KindTrade {
			bid, ask = r.Trade.NBBOBid, r.Trade.NBBOAsk
		} else {
			bid, ask = r.Quote.NBBOBid, r.Quote.NBBOAsk
		}
		q := Quote{Seq: seq, Time: r.Time(), Bid: api.OrNaN(bid), Ask: api.OrNaN(ask)}
		if k := len(s.q); k > 0 && sameQuote(&s.q[k-1], &q) {
			s.q[k-1].Seq = seq // the next request still starts past it
			continue
		}
		s.q = append(s.q, q)
	}
	return n
}

func sameQuote(a, b *Quote) bool {
	return ticks(a.Bid) == ticks(b.Bid) && ticks(a.Ask) == ticks(b.Ask)
}
