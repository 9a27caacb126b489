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
	exps   []expiryRows // ascending by date

	full    matcher  // the last whole-chain snapshot
	one     matcher  // the last single-expiry snapshot
	oneDate api.Date // the expiry that one describes

	order []int32 // scratch for the rebuild path
}

// expiryRows is one expiry of the ladder.
type expiryRows struct {
	date api.Date
	rows []ui.StrikeRow
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
	*s = chainStore{order: s.order[:0]}
}

// find returns the index of expiry d in s.exps.
func (s *chainStore) find(d api.Date) (int, bool) {
	return slices.BinarySearchFunc(s.exps, d, func(e expiryRows, d api.Date) int { return cmp.Compare(e.date, d) })
}

// rowsOf returns the strikes of expiry d (nil when it is not listed).
func (s *chainStore) rowsOf(d api.Date) []ui.StrikeRow {
	if i, ok := s.find(d); ok {
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
		return
	}
	i, found := s.find(d)
	var old []expiryRows
	if found {
		old = s.exps[i : i+1]
	}
	s.oneDate = d
	built := s.build(opts, snap.Symbol, d, old, &s.one, at)
	switch {
	case len(built) == 1 && found:
		s.exps[i] = built[0]
	case len(built) == 1:
		s.exps = slices.Insert(s.exps, i, built[0])
	case found:
		s.exps[i].rows = nil // the expiry is listed but has no contracts now
	}
	// The expiry's rows were reallocated, so the whole-chain matcher no
	// longer points at them; the next whole chain takes the rebuild path.
	s.full.reset()
}

