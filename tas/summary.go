package tas

import (
	"chainwatch/pricing"
	"cmp"
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
)

// Summary is what a contract's trades add up to: who was buying, how much
// money changed hands, and the prints that stand out. Canceled trades and
// cancel messages are left out of every figure.
type Summary struct {
	Trades int   // prints counted
	Volume int64 // contracts

	// Volume by where it printed: at or below the bid, strictly between,
	// at or above the ask, and the rest (crossed or no market, no price).
	VolBid, VolMid, VolAsk, VolOther int64

	Premium    float64 // dollars traded: sum of price x size x 100 (prints with a price)
	PremiumBid float64 // of which at or below the bid
	PremiumAsk float64 // of which at or above the ask

	Largest    Trade // the largest print by size (the larger premium, then the earlier, on a tie)
	HasLargest bool

	Blocks      int   // prints of at least the block size
	BlockVolume int64 // contracts in them

	// Sweeps are orders taken across exchanges at once: one side, one
	// contract, prints adjacent in sequence within config.SweepWindow on
	// two or more exchanges count as one (InSweepWithin).
	Sweeps      int
	SweepVolume int64

	VWAP float64 // volume-weighted price; NaN without priced prints
	// VWIV is the volume-weighted IV of the prints that carry one (a
	// fraction); NaN when none does.
	VWIV float64

	Canceled int // canceled trades (flag 1), shown struck through
}

// Summarize adds up trades, one contract's unless each carries its
// contract in Key. Prints of at least blockSize contracts are blocks
// (blockSize <= 0: none).
func Summarize(trades []Trade, blockSize int64) Summary {
	s := Summary{VWAP: math.NaN(), VWIV: math.NaN()}
	var pxVol, ivVol int64
	var pxSum, ivSum float64
	for i := range trades {
		t := &trades[i]
		if t.Cancel == api.TradeCanceled {
			s.Canceled++
		}
		if !t.Counts() {
			continue
		}
		s.Trades++
		s.Volume += t.Size
		switch SideOf(t.At) {
		case SideBid:
			s.VolBid += t.Size
		case SideMid:
			s.VolMid += t.Size
		case SideAsk:
			s.VolAsk += t.Size
		default:
			s.VolOther += t.Size
		}
		if p := t.Premium(); !math.IsNaN(p) {
			s.Premium += p
			pxSum += p
			pxVol += t.Size
			switch SideOf(t.At) {
			case SideBid:
				s.PremiumBid += p
			case SideAsk:
				s.PremiumAsk += p
			}
		}
		if !math.IsNaN(t.IV) && t.IV > 0 {
			ivSum += t.IV * float64(t.Size)
			ivVol += t.Size
		}
		if !s.HasLargest || larger(t, &s.Largest) {
			s.Largest, s.HasLargest = *t, true
		}
		if blockSize > 0 && t.Size >= blockSize {
			s.Blocks++
			s.BlockVolume += t.Size
		}
	}
	_, s.Sweeps, s.SweepVolume = InSweep(trades)
	if pxVol > 0 {
		s.VWAP = pxSum / float64(pxVol) / pricing.Multiplier
	}
	if ivVol > 0 {
		s.VWIV = ivSum / float64(ivVol)
	}
	return s
}

// larger reports whether a is a larger print than b: by size, then by
// premium; on a full tie the earlier one (b, met first) stays.
func larger(a, b *Trade) bool {
	if a.Size != b.Size {
		return a.Size > b.Size
	}
	pa, pb := a.Premium(), b.Premium()
	return !math.IsNaN(pa) && (math.IsNaN(pb) || pa > pb)
}

// InSweep marks the trades that are part of a multi-exchange sweep, with
// the window of config.SweepWindow. See InSweepWithin for the rule.
func InSweep(trades []Trade) (in []bool, sweeps int, volume int64) {
	return InSweepWithin(trades, config.SweepWindow)
}

