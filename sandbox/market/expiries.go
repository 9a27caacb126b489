package market

import (
	"slices"
	"sync/atomic"
	"time"

	"chainwatch/api"
)

// Expiry rules, as the listing exchanges apply them.

// Weekday masks for daily expiries.
const (
	mon  uint8 = 1 << time.Monday
	tue  uint8 = 1 << time.Tuesday
	wed  uint8 = 1 << time.Wednesday
	thu  uint8 = 1 << time.Thursday
	fri  uint8 = 1 << time.Friday
	allD       = mon | tue | wed | thu | fri
)

// era is a weekday mask in force from a date: the index and ETF dailies
// grew from Fridays to every session over the years.
type era struct {
	from api.Date
	mask uint8
}

// rootSpec says which expiries one option root lists on a day; the
// horizons are calendar days from the day.
type rootSpec struct {
	root       string
	am         bool     // AM-settled: the series stops trading the day before expiry
	from       api.Date // first listing
	grid       gridKind
	dailies    []era // weekday masks of daily expiries, by era
	daily      int
	weekly     int // Fridays (Thursdays when Friday is a holiday)
	weeklyFrom api.Date
	monthEnd   int // last session of each month
	qtrEnd     int // last session of March, June, September, December
	endsFrom   api.Date
	monthly    int // third-Friday monthlies within the horizon
	consec     int // or: this many consecutive monthlies (stocks)
	cycle      int // then the months of this quarterly cycle (1, 2 or 3: Jan, Feb or Mar cycle)
	cycleHor   int
	quarterly  int  // third Fridays of Mar, Jun, Sep, Dec
	leapsJan   int  // January monthlies
	leapsDec   int  // December monthlies
	vix        bool // VIX rules: monthlies and weeklies expire on Wednesdays
}

// monthlyExpiry is the third Friday of the month, or the session before it
// when that Friday is a holiday (Good Friday, Juneteenth).
func monthlyExpiry(y int, m time.Month) int {
	return months.of(kindMonthly, y, m, func() int { return sessionOnOrBefore(nthWeekday(y, m, time.Friday, 3)) })
}

// vixExpiry is the Wednesday thirty days before the next month's third
// Friday (the session before if that Wednesday is a holiday).
func vixExpiry(y int, m time.Month) int {
	return months.of(kindVIX, y, m, func() int {
		if m++; m > 12 {
			m, y = 1, y+1
		}
		return sessionOnOrBefore(nthWeekday(y, m, time.Friday, 3) - 30)
	})
}

// monthEndDay is the last session of a month.
func monthEndDay(y int, m time.Month) int {
	return months.of(kindMonthEnd, y, m, func() int {
		if m++; m > 12 {
			m, y = 1, y+1
		}
		return prevTrading(dayNum(api.NewDate(y, m, 1)))
	})
}

// The month's expiry days, memoized: expiries lists six years of months
// on every day it is asked for, and a listing's first day is found by a
// search that asks for tens of days per expiry, each month's days a walk
// through the calendar otherwise.
const (
	kindMonthly = iota
	kindVIX
	kindMonthEnd
)

// monthMemo holds day number + 1 of each month from 2000 (0: not yet
// made); a month outside it is computed each time.
type monthMemo [3][12 * 200]atomic.Int32

var months monthMemo

// of is the day of kind for month m of year y, made by f the first time.
func (t *monthMemo) of(kind, y int, m time.Month, f func() int) int {
	i := (y-2000)*12 + int(m) - 1
	if i < 0 || i >= len(t[kind]) {
		return f()
	}
	if v := t[kind][i].Load(); v != 0 {
		return int(v) - 1
	}
	v := f()
	t[kind][i].Store(int32(v + 1))
	return v
}

// expiries returns the sorted expiry day numbers root r lists on trading
// day n. Each kind of expiry (dailies, weeklies, the months' expiries,
// the VIX weeklies) adds its candidates with its own horizon; a day listed
// by two kinds is listed once.
func (r *rootSpec) expiries(n int) []int {
	d := dateOf(n)
	l := expiryList{n: n, first: n}
	if r.am {
		l.first = n + 1
	}
	r.addDailies(&l, d)
	r.addWeeklies(&l, d)
	r.addMonths(&l, d)
	r.addVIXWeeklies(&l)
	slices.Sort(l.out)
	return slices.Compact(l.out)
}

