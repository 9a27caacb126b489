package market

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"chainwatch/api"
	"chainwatch/market"
)

// The daily path of a security. The log close on day n is
//
//	log Price + beta sM (Wm(n)-Wm(A)) + gS (Ws(n)-Ws(A)) + gI (Wi(n)-Wi(A))
//	          + mu (n-A)/365.25 + J(n) - J(A)
//
// with Wm the market factor every security shares (weighted by beta), Ws
// a sector factor (so XLE moves with XOM), Wi the security's own part, mu
// a drift that makes the past cheaper (more so for high beta), and J the
// cumulative earnings jumps on report days. Every term vanishes on Anchor
// A, so the close on Anchor is Price exactly. The loadings are chosen so
// that the realised vol is a little under the security's implied Vol, as
// it is in real markets.
//
// Before Anchor the security's own terms (Wi and J) are Brownian bridges
// pinned to zero at Since, and the sector factors at 2000-01-01: their
// daily moves are those of the free processes, but a stock's own luck
// cannot carry its listing-day price to a few cents or to thousands;
// where it started is the market's path and the drift.
//
// Trackers (SPY, XSP, QQQ, ...) are their index times a fixed ratio; VIX
// is the S&P 500's 30-day vol level times a fixed ratio.

// pathKind says how a model's closes are made.
type pathKind uint8

const (
	ownPath   pathKind = iota // the factor formula above
	trackPath                 // base's path times ratio
	vixPath                   // 100 x base's vol level times ratio
)

// Factor model constants.
const (
	realisedShare = 0.92 // realised vol as a share of implied vol
	volWalkSD     = 0.13 // sd of the vol-of-vol walk, in log vol
)

// noFactor lists the sectors without a shared sector factor.
var noFactor = map[string]bool{"Index": true, "Broad Market": true}

// model is the unexported path description of one security.
type model struct {
	sec    *Security
	opts   rowOpts
	kind   pathKind
	base   *model     // trackPath, vixPath
	ratio  float64    // trackPath, vixPath
	nA     int        // Anchor's day number
	logP   float64    // log Price
	key    uint64     // hash of the symbol, for everything derived from it
	mkt    float64    // loading on the market factor
	sector float64    // loading on the sector factor
	idio   float64    // loading on the security's own factor
	mktW   *walk      // the market factor
	secW   *walk      // the sector factor
	ownW   *walk      // the security's own factor
	vovMW  *walk      // the market-wide vol regime
	vovOW  *walk      // the security's own vol walk
	mu     float64    // drift per year
	wA     [3]float64 // market, sector and own W on Anchor
	nS     int        // Since's day number
	ownS   float64    // own W on Since minus on Anchor
	jumpS  float64    // cumulative jump on Since minus on Anchor
	lambda float64    // leverage: d log vol / d log price
	vovMkt float64    // weight of the shared vol walk (the rest is own)
	zA     float64    // raw vol walk on Anchor
	earn   earnSpec
	specs  []rootSpec // option roots, sorted by root
	jumpN  []int      // earnings reaction days, ascending
	jumpC  []float64  // cumulative log jump through jumpN[i]
	jumpA  float64    // cumulative jump on Anchor
	listed sync.Map   // listKey -> first listing day, firstListed's
	inputs sync.Map   // block of 64 days -> *[64][2]float64, gridInputs'
	listMu sync.Mutex
	lists  map[listKey]listState // listingOn's latest unions
}

var marketKey, marketVolKey = hashKey("market"), hashKey("market", "vol")

// buildModel makes the model of s, a security of u from row r. The
// models it follows (a tracker's index, the VIX's S&P 500) are built
// first, whole: the VIX's walk reads the S&P 500's vol level.
func (u *Universe) buildModel(s *Security, r *row) *model {
	nA := dayNum(Anchor)
	spx := u.bySym["SPX"]
	m := &model{sec: s, opts: r.parseOpts(), nA: nA, logP: math.Log(s.Price), key: hashKey(s.Symbol)}
	sigma := realisedShare * s.Vol
	m.mkt = s.Beta * realisedShare * spx.Vol
	resid := math.Max(0, sigma*sigma-m.mkt*m.mkt)
	share := 0.35
	switch {
	case noFactor[m.opts.factor]:
		share = 0
	case s.Kind != Stock:
		share = 0.8
	}
	m.sector, m.idio = math.Sqrt(share*resid), math.Sqrt((1-share)*resid)
	ws := &u.walks
	m.mktW, m.secW, m.ownW = ws.get(marketKey), ws.get(hashKey("sector", m.opts.factor)), ws.get(m.key)
	m.vovMW, m.vovOW = ws.get(marketVolKey), ws.get(mix(m.key, 1))
	m.mu = drift(s)
	m.lambda, m.vovMkt = leverage(s, m.opts.factor)
	m.earn = newEarnSpec(s, m.opts)
	m.specs = rootSpecs(s, m.opts)
	slices.SortFunc(m.specs, func(a, b rootSpec) int { return strings.Compare(a.root, b.root) })
	switch {
	case m.opts.vix:
		m.kind, m.base = vixPath, u.model(spx)
		m.ratio = s.Price / (100 * spx.Vol)
	case m.opts.track != "":
		b := u.bySym[m.opts.track]
		m.kind, m.base, m.ratio = trackPath, u.model(b), s.Price/b.Price
	}
	m.nS = dayNum(s.Since)
	m.wA = [3]float64{m.mktW.at(nA), m.secW.at(nA), m.ownW.at(nA)}
	m.ownS = m.ownW.at(m.nS) - m.wA[2]
	m.buildJumps()
	m.zA = m.volWalk(nA)
	return m
}