// InSweepWithin marks the trades that are part of a multi-exchange sweep:
// one order taking the NBBO on several exchanges at once. Its prints are
//
//   - of one contract (Key),
//   - on one side: all at or above the ask (a buyer lifting offers) or all
//     at or below the bid (a seller hitting bids); a print between, on a
//     crossed market or without a price is never part of one,
//   - adjacent in sequence: each print's sequence number is the one after
//     the previous print's, so no other print came between (a canceled
//     print of the same contract, itself left out, does not part them),
//   - within window of the sweep's first print,
//   - on two or more exchanges.
//
// Trades may come in any order; a sweep is found in sequence order. It
// also returns how many sweeps there are and their volume.
func InSweepWithin(trades []Trade, window time.Duration) (in []bool, sweeps int, volume int64) {
	in = make([]bool, len(trades))
	EachSweep(trades, window, func(run []int) {
		for _, i := range run {
			in[i] = true
			volume += trades[i].Size
		}
		sweeps++
	})
	return in, sweeps, volume
}

// EachSweep calls f with the indices into trades of each sweep, by the
// rule of InSweepWithin (in sequence order when trades are): an alert
// fires once a sweep and says its size. f must not keep run.
func EachSweep(trades []Trade, window time.Duration, f func(run []int)) {
	idx := make([]int, len(trades))
	for i := range idx {
		idx[i] = i
	}
	// A sweep's prints are adjacent in sequence, so in sequence order they
	// are next to each other already: a page of the tape, which comes in
	// that order, is read as it is (a print of another contract between
	// two of one parts them either way). Any other order is sorted.
	bySeq := func(a, b int) int { return cmp.Compare(trades[a].Seq, trades[b].Seq) }
	if !slices.IsSortedFunc(idx, bySeq) {
		slices.SortStableFunc(idx, func(a, b int) int {
			if c := cmp.Compare(trades[a].Key, trades[b].Key); c != 0 {
				return c
			}
			return bySeq(a, b)
		})
	}
	win := api.TimeOfDay(window.Milliseconds())

	// The run being built: counted prints of one contract and side, each
	// adjacent in sequence to the record before it.
	var (
		run     []int
		key     string
		side    Side
		first   api.TimeOfDay
		prevSeq int64
	)
	closeRun := func() {
		if len(run) >= 2 {
			var exch [4]uint64 // a bit per exchange id
			n := 0
			for _, i := range run {
				e := trades[i].Exchange
				if exch[e>>6]&(1<<(e&63)) == 0 {
					exch[e>>6] |= 1 << (e & 63)
					n++
				}
			}
			if n >= 2 {
				f(run)
			}
		}
		run = run[:0]
	}
	for _, i := range idx {
		t := &trades[i]
		adjacent := len(run) > 0 && t.Key == key && t.Seq == prevSeq+1
		if !t.Counts() {
			if adjacent {
				prevSeq = t.Seq
			}
			continue
		}
		sd := SideOf(t.At)
		if adjacent && sd == side && absTime(t.Time-first) <= win {
			run = append(run, i)
			prevSeq = t.Seq
			continue
		}
		closeRun()
		if sd == SideBid || sd == SideAsk {
			run = append(run, i)
			key, side, first, prevSeq = t.Key, sd, t.Time, t.Seq
		}
	}
	closeRun()
}

func absTime(d api.TimeOfDay) api.TimeOfDay {
	if d < 0 {
		return -d
	}
	return d
}

// AskShare is the share of the sided volume (bid, mid, ask) that printed
// at or above the ask, NaN without any: above one half, buyers were lifting
// offers.
func (s *Summary) AskShare() float64 {
	sided := s.VolBid + s.VolMid + s.VolAsk
	if sided == 0 {
		return math.NaN()
	}
	return float64(s.VolAsk) / float64(sided)
}

// Theo is a theoretical value of the contract now: its last print carried
// forward by the greeks it printed with, to the underlying's price now
// (delta and gamma) and the time passed since (theta per calendar day).
// It is what the contract "should" trade at if nothing but the underlying
// and the clock had moved since that print, the usual way a desk marks an
// option between trades; set against the mid it tells whether the market
// has moved the option's vol since. NaN when the print has no price or no
// greeks, or the underlying's price is unknown at either moment.
func Theo(last *Trade, spotNow float64, daysSince float64) float64 {
	s0 := last.Underlying()
	if math.IsNaN(last.Price) || math.IsNaN(last.Delta) || math.IsNaN(s0) || math.IsNaN(spotNow) {
		return math.NaN()
	}
	ds := spotNow - s0
	v := last.Price + last.Delta*ds
	if !math.IsNaN(last.Gamma) {
		v += 0.5 * last.Gamma * ds * ds
	}
	if !math.IsNaN(last.Theta) && daysSince > 0 {
		v += last.Theta * daysSince
	}
	return math.Max(v, 0)
}
