package market

import (
	"math"
	"time"

	"chainwatch/api"
)

// Earnings. A company reports each fiscal quarter some weeks after the
// quarter ends (banks after two weeks, most after three to five, the
// fiscal fourth quarter a week later), on its habitual weekday, before the
// open or after the close as it always does. The estimate follows the
// annual EPS with the company's growth; the actual beats or misses it by
// a surprise that also drives the price jump of the reaction day, so a
// big beat is a big gap up.

// lastEventDay bounds the schedules: the calendar endpoint's default end.
const lastEventDay api.Date = 21001231

// earnSpec is a company's reporting habit.
type earnSpec struct {
	has     bool
	fyEnd   time.Month
	when    api.ReportTime
	lag     int          // days after the quarter end
	weekday time.Weekday // the habitual report day
	growth  float64      // EPS growth per year
	move    float64      // typical one-day earnings move (fraction)
	key     uint64
}

func newEarnSpec(s *Security, o rowOpts) earnSpec {
	if s.Kind != Stock {
		return earnSpec{}
	}
	key := hashKey(s.Symbol, "earnings")
	e := earnSpec{has: true, fyEnd: o.fyEnd, when: o.when, key: key}
	if s.Sector == "Financials" && s.AvgVolume > 5e6 && s.Beta < 1.5 {
		e.lag = 12 + int(unit(key, 1)*4)
	} else {
		e.lag = 20 + int(unit(key, 1)*15)
	}
	e.weekday = []time.Weekday{time.Tuesday, time.Wednesday, time.Thursday, time.Thursday, time.Wednesday, time.Monday, time.Tuesday}[int(unit(key, 2)*7)]
	e.growth = 0.04 + 0.10*unit(key, 3)
	e.move = math.Max(0.02, math.Min(0.12, 0.14*s.Vol*(0.8+0.4*unit(key, 4))))
	return e
}

// report is one quarterly report.
type report struct {
	year, quarter int
	qEnd, day     int // day numbers of the quarter end and the report
	reaction      int // the first session that trades on the news
}

// reports returns the reports whose day lies in [from, to], ascending.
func (e *earnSpec) reports(from, to int) []report {
	if !e.has || from > to {
		return nil
	}
	start := dateOf(from - 130)
	y, m := start.Year(), int(start.Month())
	m -= ((m-int(e.fyEnd))%3 + 3) % 3
	if m < 1 {
		m, y = m+12, y-1
	}
	var out []report
	for {
		qEnd := dayNum(api.NewDate(y, time.Month(m), daysInMonth(y, time.Month(m))))
		if qEnd > to {
			return out
		}
		r := e.report(y, time.Month(m), qEnd)
		if r.day >= from && r.day <= to {
			out = append(out, r)
		}
		if m += 3; m > 12 {
			m, y = m-12, y+1
		}
	}
}

// report places the report of the quarter ending in month m of year y.
func (e *earnSpec) report(y int, m time.Month, qEnd int) report {
	r := report{qEnd: qEnd, quarter: (int(m)-int(e.fyEnd)-1+24)%12/3 + 1, year: y}
	if m > e.fyEnd {
		r.year++
	}
	t := qEnd + e.lag
	if r.quarter == 4 {
		t += 9
	}
	t += (int(e.weekday) - int(weekdayOf(t)) + 7) % 7
	for i := 0; i < 10 && !isTrading(t); i++ {
		t++
	}
	r.day, r.reaction = t, t
	if e.when == api.AfterClose {
		if n := nextTrading(t); n >= 0 {
			r.reaction = n
		}
	}
	return r
}

// surprise returns the standard normal behind a report's surprise and jump.
func (e *earnSpec) surprise(r report) float64 { return normal(e.key, uint64(r.qEnd)) }

// buildJumps precomputes the cumulative earnings jumps of an own path.
func (m *model) buildJumps() {
	if m.kind != ownPath || !m.earn.has {
		return
	}
	for _, r := range m.earn.reports(dayNum(m.sec.Since), dayNum(lastEventDay)) {
		z := 0.6*m.earn.surprise(r) + 0.8*normal(m.earn.key^0x5bd1e995, uint64(r.qEnd))
		j := m.earn.move * math.Sqrt(math.Pi/2) * z
		c := j
		if k := len(m.jumpC); k > 0 {
			c += m.jumpC[k-1]
		}
		m.jumpN, m.jumpC = append(m.jumpN, r.reaction), append(m.jumpC, c)
	}
	m.jumpA = m.jump(m.nA)
	m.jumpS = m.jump(m.nS) - m.jumpA
}

// Earnings returns s's reports with report dates in [from, to] (clipped to
// s.Since and 2100), ascending. eps_actual is set only for reports before
// today; a report within six weeks of today, or past, is Confirmed, later
// ones Estimated.
func (u *Universe) Earnings(s *Security, from, to, today api.Date) []api.EarningsEvent {
	m := u.model(s)
	if m == nil || !m.earn.has {
		return nil
	}
	lo, hi := max(dayNum(from), dayNum(s.Since)), min(dayNum(to), dayNum(lastEventDay))
	rs := m.earn.reports(lo, hi)
	out := make([]api.EarningsEvent, 0, len(rs))
	nT := dayNum(today)
	for _, r := range rs {
		years := yearsBetween(m.nA, r.qEnd)
		est := s.EPS / 4 * math.Exp(m.earn.growth*years) * (1 + 0.04*normal(m.earn.key, uint64(r.qEnd)+1))
		est = round2(est)
		ev := api.EarningsEvent{
			Year: r.year, Quarter: r.quarter, ReportDate: dateOf(r.day), TimeOfDay: m.earn.when,
			ReportDateType: "Confirmed", DateType: "1",
			EPSEstimate: api.Some(est), ActualCurrency: "USD",
			UnderlyingSymbol: s.Symbol, CompanyName: s.Name, DataSourceID: api.Some[int64](1),
		}
		if r.day < nT {
			surprise := 0.03 + 0.06*m.earn.surprise(r)
			ev.EPSActual = api.Some(round2(est + math.Abs(est)*surprise))
		} else if r.day-nT > 42 {
			ev.ReportDateType, ev.DateType = "Estimated", "2"
		}
		out = append(out, ev)
	}
	return out
}

// NextEarnings returns the first report on or after d.
func (u *Universe) NextEarnings(s *Security, d api.Date) (date api.Date, when api.ReportTime, ok bool) {
	m := u.model(s)
	if m == nil || !m.earn.has {
		return 0, "", false
	}
	n := max(dayNum(d), dayNum(s.Since))
	rs := m.earn.reports(n, n+200)
	if len(rs) == 0 {
		return 0, "", false
	}
	return dateOf(rs[0].day), m.earn.when, true
}

// EarningsMove returns the typical one-day move (fraction) on a report, for
// the vol surface's event bump: about 0.14 x the vol, 2 % to 12 %. Zero for
// indices and funds, which do not report.
func (u *Universe) EarningsMove(s *Security) float64 {
	m := u.model(s)
	if m == nil {
		return 0
	}
	return m.earn.move
}
