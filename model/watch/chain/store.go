package chain

import (
	"cmp"
	"math"
	"slices"

	"chainwatch/api"
	"chainwatch/ui"
)

// chainStore keeps an option chain in the shape the ladder draws: per
// expiry, one ui.StrikeRow per strike, ascending, with plain numbers (NaN
// and -1 for nulls). A 20,000-contract snapshot arrives every few seconds
// and the screen shows forty rows of it, so applying a snapshot must be
// cheap and must not allocate per contract.
//
// The trick is the matcher: it remembers, for every index of the last
// snapshot, the OSI symbol found there and the cell it was written to. The
// service sends the same contracts in the same order from one snapshot to
// the next, so the usual apply is one pass that checks the symbol at each
// index and updates that cell in place, diffing as it goes. Anything else
// (a new strike, an expiry that rolled off, another order) takes the
// rebuild path, which sorts and regroups and is still well within budget.
type chainStore struct {
	und    api.Underlying
	hasUnd bool
	exps   []expiryRows // ascending by date, then root (the one named like the underlying first)

	full    matcher  // the last whole-chain snapshot
	one     matcher  // the last single-expiry snapshot
	oneDate api.Date // the expiry that one describes

	order []int32 // scratch for the rebuild path
	seq   uint64  // the last expiryRows.ver given; kept across clear
}

// expiryRows is one expiry of one root of the ladder: an expiry that two
// roots list (SPX's AM monthly and SPXW's PM on the same Friday) is two,
// for they are different contracts, settled differently, and the ladder
// has one cell per strike and side.
type expiryRows struct {
	date api.Date
	root string
	rows []ui.StrikeRow
	ver  uint64 // new with every change of rows, so figures drawn from them are computed once a change
}

// matcher maps snapshot indices to cells; see chainStore.
type matcher struct {
	ids   []string       // OSI symbol at each index of the last snapshot
	cells []*ui.Contract // its cell; nil: the contract was dropped (a duplicate or invalid)
}

func (m *matcher) reset() { m.ids, m.cells = m.ids[:0], m.cells[:0] }

// matches reports whether opts are the same contracts at the same indices
// as the snapshot m was recorded from.
func (m *matcher) matches(opts []api.OptionData) bool {
	if len(opts) == 0 || len(opts) != len(m.ids) {
		return false
	}
	for i := range opts {
		if opts[i].Option != m.ids[i] {
			return false
		}
	}
	return true
}

// update writes opts into the recorded cells.
func (m *matcher) update(opts []api.OptionData, at int64) {
	for i := range opts {
		if c := m.cells[i]; c != nil {
			setContract(c, &opts[i], at)
		}
	}
}

// clear forgets everything, for a new symbol.
func (s *chainStore) clear() {
	*s = chainStore{order: s.order[:0], seq: s.seq}
}

// find returns the index of the first root of expiry d in s.exps.
func (s *chainStore) find(d api.Date) (int, bool) {
	return findDate(s.exps, d)
}

func findDate(exps []expiryRows, d api.Date) (int, bool) {
	return slices.BinarySearchFunc(exps, d, func(e expiryRows, d api.Date) int { return cmp.Compare(e.date, d) })
}

// findRoot returns the index of root's expiry d in s.exps, else of the
// first root of d (the root went away, or none was chosen).
func (s *chainStore) findRoot(d api.Date, root string) (int, bool) {
	i, ok := s.find(d)
	if !ok {
		return i, false
	}
	for j := i; j < len(s.exps) && s.exps[j].date == d; j++ {
		if s.exps[j].root == root {
			return j, true
		}
	}
	return i, true
}

// roots is how many roots list expiry d.
func (s *chainStore) roots(d api.Date) int {
	i, ok := s.find(d)
	n := 0
	for ; ok && i < len(s.exps) && s.exps[i].date == d; i++ {
		n++
	}
	return n
}

// rowsOf returns the strikes of root's expiry d, or of its first root when
// root does not list it (nil when it is not listed).
func (s *chainStore) rowsOf(d api.Date, root string) []ui.StrikeRow {
	if i, ok := s.findRoot(d, root); ok {
		return s.exps[i].rows
	}
	return nil
}

