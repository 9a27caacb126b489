package vol

import (
	"cmp"
	"math"
	"slices"

	"chainwatch/api"
)

// Surface is a chain as the figures read it: the underlying and every
// expiry still trading on the day the data shows.
type Surface struct {
	Symbol string
	Day    api.Date // the day the data shows: DTE counts from it
	Spot   float64  // NaN: no price known
	IV30   IV30
	Exps   []Expiry // ascending
}

// IV30 is the service's 30-day implied volatility, in percentage points
// (22.08 is 22.08 %), with its change since the previous close.
type IV30 struct {
	Now, Change, ChangePct float64
}

// Prev is IV30 at the previous close: now less the change; NaN unless
// both are known.
func (v IV30) Prev() float64 { return v.Now - v.Change }

// IV30Of reads the IV30 fields of the underlying (NaN for nulls).
func IV30Of(u *api.Underlying) IV30 {
	return IV30{Now: api.OrNaN(u.IV30), Change: api.OrNaN(u.IV30Change), ChangePct: api.OrNaN(u.IV30ChangePercent)}
}

// QuoteOf reads one contract of a snapshot.
func QuoteOf(o *api.OptionData) Quote {
	return Quote{
		Bid: api.OrNaN(o.Bid), Ask: api.OrNaN(o.Ask), Mid: api.OrNaN(o.Mid),
		IV: api.OrNaN(o.IV), Delta: api.OrNaN(o.Delta),
		Volume: count(o.Volume), OI: count(o.OpenInterest),
	}
}

func count(n api.Int) int64 {
	if n.Valid && n.V >= 0 {
		return n.V
	}
	return -1
}

// FromChain groups a snapshot into a Surface for day: expiries before day
// have settled and are left out, as the expiry tabs leave them out. Where
// two roots list the same contract (SPX and SPXW on a monthly), the root
// named like the underlying wins, as on the ladder.
func FromChain(snap *api.SymbolWithOptions, day api.Date) Surface {
	s := Surface{Symbol: snap.Symbol, Day: day, Spot: snap.Underlying.Spot(), IV30: IV30Of(&snap.Underlying)}
	idx := make([]int, 0, len(snap.Options))
	for i := range snap.Options {
		o := &snap.Options[i]
		if o.OptionType.Valid() && o.Expiry >= day && !math.IsNaN(o.Strike) {
			idx = append(idx, i)
		}
	}
	opts := snap.Options
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := &opts[a], &opts[b]
		return cmp.Or(cmp.Compare(x.Expiry, y.Expiry), cmp.Compare(x.Strike, y.Strike),
			cmp.Compare(rootRank(x.Root, snap.Symbol), rootRank(y.Root, snap.Symbol)))
	})
	var set [2]bool // the row's call and put are filled
	for _, i := range idx {
		o := &opts[i]
		if n := len(s.Exps); n == 0 || s.Exps[n-1].Date != o.Expiry {
			s.Exps = append(s.Exps, Expiry{Date: o.Expiry, DTE: day.DaysUntil(o.Expiry)})
		}
		e := &s.Exps[len(s.Exps)-1]
		if n := len(e.Rows); n == 0 || e.Rows[n-1].Strike != o.Strike {
			e.Rows = append(e.Rows, Row{Strike: o.Strike, Call: Null, Put: Null})
			set = [2]bool{}
		}
		r := &e.Rows[len(e.Rows)-1]
		side, k := &r.Call, 0
		if o.OptionType == api.Put {
			side, k = &r.Put, 1
		}
		if !set[k] { // the first (preferred) root's contract only
			*side, set[k] = QuoteOf(o), true
		}
	}
	return s
}

func rootRank(root, symbol string) int {
	if root == symbol {
		return 0
	}
	return 1
}

// Find is the index of expiry d in s, -1 when it is not listed.
func (s *Surface) Find(d api.Date) int {
	i, ok := slices.BinarySearchFunc(s.Exps, d, func(e Expiry, d api.Date) int { return cmp.Compare(e.Date, d) })
	if !ok {
		return -1
	}
	return i
}

// Figures is every expiry's figures at the surface's spot.
func (s *Surface) Figures() []Figures { return ComputeAll(s.Exps, s.Spot) }
