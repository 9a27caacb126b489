// Package positioning computes where a symbol's open interest sits and
// what it means for the dealers on the other side: open interest and
// volume by strike, max pain per expiry, the call and put walls, the
// put/call open-interest ratio, dealer gamma exposure (GEX) per strike
// and in total, and the zero-gamma level. It has no terminal in it, so
// the positioning page and `chainwatch gex` compute the same figures from
// the same code: the page from the whole chain the screen holds, the
// command from one snapshot.
package positioning

import (
	"cmp"
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/pricing"
)

// Side is what the figures read of one contract: a whole SPX chain is
// 20,000 contracts and the page holds one between fetches. Counts are -1
// and floats NaN where the service sent null. Gamma is float64 because
// GEX multiplies it by spot² x 100 x open interest and is stated to the
// cent.
type Side struct {
	OI, Volume int32
	// Estimated: the service sent no gamma for a contract with open
	// interest; Gamma (and IV, when it sent none either) is the chain's
	// model's at the IV interpolated along the expiry's smile (estimate).
	Estimated bool
	Gamma     float64 // per 1.00 of the underlying
	IV        float64 // a fraction
	Mid       float64 // the quote's mid, for the expiry's carry
	// Vanna and Charm are the model's (pricing.VannaCharm) at spot, per
	// volatility point and per day, priced once with the chain (for a
	// contract with open interest and an IV; 0 otherwise) so a range's
	// figures only sum them.
	Vanna, Charm float64
}

// Row is one strike of one expiry of one root: its call and its put.
type Row struct {
	Strike    float64
	Call, Put Side
}

// Expiry is one expiry of one root, its strikes ascending. SPX's third
// Fridays are two (the AM-settled SPX and the PM-settled SPXW): different
// contracts, each with its own holders and its own max pain.
type Expiry struct {
	Date api.Date
	Root string
	DTE  int     // calendar days from the day the data shows
	T    float64 // years (ACT/365) from the data's time to the close of the expiry day; <= 0: settled
	Rows []Row
	// Carry is the expiry's rate and dividend yield as its own quotes
	// imply them (pricing.ImpliedCarry); Borrowed says they could not
	// tell and the nearest expiry's that could stands in (zero when none
	// could).
	Carry    pricing.Carry
	Borrowed bool
}

// Chain is a snapshot as the figures read it: the underlying's price and
// every expiry still trading on the day the data shows.
type Chain struct {
	Symbol  string
	Day     api.Date  // the day the data shows: DTE counts from it
	AsOf    time.Time // the data's time: the underlying's timestamp on Day
	Spot    float64   // NaN: no price known
	Implied bool      // Spot is the implied mid of the option book
	// American: the chain prices its options American (equity and ETF
	// options), not European (index options): pricing.AmericanStyle.
	American bool
	Exps     []Expiry // by date, then root (the one named like the underlying first)
}

// From leaves out the expiries before first and returns c. On a weekend
// the data shown is Friday's close, but Friday's expiry has settled: its
// open interest is no one's exposure any more, and the first live expiry
// (market.FirstLiveDay) is Monday's, where the ladder and every command
// start. A chosen past day is its own first live day.
func (c *Chain) From(first api.Date) *Chain {
	c.Exps = slices.DeleteFunc(c.Exps, func(e Expiry) bool { return e.Date < first })
	return c
}

// nullSide is a contract that is not listed.
var nullSide = Side{OI: -1, Volume: -1, Gamma: math.NaN(), IV: math.NaN(), Mid: math.NaN()}

// FromSnapshot groups a snapshot into a Chain for day. Expiries before
// day have settled and are left out. The data's time is the underlying's
// timestamp on day; without one, at, but no later than day's close. Each
// expiry's carry is implied from its quotes, and a contract with open
// interest and no gamma gets the model's (model.go).
func FromSnapshot(snap *api.SymbolWithOptions, day api.Date, at time.Time) *Chain {
	c := &Chain{Symbol: snap.Symbol, Day: day, AsOf: asOf(&snap.Underlying, day, at), American: pricing.AmericanStyle(snap.Symbol)}
	c.Spot, c.Implied = snap.Underlying.SpotImplied()
	opts := snap.Options
	idx := make([]int32, 0, len(opts))
	for i := range opts {
		o := &opts[i]
		if o.OptionType.Valid() && o.Expiry >= day && !math.IsNaN(o.Strike) {
			idx = append(idx, int32(i))
		}
	}
	less := func(a, b int32) int {
		x, y := &opts[a], &opts[b]
		return cmp.Or(cmp.Compare(x.Expiry, y.Expiry), cmp.Compare(rootRank(x.Root, snap.Symbol), rootRank(y.Root, snap.Symbol)),
			cmp.Compare(x.Root, y.Root), cmp.Compare(x.Strike, y.Strike))
	}
	// The service sends a chain in order: sorting is for one that is not.
	if !slices.IsSortedFunc(idx, less) {
		slices.SortStableFunc(idx, less)
	}
	for _, i := range idx {
		o := &opts[i]
		n := len(c.Exps)
		if n == 0 || c.Exps[n-1].Date != o.Expiry || c.Exps[n-1].Root != o.Root {
			c.Exps = append(c.Exps, Expiry{Date: o.Expiry, Root: o.Root, DTE: day.DaysUntil(o.Expiry), T: market.YearsToSettle(o.Root, o.Expiry, c.AsOf)})
			n++
		}
		e := &c.Exps[n-1]
		if r := len(e.Rows); r == 0 || e.Rows[r-1].Strike != o.Strike {
			e.Rows = append(e.Rows, Row{Strike: o.Strike, Call: nullSide, Put: nullSide})
		}
		r := &e.Rows[len(e.Rows)-1]
		if o.OptionType == api.Put {
			r.Put = sideOf(o)
		} else {
			r.Call = sideOf(o)
		}
	}
	c.carry()
	c.estimate()
	return c
}

// sideOf reads one contract.
func sideOf(o *api.OptionData) Side {
	return Side{OI: count(o.OpenInterest), Volume: count(o.Volume), Gamma: api.OrNaN(o.Gamma), IV: api.OrNaN(o.IV), Mid: api.OrNaN(o.Mid)}
}

func count(n api.Int) int32 {
	if !n.Valid || n.V < 0 {
		return -1
	}
	return int32(min(n.V, math.MaxInt32))
}

func rootRank(root, symbol string) int {
	if root == symbol {
		return 0
	}
	return 1
}

// asOf is the data's time: the underlying's timestamp on day, else at,
// no later than day's close (a past day's data is its close).
func asOf(u *api.Underlying, day api.Date, at time.Time) time.Time {
	if u.Timestamp > 0 {
		return u.Timestamp.On(day)
	}
	if end := market.SessionClose(day).On(day); at.IsZero() || at.After(end) {
		return end
	}
	return at
}

// oi is a count as a number to add: a null counts nothing.
func (s *Side) oi() int64 { return int64(max(s.OI, 0)) }

func (s *Side) volume() int64 { return int64(max(s.Volume, 0)) }