// build groups the contracts of opts (only those of expiry only, unless it
// is 0) into new expiries, diffing each against the same contract in old,
// and records the index-to-cell map in m. One allocation holds every row.
func (s *chainStore) build(opts []api.OptionData, symbol string, only api.Date, old []expiryRows, m *matcher, at int64) []expiryRows {
	ord := s.sorted(opts, symbol, only)
	s.order = ord
	nExp, nRows := 0, 0
	for k, j := range ord {
		if k == 0 || opts[j].Expiry != opts[ord[k-1]].Expiry {
			nExp++
			nRows++
		} else if opts[j].Strike != opts[ord[k-1]].Strike {
			nRows++
		}
	}
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
		newExp := k == 0 || o.Expiry != opts[ord[k-1]].Expiry
		if newExp {
			if k > 0 {
				exps[len(exps)-1].rows = rows[start : r+1 : r+1]
			}
			exps = append(exps, expiryRows{date: o.Expiry})
			start, prev, p = r+1, nil, 0
			if i, ok := slices.BinarySearchFunc(old, o.Expiry, func(e expiryRows, d api.Date) int { return cmp.Compare(e.date, d) }); ok {
				prev = old[i].rows
			}
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

// unlisted is the cell of a strike where the call or the put does not exist.
var unlisted = ui.Contract{
	Bid: math.NaN(), Ask: math.NaN(), Mid: math.NaN(), Last: math.NaN(),
	Open: math.NaN(), High: math.NaN(), Low: math.NaN(), PrevClose: math.NaN(),
	IV: math.NaN(), Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN(), Rho: math.NaN(),
	BidSize: -1, AskSize: -1, Volume: -1, OI: -1, Trades: -1,
}

// sorted returns the indices of the usable contracts of opts (a call or a
// put, of expiry only when it is not 0) ordered by expiry, strike and type,
// one per contract. The service sends them sorted by root, expiry, strike
// and type, so a single-root chain is usually in order already and costs one
// pass; otherwise the indices are sorted. Where two roots list the same
// contract (SPX and SPXW on a monthly), the root named like the underlying
// wins, for the ladder has one cell per strike and side.
func (s *chainStore) sorted(opts []api.OptionData, symbol string, only api.Date) []int32 {
	ord := s.order[:0]
	inOrder := true
	for i := range opts {
		o := &opts[i]
		if !o.OptionType.Valid() || (only != 0 && o.Expiry != only) {
			continue // leaving one out keeps the rest in order
		}
		if n := len(ord); n > 0 && compareContract(&opts[ord[n-1]], o) >= 0 {
			inOrder = false
		}
		ord = append(ord, int32(i))
	}
	if inOrder {
		return ord
	}
	slices.SortFunc(ord, func(a, b int32) int {
		x, y := &opts[a], &opts[b]
		if c := compareContract(x, y); c != 0 {
			return c
		}
		if c := cmp.Compare(rootRank(x.Root, symbol), rootRank(y.Root, symbol)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Root, y.Root); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// Keep the first of each contract.
	return slices.CompactFunc(ord, func(a, b int32) bool { return compareContract(&opts[a], &opts[b]) == 0 })
}

func compareContract(a, b *api.OptionData) int {
	if c := cmp.Compare(a.Expiry, b.Expiry); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Strike, b.Strike); c != 0 {
		return c
	}
	return cmp.Compare(a.OptionType, b.OptionType) // "C" < "P"
}

func rootRank(root, symbol string) int {
	if root == symbol {
		return 0
	}
	return 1
}

// setContract writes o into c. When c already holds the same contract, the
// columns whose value changed are marked (Rose: went up, or appeared) with
// the time at; a cell that did not change keeps its last flash, which has
// long faded by the next snapshot. A new contract does not flash.
func setContract(c *ui.Contract, o *api.OptionData, at int64) {
	bid, ask := api.OrNaN(o.Bid), api.OrNaN(o.Ask)
	mid := api.OrNaN(o.Mid)
	if !o.Mid.Valid && o.Bid.Valid && o.Ask.Valid {
		mid = (bid + ask) / 2
	}
	last, volume, oi := api.OrNaN(o.LastTradePrice), intv(o.Volume), intv(o.OpenInterest)
	iv, delta, gamma, theta, vega := api.OrNaN(o.IV), api.OrNaN(o.Delta), api.OrNaN(o.Gamma), api.OrNaN(o.Theta), api.OrNaN(o.Vega)
	bidSize, askSize := intv(o.BidSize), intv(o.AskSize)

	if c.OSI == "" || c.OSI != o.Option {
		*c = ui.Contract{OSI: o.Option}
		if c.OSI == "" {
			c.OSI, _ = api.FormatOSI(o.Root, o.Expiry, o.OptionType, o.Strike)
		}
	} else {
		var ch, rose ui.ColMask
		diffF(&ch, &rose, ui.ColBid, c.Bid, bid)
		diffF(&ch, &rose, ui.ColAsk, c.Ask, ask)
		diffF(&ch, &rose, ui.ColMid, c.Mid, mid)
		diffF(&ch, &rose, ui.ColLast, c.Last, last)
		diffI(&ch, &rose, ui.ColVolume, c.Volume, volume)
		diffI(&ch, &rose, ui.ColOI, c.OI, oi)
		diffF(&ch, &rose, ui.ColIV, c.IV, iv)
		diffF(&ch, &rose, ui.ColDelta, c.Delta, delta)
		diffF(&ch, &rose, ui.ColGamma, c.Gamma, gamma)
		diffF(&ch, &rose, ui.ColTheta, c.Theta, theta)
		diffF(&ch, &rose, ui.ColVega, c.Vega, vega)
		diffI(&ch, &rose, ui.ColBidSize, c.BidSize, bidSize)
		diffI(&ch, &rose, ui.ColAskSize, c.AskSize, askSize)
		if ch != 0 {
			c.Changed, c.Rose, c.ChangedAt = ch, rose, at
		}
	}
	c.Bid, c.Ask, c.Mid, c.Last = bid, ask, mid, last
	c.Open, c.High, c.Low, c.PrevClose = api.OrNaN(o.Open), api.OrNaN(o.High), api.OrNaN(o.Low), api.OrNaN(o.PrevDayClose)
	c.IV, c.Delta, c.Gamma, c.Theta, c.Vega, c.Rho = iv, delta, gamma, theta, vega, api.OrNaN(o.Rho)
	c.BidSize, c.AskSize, c.Volume, c.OI, c.Trades = bidSize, askSize, volume, oi, intv(o.TradeCount)
}

func intv(n api.Int) int64 {
	if n.Valid && n.V >= 0 {
		return n.V
	}
	return -1
}

// diffF marks col when the value changed; null to null is no change.
func diffF(ch, rose *ui.ColMask, col ui.Col, old, new float64) {
	if old == new || (old != old && new != new) {
		return
	}
	*ch |= 1 << col
	if new > old || (old != old && new == new) {
		*rose |= 1 << col
	}
}

func diffI(ch, rose *ui.ColMask, col ui.Col, old, new int64) {
	if old == new {
		return
	}
	*ch |= 1 << col
	if new > old {
		*rose |= 1 << col
	}
}

// header returns the underlying's quote of the last snapshot for the
// header; the zero store gives nulls throughout.
func (s *chainStore) header() ui.HeaderData {
	u := &s.und
	h := ui.HeaderData{
		Symbol: u.Symbol,
		Last:   api.OrNaN(u.LastTradePrice), PrevClose: api.OrNaN(u.PrevDayClose),
		Bid: api.OrNaN(u.Bid), Ask: api.OrNaN(u.Ask), BidSize: intv(u.BidSize), AskSize: intv(u.AskSize),
		Open: api.OrNaN(u.Open), High: api.OrNaN(u.High), Low: api.OrNaN(u.Low), Volume: intv(u.Volume),
		IV30: api.OrNaN(u.IV30), IV30Change: api.OrNaN(u.IV30Change),
		ImpliedBid: api.OrNaN(u.ImpliedUnderlyingBid), ImpliedAsk: api.OrNaN(u.ImpliedUnderlyingAsk), ImpliedMid: api.OrNaN(u.ImpliedUnderlyingMid),
		AsOf: -1,
	}
	if s.hasUnd {
		h.AsOf = u.Timestamp
		h.Indicator = indicator(u.ImpliedUnderlyingBid, u.ImpliedUnderlyingAsk, u.ImpliedUnderlyingMid)
	}
	return h
}

// indicator grades the implied underlying's spread as the service's
// underlying-quotes does (the chain endpoint does not send the grade):
// spread over price below 0.01 is green, up to 0.02 yellow, above red.
// Without both sides (historical dates) it is unknown.
func indicator(bid, ask, mid api.Float) api.Indicator {
	if !bid.Valid || !ask.Valid {
		return ""
	}
	m := (bid.V + ask.V) / 2
	if mid.Valid {
		m = mid.V
	}
	if !(m > 0) {
		return ""
	}
	switch r := (ask.V - bid.V) / m; {
	case r < 0.01:
		return api.Green
	case r <= 0.02:
		return api.Yellow
	}
	return api.Red
}