// applyFull replaces the whole chain by snap, keeping cells (and computing
// flashes) for the contracts that were already there.
func (s *chainStore) applyFull(snap *api.SymbolWithOptions, at int64) {
	s.und, s.hasUnd = snap.Underlying, true
	opts := snap.Options
	if s.full.matches(opts) {
		s.full.update(opts, at)
		for i := range s.exps {
			s.touch(i)
		}
		return
	}
	s.exps = s.build(opts, snap.Symbol, 0, s.exps, &s.full, at)
	// The rebuild moved every row, so the single-expiry matcher points at
	// the old ones.
	s.one.reset()
}

// applyExpiry replaces the rows of expiry d by the contracts of snap that
// belong to it; the other expiries are left as they are.
func (s *chainStore) applyExpiry(d api.Date, snap *api.SymbolWithOptions, at int64) {
	s.und, s.hasUnd = snap.Underlying, true
	opts := snap.Options
	if s.oneDate == d && s.one.matches(opts) {
		s.one.update(opts, at)
		for i, ok := s.find(d); ok && i < len(s.exps) && s.exps[i].date == d; i++ {
			s.touch(i)
		}
		return
	}
	i, found := s.find(d)
	j := i
	for j < len(s.exps) && s.exps[j].date == d {
		j++
	}
	old := s.exps[i:j]
	s.oneDate = d
	built := s.build(opts, snap.Symbol, d, old, &s.one, at)
	switch {
	case len(built) > 0:
		s.exps = slices.Replace(s.exps, i, j, built...)
	case found:
		// The expiry is listed but has no contracts now: one empty tab.
		s.exps = slices.Replace(s.exps, i, j, expiryRows{date: d, root: s.exps[i].root})
		s.touch(i)
	}
	// The expiry's rows were reallocated, so the whole-chain matcher no
	// longer points at them; the next whole chain takes the rebuild path.
	s.full.reset()
}

// touch marks expiry i's rows changed.
func (s *chainStore) touch(i int) {
	s.seq++
	s.exps[i].ver = s.seq
}

// build groups the contracts of opts (only those of expiry only, unless it
// is 0) into new expiries, diffing each against the same contract in old,
// and records the index-to-cell map in m. One allocation holds every row.
func (s *chainStore) build(opts []api.OptionData, symbol string, only api.Date, old []expiryRows, m *matcher, at int64) []expiryRows {
	ord := s.sorted(opts, symbol, only)
	s.order = ord
	nExp, nRows := countRows(opts, ord)
	exps := make([]expiryRows, 0, nExp)
	rows := make([]ui.StrikeRow, nRows)
	m.ids = slices.Grow(m.ids[:0], len(opts))[:len(opts)]
	m.cells = slices.Grow(m.cells[:0], len(opts))[:len(opts)]
	reliable := true
	for i := range opts {
		m.ids[i], m.cells[i] = opts[i].Option, nil
		reliable = reliable && opts[i].Option != ""
	}

	r, start := -1, 0
	var prev []ui.StrikeRow // the same expiry before: its rows, for the diff
	var pr *ui.StrikeRow    // the same strike before, if any
	p := 0                  // merge position in prev (both are ascending)
	for k, j := range ord {
		o := &opts[j]
		newExp := k == 0 || !sameExpiry(o, &opts[ord[k-1]])
		if newExp {
			if k > 0 {
				exps[len(exps)-1].rows = rows[start : r+1 : r+1]
			}
			s.seq++
			exps = append(exps, expiryRows{date: o.Expiry, root: o.Root, ver: s.seq})
			start, prev, p = r+1, rowsOf(old, o.Expiry, o.Root), 0
		}
		if newExp || o.Strike != rows[r].Strike {
			r++
			rows[r] = ui.StrikeRow{Strike: o.Strike, Call: unlisted, Put: unlisted}
			for p < len(prev) && prev[p].Strike < o.Strike {
				p++
			}
			pr = nil
			if p < len(prev) && prev[p].Strike == o.Strike {
				pr = &prev[p]
			}
		}
		c := &rows[r].Call
		if o.OptionType == api.Put {
			c = &rows[r].Put
		}
		if pr != nil {
			// Start from the old cell: setContract diffs against it when
			// it is the same contract (same OSI) and refills it otherwise.
			if o.OptionType == api.Put {
				*c = pr.Put
			} else {
				*c = pr.Call
			}
		}
		setContract(c, o, at)
		m.cells[j] = c
	}
	if r >= 0 {
		exps[len(exps)-1].rows = rows[start : r+1 : r+1]
	}
	if !reliable {
		// Without a symbol at every index the identity check could pass
		// for different contracts: always rebuild.
		m.reset()
	}
	return exps
}

