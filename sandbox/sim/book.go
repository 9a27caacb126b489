package sim

import (
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/pricing"
	"chainwatch/sandbox/market"
)

// Milliseconds in a day and in an ACT/365 year.
const (
	dayMs  = 86_400_000
	yearMs = pricing.DaysPerYear * dayMs
)

// series is one listed expiry of one root, with what pricing needs of it.
type series struct {
	market.Series
	base    int           // index of its first contract in the book
	days    int           // calendar days from the book's date to the expiry
	settle  api.TimeOfDay // settlement time on the expiry day
	monthly bool          // the standard monthly expiry: open interest gathers there
	seed    uint64        // per-series hash for deterministic sizes
}

// alive reports whether the series still trades at tick of the book's day:
// an expiry on that day is gone once its settlement time has passed.
func (s *series) alive(tick api.TimeOfDay) bool { return s.days > 0 || tick <= s.settle }

// years is the time from tick to settlement in ACT/365 years, at least one
// minute (pricing.MinT), so an option in its last minute still has a price.
func (s *series) years(tick api.TimeOfDay) float64 {
	ms := float64(s.days)*dayMs + float64(s.settle-tick)
	return max(ms/yearMs, pricing.MinT)
}

// book is what is listed for one optionable symbol on one trading day, in
// the chain's order: series by root and expiry, strikes ascending, the call
// before the put. A contract is a number: base + 2*strike index (+1 for the
// put), which is how trades, open interest and previous closes refer to it.
type book struct {
	sec    *market.Security
	date   api.Date
	day    *market.Day
	series []series
	n      int

	r, q     float64  // rate and dividend yield of the day
	american bool     // options exercisable any day (stocks and funds), not only at expiry (indices)
	skew     skewKind // the shape of the vol surface
	penny    bool     // 0.01 ticks at every price
	dailies  bool     // lists an expiry every day (SPXW, SPY, QQQ): 0DTE draws heavy trading
	illiq    float64  // spread multiplier of the carrying cost, 1 for the most liquid names
	baseW    float64  // base spread width in dollars, from the price level
	adverse  float64  // adverse-selection half-spread per unit of delta, per unit of S and of vol
	sizes    float64  // quote size scale
	seed     uint64

	events [2]event // the next two earnings reports from the book's date
	evVar  float64  // total variance an earnings report adds

	namesOnce sync.Once
	names     []string // OSI symbols by contract, built on first use
}

// event is an earnings report as a moment: whole days after the book's date
// and a time of day; ok is false when there is none.
type event struct {
	days int
	at   api.TimeOfDay
	ok   bool
}

// skewKind is the shape of a security's volatility surface.
type skewKind uint8

const (
	stockSkew skewKind = iota // single names, commodities, bonds: mild skew, more smile
	indexSkew                 // equity indices and their funds: a steep put skew
	volSkew                   // VIX and its products: calls richer, as spikes are up
)

// nonEquity are the fund sectors whose options do not carry the equity
// index's put skew.
var nonEquity = []string{"Precious Metals", "Commodities", "Fixed Income", "Digital Assets"}

// surface is the volatility surface of the book around a 30-day ATM vol.
func (b *book) surface(atm float64) Surface {
	switch b.skew {
	case indexSkew:
		return DefaultSurface(atm, true)
	case volSkew:
		return UpsideSurface(atm)
	}
	return DefaultSurface(atm, false)
}