// drift returns the yearly log drift of an own path: indices grow with
// their beta (the S&P 500 some 8.5 % a year), shares and funds a little
// less and net of their dividend yield, so a high-yield stock was not
// much cheaper twenty years ago and the VXX decays as it really does.
func drift(s *Security) float64 {
	if s.Kind == Index {
		return 0.02 + 0.065*s.Beta
	}
	return math.Max(-0.3, math.Min(0.12, 0.03+0.045*s.Beta-s.DivYield))
}

// leverage returns how a security's vol answers its own price (negative
// for VIX and VXX, whose vol rises with them) and the weight of the
// market-wide vol regime in its vol walk.
func leverage(s *Security, factor string) (lambda, shared float64) {
	switch {
	case factor == "Volatility":
		return -0.8, 0.5
	case s.Kind == Index || factor == "Broad Market":
		return 4, 0.9
	case math.Abs(s.Beta) < 0.4:
		return 0.5, 0.4
	case s.Kind == ETF:
		return 3, 0.7
	}
	return 2, 0.6
}

// pin turns a process v relative to Anchor into its bridge pinned at day
// p, where it was atP: before Anchor it subtracts the straight line
// through (p, atP) and (Anchor, 0).
func (m *model) pin(n int, v float64, p int, atP float64) float64 {
	if n >= m.nA || p >= m.nA {
		return v
	}
	return v - atP*float64(n-m.nA)/float64(p-m.nA)
}

// factors returns the loaded factors on day n relative to Anchor. The
// market factor is free; sector factors are pinned at 2000-01-01 (so no
// sector's luck makes its past dearer than its present for decades) and
// the security's own factor at its listing.
func (m *model) factors(n int) float64 {
	v := m.mkt * (m.mktW.at(n) - m.wA[0])
	if m.sector != 0 {
		v += m.sector * m.pin(n, m.secW.at(n)-m.wA[1], 0, -m.wA[1])
	}
	if m.idio != 0 {
		v += m.idio * m.pin(n, m.ownW.at(n)-m.wA[2], m.nS, m.ownS)
	}
	return v
}

// logClose returns the unrounded log close of day n.
func (m *model) logClose(n int) float64 {
	switch m.kind {
	case trackPath:
		return m.base.logClose(n) + math.Log(m.ratio)
	case vixPath:
		return math.Log(100*m.ratio*m.base.sec.Vol) + m.base.logVolMult(n)
	}
	if n == m.nA {
		return m.logP
	}
	return m.logP + m.factors(n) + m.mu*yearsBetween(m.nA, n) + m.pin(n, m.jump(n)-m.jumpA, m.nS, m.jumpS)
}

// jump returns the cumulative earnings jump through day n.
func (m *model) jump(n int) float64 {
	i := sort.SearchInts(m.jumpN, n+1) // first reaction day after n
	if i == 0 {
		return 0
	}
	return m.jumpC[i-1]
}

// volWalk is the raw log vol multiplier on day n: a stationary walk (sums
// of Brownian increments over 10 and 60 days, so shocks fade) mixing the
// market-wide regime with the security's own, plus leverage: a fall over
// the last week and month lifts the vol.
func (m *model) volWalk(n int) float64 {
	if m.kind == trackPath {
		return m.base.volWalk(n)
	}
	z := 0.0
	for _, l := range [...]int{10, 60} {
		s := math.Sqrt(float64(l) / 365.25)
		dm := m.vovMW.at(n) - m.vovMW.at(n-l)
		do := m.vovOW.at(n) - m.vovOW.at(n-l)
		z += (m.vovMkt*dm + math.Sqrt(1-m.vovMkt*m.vovMkt)*do) / s
	}
	z *= volWalkSD / math.Sqrt2
	lc := m.logClose(n)
	ret := 0.5*(lc-m.logClose(n-7)) + 0.5*(lc-m.logClose(n-30))
	return z - m.lambda*ret
}

// logVolMult returns log(vol level / Vol) on day n: the walk relative to
// Anchor, bounded.
func (m *model) logVolMult(n int) float64 {
	if m.kind == trackPath {
		return m.base.logVolMult(n)
	}
	return squash(m.volWalk(n) - m.zA)
}

// Close returns the close of the last trading day on or before d,
// rounded to the cent. It follows the path also before s.Since (callers
// that show data check Since).
func (u *Universe) Close(s *Security, d api.Date) float64 {
	m := u.model(s)
	if m == nil {
		return 0
	}
	return round2(math.Exp(m.logClose(dayNum(market.LastTradingDay(d)))))
}

// VolLevel returns the end-of-day 30-day ATM implied vol (fraction) of the
// last trading day on or before d: s.Vol on Anchor, moving with a
// vol-of-vol walk and against the price.
func (u *Universe) VolLevel(s *Security, d api.Date) float64 {
	m := u.model(s)
	if m == nil {
		return 0
	}
	return s.Vol * math.Exp(m.logVolMult(dayNum(market.LastTradingDay(d))))
}
