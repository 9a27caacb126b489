// Package market is the sandbox's reference data and the underlyings'
// deterministic price paths: the universe of real symbols, the NYSE
// trading calendar, the expiries and strike grids listed each day, daily
// closes and per-second intraday prices, the ATM volatility level, the
// earnings and dividend schedules, the exchange and condition tables, and
// the risk-free rate.
//
// Everything is a pure function of (symbol, date): there is no state that
// depends on the order of requests, so a historical day gives the same
// numbers on every run and machine, and any day can be computed without
// computing the days before it. Prices are anchored: Security.Price is
// the close on Anchor, and the paths run backward and forward from it.
package market

import (
	"slices"
	"sync"

	"chainwatch/api"
)

// Anchor is the day whose close is Security.Price.
const Anchor api.Date = 20261120

// Kind is the asset type of a security.
type Kind uint8

// The three kinds.
const (
	Index Kind = iota + 1
	ETF
	Stock
)

// String returns the scanner's asset_type name: index, etf or stock.
func (k Kind) String() string {
	switch k {
	case Index:
		return "index"
	case ETF:
		return "etf"
	case Stock:
		return "stock"
	}
	return "unknown"
}

// Listing is the primary listing exchange; it decides the entitlement an
// underlying quote needs (Nasdaq-listed securities need UTP).
type Listing string

// The listing exchanges of the universe.
const (
	NYSE   Listing = "NYSE"
	Nasdaq Listing = "NASDAQ"
	Arca   Listing = "NYSE Arca"
	Cboe   Listing = "Cboe"
)

// Security is one symbol of the universe. Its fields are read-only.
type Security struct {
	Symbol, Name, Sector string
	Kind                 Kind
	Listing              Listing  // Nasdaq-listed needs the utp entitlement for underlying_mid
	Optionable           bool     // false: no Roots, no chain
	Since                api.Date // first trading day (IPO/launch); no data before it
	Price                float64  // close on Anchor
	Vol                  float64  // 30-day ATM implied vol on Anchor and its typical level (fraction)
	Beta                 float64  // loading on the market factor
	DivYield             float64  // annual dividend yield, fraction (indices too, for pricing)
	DivFreq              int      // dividend events per year: 0, 1, 2, 4 or 12
	AvgVolume            int64    // shares per day; 0 for indices, which do not trade
	EPS                  float64  // annual EPS on Anchor, for earnings estimates (0 for indices/ETFs)
	Roots                []string // option roots, e.g. {"SPX","SPXW"}; {"AAPL"}

	m *lazyModel // the path model; nil for a Security not built by this package
}

// lazyModel is a security's path model, built when something first asks
// for it (Universe.model): a process that shows one symbol builds its
// model, the models it follows (SPY follows SPX) and the shared factors,
// not those of every symbol. A model is a pure function of the tables,
// so when it is built changes none of its numbers.
type lazyModel struct {
	once sync.Once
	row  *row
	m    *model
}

// Universe is the set of securities and the caches of their days. It is
// safe for concurrent use.
type Universe struct {
	secs   []*Security // sorted by symbol
	bySym  map[string]*Security
	byRoot map[string]*Security
	days   *dayCache
	walks  walks // the Brownian paths of the models, drawn on first use
}

// defaultUniverse builds the shared universe on first use.
var defaultUniverse = sync.OnceValue(func() *Universe { return newUniverse(256) })

// Default returns the shared universe, built once on first use.
func Default() *Universe { return defaultUniverse() }

// newUniverse builds a universe from the tables with a day cache of the
// given size. Tests use it to check that two builds agree.
func newUniverse(cacheDays int) *Universe {
	u := &Universe{
		bySym:  make(map[string]*Security),
		byRoot: make(map[string]*Security),
		days:   newDayCache(cacheDays),
		walks:  walks{m: map[uint64]func() *walk{}},
	}
	rows := append(append([]row(nil), indexRows...), etfRows...)
	rows = append(rows, stockRows...)
	for i := range rows {
		s := rows[i].security()
		s.m = &lazyModel{row: &rows[i]}
		if _, dup := u.bySym[s.Symbol]; dup {
			panic("market: duplicate symbol " + s.Symbol)
		}
		u.bySym[s.Symbol] = s
		u.secs = append(u.secs, s)
		for _, r := range s.Roots {
			if _, dup := u.byRoot[r]; dup {
				panic("market: duplicate root " + r)
			}
			u.byRoot[r] = s
		}
	}
	slices.SortFunc(u.secs, func(a, b *Security) int {
		if a.Symbol < b.Symbol {
			return -1
		}
		if a.Symbol > b.Symbol {
			return 1
		}
		return 0
	})
	return u
}

// All returns every security sorted by symbol. The slice is a copy; the
// securities are shared and read-only.
func (u *Universe) All() []*Security { return slices.Clone(u.secs) }

// Optionable returns the securities with listed options, sorted by symbol.
func (u *Universe) Optionable() []*Security {
	out := make([]*Security, 0, len(u.secs))
	for _, s := range u.secs {
		if s.Optionable {
			out = append(out, s)
		}
	}
	return out
}

// Lookup finds a security by its exact symbol; symbols are case
// sensitive, as the service's are.
func (u *Universe) Lookup(symbol string) (*Security, bool) {
	s, ok := u.bySym[symbol]
	return s, ok
}

// ByRoot finds the security an option root belongs to ("SPXW" gives SPX).
func (u *Universe) ByRoot(root string) (*Security, bool) {
	s, ok := u.byRoot[root]
	return s, ok
}

// model returns s's path model, building it on first use, also for a
// Security value copied or built outside the package (found again by
// symbol).
func (u *Universe) model(s *Security) *model {
	if s.m == nil {
		t, ok := u.bySym[s.Symbol]
		if !ok {
			return nil
		}
		s = t
	}
	c := s.m
	c.once.Do(func() { c.m = u.buildModel(u.bySym[s.Symbol], c.row) })
	return c.m
}