// book returns the listing of sec on date, or false when sec has no options
// or no data that day.
func (m *Market) book(sec *market.Security, date api.Date) (*book, bool) {
	if !sec.Optionable {
		return nil, false
	}
	return m.books.get(dayKey{sec.Symbol, date}, func() (*book, bool) {
		day, ok := m.u.Day(sec, date)
		if !ok {
			return nil, false
		}
		b := &book{sec: sec, date: date, day: day, r: market.Rate(date), q: sec.DivYield,
			american: sec.Kind != market.Index, seed: seed(sec.Symbol, date, "book")}
		week := map[string]int{} // PM expiries within a week, by root
		for _, ms := range m.u.Series(sec, date) {
			s := series{Series: ms, base: b.n, days: date.DaysUntil(ms.Expiry)}
			s.settle = min(nyse.SessionClose(ms.Expiry), 16*3600_000)
			if ms.AMSettled {
				s.settle = nyse.SessionOpen
			}
			wd, d := ms.Expiry.Weekday(), ms.Expiry.Day()
			s.monthly = ms.AMSettled || wd == time.Friday && d >= 15 && d <= 21
			s.seed = mix(b.seed ^ uint64(ms.Expiry)<<8 ^ rootHash(ms.Root))
			if s.days < 0 || len(ms.Strikes) == 0 {
				continue
			}
			b.series = append(b.series, s)
			b.n += 2 * len(ms.Strikes)
			if s.days <= 7 && !ms.AMSettled {
				week[ms.Root]++
				b.dailies = b.dailies || week[ms.Root] >= 3
			}
		}
		b.setLiquidity()
		b.evVar = EarningsVar(m.u.EarningsMove(sec))
		b.events[0] = m.nextEvent(sec, date, date)
		if e := b.events[0]; e.ok {
			b.events[1] = m.nextEvent(sec, date, date.AddDays(e.days+1))
		}
		return b, true
	})
}

// nextEvent is the first earnings report of sec on or after from, as seen
// from the book's date. A report before the open takes effect at the open,
// one during the day at noon, one after the close just after it: an expiry
// carries the event when it settles after that moment.
func (m *Market) nextEvent(sec *market.Security, date, from api.Date) event {
	if sec.Kind != market.Stock {
		return event{}
	}
	d, when, ok := m.u.NextEarnings(sec, from)
	if !ok {
		return event{}
	}
	at := nyse.SessionOpen
	switch when {
	case api.AfterClose:
		at = 16*3600_000 + 30*60_000
	case api.DuringMarket:
		at = 12 * 3600_000
	}
	return event{days: date.DaysUntil(d), at: at, ok: true}
}

// rootHash distinguishes roots sharing an expiry (SPX and SPXW).
func rootHash(root string) uint64 {
	var h uint64
	for i := 0; i < len(root); i++ {
		h = h*131 + uint64(root[i])
	}
	return h << 40
}

// contract returns the series, strike index and side of contract ci.
func (b *book) contract(ci int) (s *series, k int, put bool) {
	s = &b.series[b.seriesOf(ci)]
	off := ci - s.base
	return s, off / 2, off%2 == 1
}

// seriesOf is the index of contract ci's series.
func (b *book) seriesOf(ci int) int {
	return sort.Search(len(b.series), func(i int) bool { return b.series[i].base > ci }) - 1
}

// find returns the contract number of o, or false if it is not listed.
func (b *book) find(o api.OSI) (int, bool) {
	for i := range b.series {
		s := &b.series[i]
		if s.Root != o.Root || s.Expiry != o.Expiry {
			continue
		}
		k, found := slices.BinarySearchFunc(s.Strikes, o.StrikeMilli, func(k float64, milli int64) int {
			return int(math.Round(k*1000)) - int(milli)
		})
		if !found {
			return 0, false
		}
		ci := s.base + 2*k
		if o.Type == api.Put {
			ci++
		}
		return ci, true
	}
	return 0, false
}

// name returns the OSI symbol of contract ci. The names are built once per
// book, when a chain or a trade first needs them.
func (b *book) name(ci int) string {
	b.namesOnce.Do(func() {
		b.names = make([]string, b.n)
		for i := range b.series {
			s := &b.series[i]
			for k, K := range s.Strikes {
				b.names[s.base+2*k], _ = api.FormatOSI(s.Root, s.Expiry, api.Call, K)
				b.names[s.base+2*k+1], _ = api.FormatOSI(s.Root, s.Expiry, api.Put, K)
			}
		}
	})
	return b.names[ci]
}

// optionType is the api type of a side.
func optionType(put bool) api.OptionType {
	if put {
		return api.Put
	}
	return api.Call
}