// expiryList collects the expiries listed on day n.
type expiryList struct {
	n     int
	first int // the first day a series may expire: n, or n+1 when AM-settled
	out   []int
	// consec is how many consecutive monthlies are listed so far (a stock
	// lists the next few, then its quarterly cycle's).
	consec int
}

// add lists day t when it is a session from l.first to hor days after n:
// each kind of expiry is listed so far ahead.
func (l *expiryList) add(t, hor int) {
	if t >= l.first && t <= l.n+hor && isTrading(t) {
		l.out = append(l.out, t)
	}
}

// addDailies lists the weekdays of the era in force on d, up to r.daily
// days ahead.
func (r *rootSpec) addDailies(l *expiryList, d api.Date) {
	var mask uint8
	for _, e := range r.dailies {
		if d >= e.from {
			mask = e.mask
		}
	}
	for t := l.n; mask != 0 && t <= l.n+r.daily; t++ {
		if mask&(1<<weekdayOf(t)) != 0 {
			l.add(t, r.daily)
		}
	}
}

// addWeeklies lists the Fridays (the session before a Friday holiday) up
// to r.weekly days ahead, once weeklies were listed. The VIX root's are
// Wednesdays, addVIXWeeklies'.
func (r *rootSpec) addWeeklies(l *expiryList, d api.Date) {
	if r.weekly <= 0 || r.vix || d < r.weeklyFrom {
		return
	}
	for f := weekdayOnOrAfter(l.n, time.Friday); f <= l.n+r.weekly; f += 7 {
		l.add(sessionOnOrBefore(f), r.weekly)
	}
}

// addMonths walks six years of months from d's: the VIX root's Wednesday
// monthly, else the month's last session (from r.endsFrom) and its
// third-Friday expiry.
func (r *rootSpec) addMonths(l *expiryList, d api.Date) {
	y, mo := d.Year(), d.Month()
	for i := 0; i < 12*6; i++ {
		m := time.Month((int(mo)-1+i)%12 + 1)
		yy := y + (int(mo)-1+i)/12
		if r.vix {
			l.add(vixExpiry(yy, m), r.monthly)
			continue
		}
		if d >= r.endsFrom {
			r.addMonthEnd(l, monthEndDay(yy, m), m)
		}
		r.addMonthly(l, monthlyExpiry(yy, m), m)
	}
}

// addMonthEnd lists a month's last session t: as a month-end, and as a
// quarter-end for March, June, September and December, each with its own
// horizon.
func (r *rootSpec) addMonthEnd(l *expiryList, t int, m time.Month) {
	l.add(t, r.monthEnd)
	if m%3 == 0 {
		l.add(t, r.qtrEnd)
	}
}

// addMonthly lists a month's third-Friday expiry t by every rule that
// lists it: the monthlies' horizon; a stock's next r.consec monthlies (a
// horizon past any of them), else its quarterly cycle's; the quarterlies;
// the January and December LEAPS.
func (r *rootSpec) addMonthly(l *expiryList, t int, m time.Month) {
	l.add(t, r.monthly)
	if l.consec < r.consec && t >= l.first {
		l.add(t, 400)
		l.consec++
	} else if r.cycle > 0 && (int(m)-r.cycle)%3 == 0 {
		l.add(t, r.cycleHor)
	}
	if m%3 == 0 {
		l.add(t, r.quarterly)
	}
	if m == time.January {
		l.add(t, r.leapsJan)
	}
	if m == time.December {
		l.add(t, r.leapsDec)
	}
}

// addVIXWeeklies lists the VIX root's Wednesdays (the session before a
// holiday) up to r.weekly days ahead, but not a month's VIX expiry: that
// Wednesday is the monthly root's.
func (r *rootSpec) addVIXWeeklies(l *expiryList) {
	if !r.vix || r.weekly <= 0 {
		return
	}
	for w := weekdayOnOrAfter(l.n, time.Wednesday); w <= l.n+r.weekly; w += 7 {
		t := sessionOnOrBefore(w)
		if wd := dateOf(w); t != vixExpiry(wd.Year(), wd.Month()) {
			l.add(t, r.weekly)
		}
	}
}
