package market

import (
	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox/par"
)

// Series is one expiry of one option root: its strikes, ascending.
type Series struct {
	Root      string
	Expiry    api.Date
	AMSettled bool
	Strikes   []float64
}

// Listing horizons in calendar days.
const (
	week  = 7
	month = 31
	year  = 365
)

// rootSpecs returns the listing rules of s's roots, as the exchanges list
// them today and as they grew: SPX weeklies from 2005, SPXW dailies on
// Wednesdays and Fridays from 2016 and every session from 2022, and so on.
func rootSpecs(s *Security, o rowOpts) []rootSpec {
	if !s.Optionable {
		return nil
	}
	spy := []era{{20161101, mon | wed | fri}, {20221114, allD}}
	switch s.Symbol {
	case "SPX":
		return []rootSpec{
			{root: "SPX", am: true, grid: gridIndex, monthly: 12 * month, quarterly: 3 * year, leapsDec: 5*year + 40},
			{root: "SPXW", from: 20051028, grid: gridIndex, weeklyFrom: 20051028, weekly: 26 * week,
				daily: 8 * week, dailies: []era{{20160223, wed | fri}, {20160815, mon | wed | fri}, {20220418, mon | tue | wed | fri}, {20220511, allD}},
				endsFrom: 20140101, monthEnd: year, qtrEnd: 2 * year, monthly: 18 * month},
		}
	case "NDX", "RUT":
		w := map[string]api.Date{"NDX": 20170101, "RUT": 20101001}[s.Symbol]
		return []rootSpec{
			{root: s.Roots[0], am: true, grid: gridIndex, monthly: 12 * month, quarterly: 2 * year, leapsDec: 3*year + 40},
			{root: s.Roots[1], from: w, grid: gridIndex, weeklyFrom: w, weekly: 10 * week,
				dailies: []era{{20230103, mon | wed | fri}, {20240102, allD}}, daily: 3 * week,
				endsFrom: w, monthEnd: 6 * month, qtrEnd: year},
		}
	case "VIX":
		return []rootSpec{
			{root: "VIX", am: true, from: o.optsFrom, grid: gridVIX, vix: true, monthly: 8 * month},
			{root: "VIXW", am: true, from: 20151007, grid: gridVIX, vix: true, weekly: 6 * week},
		}
	case "XSP":
		return []rootSpec{{root: "XSP", from: o.optsFrom, grid: gridFund, weeklyFrom: 20110101, weekly: 10 * week,
			dailies: []era{{20161101, mon | wed | fri}, {20220801, allD}}, daily: 4 * week,
			endsFrom: 20120101, qtrEnd: year, monthly: 12 * month, leapsDec: 2*year + 40}}
	case "DJX":
		return []rootSpec{{root: "DJX", am: true, grid: gridFund, monthly: 8 * month, quarterly: year, leapsDec: 2*year + 40}}
	case "OEX":
		return []rootSpec{
			{root: "OEX", grid: gridIndex, monthly: 5 * month, quarterly: year},
			{root: "XEO", grid: gridIndex, monthly: 5 * month},
		}
	case "SPY", "QQQ", "IWM":
		dailies := spy
		if s.Symbol == "IWM" {
			dailies = []era{{20170101, mon | wed | fri}, {20240102, allD}}
		}
		return []rootSpec{{root: s.Symbol, grid: gridFund, dailies: dailies, daily: 5 * week,
			weeklyFrom: 20100604, weekly: 13 * week, monthly: 12 * month, endsFrom: 20080101, qtrEnd: year + 40,
			leapsJan: 3*year + 40, leapsDec: 2*year + 40}}
	}
	from := o.optsFrom
	if from == 0 {
		from = dateOf(dayNum(s.Since) + 14)
	}
	r := rootSpec{root: s.Roots[0], from: from, grid: gridStock, weeklyFrom: 20110101}
	if s.Kind == ETF {
		r.grid = gridFund
	}
	big := s.AvgVolume >= 3e6 || s.Price >= 300
	if big {
		r.weekly = 6 * week
	}
	if s.Kind == ETF {
		r.monthly, r.quarterly = 5*month, year
	} else {
		r.consec, r.cycle, r.cycleHor = 3, 1+int(unit(hashKey(s.Symbol, "cycle"), 0)*3), 9*month
	}
	if big || s.AvgVolume >= 1e6 {
		r.leapsJan = 2*year + 8*month
	}
	return []rootSpec{r}
}

// Series returns what is listed on trading day d (the last trading day
// on or before d otherwise): one Series per root and expiry, sorted by
// root then expiry. Each expiry's strikes are the union of the grids of
// every trading day from its first listing (or from Since) through d, each
// built from that day's previous close (listing.go). Expiries are trading
// days on or after d; AM-settled ones (SPX monthlies, VIX) are after d, as
// they stop trading the session before their settlement. Nil for a
// security without options or before Since.
func (u *Universe) Series(s *Security, d api.Date) []Series {
	m := u.model(s)
	d = market.LastTradingDay(d)
	if m == nil || !s.Optionable || d < s.Since {
		return nil
	}
	n := dayNum(d)
	type job struct {
		r *rootSpec
		e int
	}
	var jobs []job
	for i := range m.specs {
		r := &m.specs[i]
		if d < r.from {
			continue
		}
		for _, e := range r.expiries(n) {
			jobs = append(jobs, job{r, e})
		}
	}
	// Each expiry's listing is its own walk over the days it has been
	// listed (a LEAPS's, years of them): a new process's first chain waits
	// for every one, so they are made on every core.
	out := make([]Series, len(jobs))
	par.Each(len(jobs), func(i int) {
		r, e := jobs[i].r, jobs[i].e
		from := max(m.firstListed(r, e), dayNum(r.from), dayNum(s.Since))
		l := m.listingOn(r, e, from, n)
		out[i] = Series{Root: r.root, Expiry: dateOf(e), AMSettled: r.am, Strikes: l.strikes(r.grid)}
	})
	if len(out) == 0 {
		return nil
	}
	return out
}
