// Package sim is the sandbox's simulated market in motion: the chain's
// quotes, greeks and IV at a moment, the day's option trades, the quotes of
// one contract or stock, trades with greeks and the scanner's rows. It
// stands on package market (what is listed, and the underlying's path) and
// package pricing, and speaks in the api package's types so that the
// HTTP layer only filters, nulls and encodes.
//
// Everything is a pure function of (symbol, date, time of day): a moment's
// state is computed once per tick (one second) and shared by every request
// of that tick, and a day's trades are generated once per symbol and day,
// as far into the day as they are read (drawn.go); both are cached with a
// bound, so memory stays flat however many clients ask. A historical day is the same function at the session's close, so the
// same request always gives the same bytes.
package sim

import (
	"errors"
	"time"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/scan"
)

// Config configures New.
type Config struct {
	// Now is the real clock; live state follows it. Default time.Now.
	Now func() time.Time
	// CacheEntries bounds each cache (chain states, trade days); default 64.
	// The per-day caches the scanner walks (listings, trade skeletons, day
	// summaries) hold at least two days of every optionable symbol, or a
	// scan would evict what the next one needs.
	CacheEntries int
	// ChainContracts bounds the contracts held by cached chains, whatever
	// their number (an api.OptionData each, and SPX has 20,000);
	// default 50,000: the live and the delayed SPX chain and a spare. A
	// chain is priced once per tick, and a tick that has passed is asked
	// for again only by a delayed client, 15 minutes later.
	ChainContracts int
	// Trades bounds the option trades held by cached trade days (each
	// with its skeleton; an SPX day holds tens of thousands); default
	// 400,000.
	Trades int
	// CacheDir keeps each symbol's start-of-day open interest between
	// processes (oicache.go), which a short-lived process would otherwise
	// compute from the whole previous day's trades; "" keeps nothing.
	CacheDir string
}

// Moment is the instant a request sees: a date and a time of day, Eastern,
// and whether it is a historical (end-of-day) view.
type Moment struct {
	Date       api.Date
	Time       api.TimeOfDay
	Historical bool
	// Requested is the date the request asked for. It differs from Date
	// when that day had no session (a weekend, a holiday): the snapshot
	// endpoints show the last session, while trade endpoints can answer 204
	// rather than another day's trades.
	Requested api.Date
}

// Delay is how far delayed data lags live data.
const Delay = 15 * time.Minute

// ErrFutureDate is Moment's answer for a date after today (Eastern).
var ErrFutureDate = errors.New("date must not be later than today (Eastern)")

// Market is the simulated market. It is safe for concurrent use; all its
// state is in bounded caches of values computed from market's reference data.
type Market struct {
	u          *market.Universe
	now        func() time.Time
	optionable []*market.Security

	books  *lru[dayKey, *book]
	skels  *lru[dayKey, *skeleton]
	pastSk *lru[dayKey, *skeleton] // days before today's: drawn.go
	trades *lru[dayKey, *tradeDay]
	states *lru[dayKey, *dayState]
	hists  *lru[dayKey, *history]
	unders *lru[tickKey, *underState]
	chains *lru[chainKey, *Chain]
	scans  *lru[tickKey, []scan.Quote]
	oiFile *oiCache
}

// dayKey names one symbol's trading day; tickKey one second of it.
type dayKey struct {
	sym  string
	date api.Date
}

type tickKey struct {
	sym  string
	date api.Date
	tick api.TimeOfDay
}

// New returns a market over market.Default().
func New(cfg Config) *Market {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CacheEntries <= 0 {
		cfg.CacheEntries = 64
	}
	if cfg.ChainContracts <= 0 {
		cfg.ChainContracts = 50_000
	}
	if cfg.Trades <= 0 {
		cfg.Trades = 400_000
	}
	u := market.Default()
	m := &Market{u: u, now: cfg.Now, oiFile: &oiCache{dir: cfg.CacheDir}}
	m.optionable = u.Optionable()
	n := cfg.CacheEntries
	perDay := max(n, 2*len(m.optionable)+16)
	m.books = newLRU[dayKey, *book](perDay, 0, nil)
	m.skels = newLRU[dayKey, *skeleton](perDay, 0, nil)
	m.pastSk = newLRU[dayKey](perDay, int64(cfg.Trades), func(s *skeleton) int64 { return int64(len(s.trades)) })
	m.states = newLRU[dayKey, *dayState](perDay, 0, nil)
	m.hists = newLRU[dayKey, *history](perDay, 0, nil)
	m.trades = newLRU[dayKey](n, int64(cfg.Trades), func(d *tradeDay) int64 { return int64(len(d.px)) })
	m.chains = newLRU[chainKey](n, int64(cfg.ChainContracts), func(c *Chain) int64 { return int64(len(c.Options)) })
	m.unders = newLRU[tickKey, *underState](max(4*n, 4*len(m.optionable)), 0, nil)
	m.scans = newLRU[tickKey, []scan.Quote](8, 0, nil)
	return m
}

// Moment is what a request for date in mode sees.
//
// A date after today (Eastern) is ErrFutureDate. A date before today is
// historical: the last trading day on or before it, at its close. Today is
// live (now's time of day) or delayed (15 minutes earlier, floored at
// midnight); before the open the state is the last close and after the
// close the day's close, while Date stays today. On a day without a session
// (weekend, holiday) today shows the last trading day's close, live.
func (m *Market) Moment(mode api.Mode, date api.Date) (Moment, error) {
	now := m.now().In(api.Eastern)
	today := api.DateOf(now)
	switch {
	case date > today:
		return Moment{}, ErrFutureDate
	case date < today:
		d := nyse.LastTradingDay(date)
		return Moment{Date: d, Time: nyse.SessionClose(d), Historical: true, Requested: date}, nil
	}
	if !nyse.IsTradingDay(today) {
		d := nyse.LastTradingDay(today)
		return Moment{Date: d, Time: nyse.SessionClose(d), Requested: date}, nil
	}
	t := now
	if mode == api.Delayed {
		t = now.Add(-Delay)
		if api.DateOf(t) != today {
			return Moment{Date: today, Time: 0, Requested: date}, nil
		}
	}
	return Moment{Date: today, Time: api.TimeOfDayOf(t), Requested: date}, nil
}

// tickOf is the second whose state a moment shows: its time floored to the
// second and clamped to the session, so that every moment before the open
// shares the state just before it and every moment after the close the
// state at the close.
func tickOf(date api.Date, t api.TimeOfDay) api.TimeOfDay {
	t -= t % 1000
	if t < nyse.SessionOpen {
		return nyse.SessionOpen - 1
	}
	return min(t, nyse.SessionClose(date))
}
