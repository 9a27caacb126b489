package sim

import (
	"math"
	"strconv"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/par"
	"chainwatch/sandbox/scan"
)

// ScanQuotes returns one scanner row per optionable symbol with data at the
// moment, in the universe's order, computed once per tick and parts. Rows
// come from the same state as underlying-quotes (price, iv30, implied
// underlying) and the chain (option volume by the day's trades, open
// interest), without pricing whole chains. Only the parts in need are
// filled (a scan's Parts): the others cost a listing, a year of history or
// a day of trades for every symbol, and are left zero. The slice is
// shared: read it, never modify it.
func (m *Market) ScanQuotes(at Moment, need scan.Parts) []scan.Quote {
	tick := tickOf(at.Date, at.Time)
	key := tickKey{strconv.Itoa(int(need)), at.Date, tick}
	rows, _ := m.scans.get(key, func() ([]scan.Quote, bool) {
		all := make([]scan.Quote, len(m.optionable))
		ok := make([]bool, len(m.optionable))
		par.Each(len(all), func(i int) { all[i], ok[i] = m.scanQuote(m.optionable[i], at.Date, tick, need) })
		out := make([]scan.Quote, 0, len(all))
		for i := range all {
			if ok[i] {
				out = append(out, all[i])
			}
		}
		return out, true
	})
	if at.Historical {
		out := make([]scan.Quote, len(rows))
		copy(out, rows)
		for i := range out {
			out[i].ImpliedIndicator, out[i].ImpliedMid = nil, nil
		}
		return out
	}
	return rows
}

// scanQuote is sec's row with the parts in need; false when sec has no
// data that day, whatever the parts, so a row's presence never depends on
// the formulas.
func (m *Market) scanQuote(sec *market.Security, date api.Date, tick api.TimeOfDay, need scan.Parts) (scan.Quote, bool) {
	day, ok := m.u.Day(sec, date)
	if !ok {
		return scan.Quote{}, false
	}
	us := m.scanUnder(sec, date, tick, day, need)
	u := &us.u
	price, prev := u.LastTradePrice.V, round(day.PrevClose, 2)
	q := scan.Quote{
		Symbol: sec.Symbol, CompanyName: sec.Name, Sector: sec.Sector, AssetType: sec.Kind.String(),
		Price: price, Change: round(price-prev, 2), Open: u.Open.V, High: u.High.V, Low: u.Low.V,
		PrevClose: prev, Volume: u.Volume.V, AvgVolume: sec.AvgVolume,
		IV30: u.IV30.V, IV30Change: u.IV30Change.V, IV30ChangePercent: u.IV30ChangePercent.V,
		DividendYield: round(100*sec.DivYield, 2),
	}
	if prev > 0 {
		q.ChangePercent = round(100*(price-prev)/prev, 2)
	}
	if share := volumeShare(tick); sec.AvgVolume > 0 && share > 0 {
		q.RelativeVolume = round(float64(q.Volume)/(float64(sec.AvgVolume)*math.Max(share, 0.01)), 2)
	}
	if need&scan.PartHistory != 0 {
		h := m.history(sec, date)
		q.High52, q.Low52 = math.Max(h.hi, u.High.V), math.Min(h.lo, u.Low.V)
		q.EarningsDate, q.DaysToEarnings, q.ExDividendDate = h.earnings, h.daysToEarnings, h.exDividend
		if lo, hi := math.Min(h.volLo, q.IV30), math.Max(h.volHi, q.IV30); hi > lo && u.IV30.Valid {
			q.IVRank = round(100*(q.IV30-lo)/(hi-lo), 2)
		}
		q.HV30 = round(h.hv30(price, prev), 2)
		if q.HV30 > 0 {
			q.IVHVRatio = round(q.IV30/q.HV30, 3)
		}
	}
	if us.ind.Valid {
		ind, mid := string(us.ind.V), u.ImpliedUnderlyingMid.V
		q.ImpliedIndicator, q.ImpliedMid = &ind, &mid
	}
	if need&(scan.PartOptionVolume|scan.PartOpenInterest) != 0 {
		m.scanOptions(&q, sec, date, tick, need)
	}
	return q, true
}

