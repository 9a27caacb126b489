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

// listState is an expiry's listing through a day, and through the
// trading day before it when the walk that made it passed there.
type listState struct {
	day, before int // before: -1 when there is none
	l, lBefore  listing
}

// listingOn returns the union of root r's grids for expiry e over the
// trading days from from through n. The last union computed for each
// expiry is kept on the model and extended when a later day asks (the
// sandbox's clock moves forward), with the union of the trading day
// before it, which a day's chain asks for next (its open interest and
// previous closes); an earlier day starts over from from. Either way the
// result is the same.
func (m *model) listingOn(r *rootSpec, e, from, n int) listing {
	k := listKey{r.root, e}
	var l listing
	start := from
	m.listMu.Lock()
	if st, ok := m.lists[k]; ok && st.day <= n {
		l, start = st.l.clone(), st.day+1
	} else if ok && st.before == n {
		l := st.lBefore.clone()
		m.listMu.Unlock()
		return l
	}
	m.listMu.Unlock()
	if !isTrading(start) {
		start = nextTrading(start)
	}
	st := listState{day: n, before: -1}
	for t := start; t >= 0 && t <= n; t = nextTrading(t) {
		if t == n && t > start {
			st.before, st.lBefore = prevTrading(n), l.clone()
		}
		prev, vol := m.gridInputs(t)
		l.add(r.grid, prev, vol, math.Max(float64(e-t), 1)/365)
	}
	st.l = l.clone()
	m.listMu.Lock()
	if m.lists == nil {
		m.lists = map[listKey]listState{}
	}
	if old, ok := m.lists[k]; !ok || old.day < n {
		m.lists[k] = st
	}
	m.listMu.Unlock()
	return l
}

// clone copies l's slices.
func (l listing) clone() listing {
	return listing{runs: slices.Clone(l.runs), vixLo: slices.Clone(l.vixLo), vixHi: l.vixHi}
}

// gridInputs returns the previous close and the vol level a grid of
// trading day n is built from, cached by blocks of 64 days: a listing
// reads every day since its first.
func (m *model) gridInputs(n int) (prev, vol float64) {
	b := n / 64
	v, ok := m.inputs.Load(b)
	if !ok {
		var blk [64][2]float64
		for i := range blk {
			t := b*64 + i
			if !isTrading(t) {
				continue
			}
			p := prevTrading(t)
			if p < 0 {
				p = t
			}
			blk[i] = [2]float64{round2(math.Exp(m.logClose(p))), math.Max(m.sec.Vol, m.sec.Vol*math.Exp(m.logVolMult(p)))}
		}
		v, _ = m.inputs.LoadOrStore(b, &blk)
	}
	x := v.(*[64][2]float64)[n%64]
	return x[0], x[1]
}
