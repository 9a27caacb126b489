package market

import (
	"math"
	"slices"
	"sort"
)

// Listings keep what they listed. An exchange adds strikes as the
// underlying moves and keeps every listed strike until its expiry (open
// interest sits on it), so an expiry's strikes on a day are the union of
// the grids of every trading day from its first listing day through that
// day, each grid built from that day's previous close. The union is a pure
// function of (security, root, expiry, day): the same clock gives the same
// chain whatever was asked before, also for a past day.

// listing accumulates grids. Runs of one step merge into their hull (the
// underlying moves a little each day, so the windows of a step overlap);
// VIX ladders keep their starting points, as a ladder above 30 depends on
// where it starts.
type listing struct {
	runs  []run     // one per step
	vixLo []float64 // distinct ladder starts
	vixHi float64
}

// run is the multiples of step from a to b, all in half-dollar units.
type run struct{ step, a, b int64 }

// add merges the grid of price s, vol and expiry t (years) into l.
func (l *listing) add(g gridKind, s, vol, t float64) {
	if s <= 0 {
		return
	}
	if g == gridVIX {
		lo, hi := vixRange(s, vol, t)
		if !slices.Contains(l.vixLo, lo) {
			l.vixLo = append(l.vixLo, lo)
		}
		l.vixHi = math.Max(l.vixHi, hi)
		return
	}
	bs, ok := g.bands(s, vol, t)
	if !ok {
		return
	}
	for _, bd := range bs {
		a := max(1, int64(math.Ceil(bd.a*2/float64(bd.step)))) * bd.step
		b := int64(math.Floor(bd.b*2/float64(bd.step)+1e-9)) * bd.step
		if a > b {
			continue
		}
		i := slices.IndexFunc(l.runs, func(r run) bool { return r.step == bd.step })
		if i < 0 {
			l.runs = append(l.runs, run{bd.step, a, b})
			continue
		}
		l.runs[i].a, l.runs[i].b = min(l.runs[i].a, a), max(l.runs[i].b, b)
	}
}

// strikes returns the strikes listed so far, ascending.
func (l *listing) strikes(g gridKind) []float64 {
	if g == gridVIX {
		var out []float64
		for _, lo := range l.vixLo {
			out = append(out, vixStrikes(lo, l.vixHi)...)
		}
		h := make([]int64, len(out))
		for i, k := range out {
			h[i] = int64(math.Round(k * 2))
		}
		return halves(h)
	}
	var h []int64
	for _, r := range l.runs {
		for v := r.a; v <= r.b; v += r.step {
			h = append(h, v)
		}
	}
	return halves(h)
}

// listKey names one expiry of one root.
type listKey struct {
	root   string
	expiry int
}

// firstListed returns the first day root r lists expiry e: a binary
// search over the days before e within r's longest horizon, on bounds
// that depend on e alone, so that the answer does not depend on the day
// asking. Cached on the model: every day of a chain asks for it.
func (m *model) firstListed(r *rootSpec, e int) int {
	k := listKey{r.root, e}
	if v, ok := m.listed.Load(k); ok {
		return v.(int)
	}
	lo := e - r.longestHorizon() - 1
	n := lo + sort.Search(e-lo+1, func(i int) bool {
		return slices.Contains(r.expiries(lo+i), e)
	})
	m.listed.Store(k, n)
	return n
}

// longestHorizon is the farthest ahead r lists any expiry, in calendar
// days (a stock's consecutive monthlies are listed up to 400 days ahead).
func (r *rootSpec) longestHorizon() int {
	return max(r.daily, r.weekly, r.monthEnd, r.qtrEnd, r.monthly, r.cycleHor,
		r.quarterly, r.leapsJan, r.leapsDec, 400)
}