// scanUnder is the underlying's state the scanner reads: under's own when
// a chain or a quote of the tick has made it, else one with only the parts
// in need, which the scan does not cache: under's would have the day's
// trades drawn for its seq_no.
func (m *Market) scanUnder(sec *market.Security, date api.Date, tick api.TimeOfDay, day *market.Day, need scan.Parts) *underState {
	if st, ok := m.unders.peek(tickKey{sec.Symbol, date, tick}); ok {
		return st
	}
	st := &underState{u: underlyingFields(sec, day, tick)}
	if need&(scan.PartIV30|scan.PartIVChange|scan.PartImplied) != 0 {
		if b, ok := m.book(sec, date); ok {
			m.optionFields(st, b, tick, need)
		}
	}
	return st
}

// scanOptions fills q's option volumes by the day's trades up to tick
// (scan.PartOptionVolume) and its start-of-day open interest
// (scan.PartOpenInterest).
func (m *Market) scanOptions(q *scan.Quote, sec *market.Security, date api.Date, tick api.TimeOfDay, need scan.Parts) {
	b, ok := m.book(sec, date)
	if !ok {
		return
	}
	if need&scan.PartOptionVolume != 0 {
		if sk, ok := m.skeletonThrough(b, tick); ok {
			for _, t := range sk.trades[:sk.count(tick)] {
				if t.flag != uint8(api.TradeNormal) {
					continue
				}
				if t.ci%2 == 1 {
					q.PutVolume += int64(t.size)
				} else {
					q.CallVolume += int64(t.size)
				}
			}
		}
		q.OptionVolume = q.CallVolume + q.PutVolume
		if q.CallVolume > 0 {
			r := round(float64(q.PutVolume)/float64(q.CallVolume), 3)
			q.PutCallRatio = &r
		}
	}
	if need&scan.PartOpenInterest != 0 {
		_, q.OpenInterest = m.state(b).openInterest(m)
	}
}

// volumeShare is the share of a day's volume traded by tick under the
// session's U-shaped intensity.
func volumeShare(tick api.TimeOfDay) float64 {
	if tick < nyse.SessionOpen {
		return 0
	}
	return sessionShare(math.Min(float64(tick-nyse.SessionOpen)/float64(16*3600_000-nyse.SessionOpen), 1))
}

// history is what the scanner needs from the year before a day: the range
// of closes and of the end-of-day 30-day ATM vol over the previous 251
// sessions (52 weeks with today), the last daily returns for HV30, and the
// next earnings report and ex-dividend date. Computed once per symbol-day.
type history struct {
	hi, lo       float64   // closes
	volLo, volHi float64   // vol levels, percentage points
	rets         []float64 // log returns of the most recent sessions, newest first (29)

	earnings       *string
	daysToEarnings *int64
	exDividend     *string
}

func (m *Market) history(sec *market.Security, date api.Date) *history {
	h, _ := m.hists.get(dayKey{sec.Symbol, date}, func() (*history, bool) {
		h := &history{hi: math.Inf(-1), lo: math.Inf(1), volLo: math.Inf(1), volHi: math.Inf(-1)}
		d := date
		var newer float64 // the close of the session after d, walking back
		for i := 0; i < 251; i++ {
			d = nyse.PrevTradingDay(d)
			if d < sec.Since {
				break
			}
			c := m.u.Close(sec, d)
			v := 100 * m.u.VolLevel(sec, d)
			h.hi, h.lo = math.Max(h.hi, c), math.Min(h.lo, c)
			h.volLo, h.volHi = math.Min(h.volLo, v), math.Max(h.volHi, v)
			if i > 0 && len(h.rets) < 29 && c > 0 && newer > 0 {
				h.rets = append(h.rets, math.Log(newer/c))
			}
			newer = c
		}
		if e, _, ok := m.u.NextEarnings(sec, date); ok {
			s, n := e.String(), int64(date.DaysUntil(e))
			h.earnings, h.daysToEarnings = &s, &n
		}
		for _, dv := range m.u.Dividends(sec, date, date.AddDays(400)) {
			if dv.ExDividendDate >= date {
				s := dv.ExDividendDate.String()
				h.exDividend = &s
				break
			}
		}
		return h, true
	})
	return h
}

// hv30 is the 30-session historical volatility in percentage points:
// today's return so far (price against the previous close) and the 29
// before it, annualized over 252 sessions.
func (h *history) hv30(price, prevClose float64) float64 {
	rets := h.rets
	if price > 0 && prevClose > 0 {
		rets = append([]float64{math.Log(price / prevClose)}, rets...)
	}
	if len(rets) < 2 {
		return 0
	}
	var mean, ss float64
	for _, r := range rets {
		mean += r
	}
	mean /= float64(len(rets))
	for _, r := range rets {
		ss += (r - mean) * (r - mean)
	}
	return 100 * math.Sqrt(ss/float64(len(rets)-1)*252)
}