// countRows is how many expiries (one per root of a date) and strike
// rows the contracts of opts in the order ord make.
func countRows(opts []api.OptionData, ord []int32) (nExp, nRows int) {
	for k, j := range ord {
		if k == 0 || !sameExpiry(&opts[j], &opts[ord[k-1]]) {
			nExp++
			nRows++
		} else if opts[j].Strike != opts[ord[k-1]].Strike {
			nRows++
		}
	}
	return nExp, nRows
}

// rowsOf is the rows old held for date's root, to diff the new ones
// against; nil when it held none.
func rowsOf(old []expiryRows, date api.Date, root string) []ui.StrikeRow {
	i, ok := findDate(old, date)
	if !ok {
		return nil
	}
	for ; i < len(old) && old[i].date == date; i++ {
		if old[i].root == root {
			return old[i].rows
		}
	}
	return nil
}

// unlisted is the cell of a strike where the call or the put does not exist.
var unlisted = ui.Contract{
	Bid: math.NaN(), Ask: math.NaN(), Mid: math.NaN(), Last: math.NaN(),
	Open: math.NaN(), High: math.NaN(), Low: math.NaN(), PrevClose: math.NaN(),
	IV: math.NaN(), Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN(), Rho: math.NaN(),
	BidSize: -1, AskSize: -1, Volume: -1, OI: -1, Trades: -1,
}

// sorted returns the indices of the usable contracts of opts (a call or a
// put, of expiry only when it is not 0) ordered by expiry, root (the one
// named like the underlying first: SPX's AM monthly before SPXW's PM),
// strike and type, one per contract. The service sends them sorted by
// root, expiry, strike and type, so a single-root chain is usually in
// order already and costs one pass; otherwise the indices are sorted.
func (s *chainStore) sorted(opts []api.OptionData, symbol string, only api.Date) []int32 {
	ord := s.order[:0]
	inOrder := true
	for i := range opts {
		o := &opts[i]
		if !o.OptionType.Valid() || (only != 0 && o.Expiry != only) {
			continue // leaving one out keeps the rest in order
		}
		if n := len(ord); n > 0 && compareContract(&opts[ord[n-1]], o, symbol) >= 0 {
			inOrder = false
		}
		ord = append(ord, int32(i))
	}
	if inOrder {
		return ord
	}
	slices.SortFunc(ord, func(a, b int32) int {
		if c := compareContract(&opts[a], &opts[b], symbol); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// Keep the first of each contract.
	return slices.CompactFunc(ord, func(a, b int32) bool { return compareContract(&opts[a], &opts[b], symbol) == 0 })
}

func compareContract(a, b *api.OptionData, symbol string) int {
	if c := cmp.Compare(a.Expiry, b.Expiry); c != 0 {
		return c
	}
	if a.Root != b.Root {
		if c := cmp.Compare(rootRank(a.Root, symbol), rootRank(b.Root, symbol)); c != 0 {
			return c
		}
		return cmp.Compare(a.Root, b.Root)
	}
	if c := cmp.Compare(a.Strike, b.Strike); c != 0 {
		return c
	}
	return cmp.Compare(a.OptionType, b.OptionType) // "C" < "P"
}

// sameExpiry reports whether a and b are of one expiry of one root.
func sameExpiry(a, b *api.OptionData) bool { return a.Expiry == b.Expiry && a.Root == b.Root }

func rootRank(root, symbol string) int {
	if root == symbol {
		return 0
	}
	return 1
}
