package market

import (
	"slices"
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
	f := nthWeekday(y, m, time.Friday, 3)
	if !isTrading(f) {
		f = prevTrading(f)
	}
	return f
}

// vixExpiry is the Wednesday thirty days before the next month's third
// Friday (the session before if that Wednesday is a holiday).
func vixExpiry(y int, m time.Month) int {
	if m++; m > 12 {
		m, y = 1, y+1
	}
	w := nthWeekday(y, m, time.Friday, 3) - 30
	if !isTrading(w) {
		w = prevTrading(w)
	}
	return w
}

// monthEndDay is the last session of a month.
func monthEndDay(y int, m time.Month) int {
	if m++; m > 12 {
		m, y = 1, y+1
	}
	return prevTrading(dayNum(api.NewDate(y, m, 1)))
}

// expiries returns the sorted expiry day numbers root r lists on trading day n.
func (r *rootSpec) expiries(n int) []int {
	d := dateOf(n)
	first := n
	if r.am {
		first = n + 1
	}
	var out []int
	add := func(t, hor int) {
		if t >= first && t <= n+hor && isTrading(t) {
			out = append(out, t)
		}
	}
	var mask uint8
	for _, e := range r.dailies {
		if d >= e.from {
			mask = e.mask
		}
	}
	for t := n; mask != 0 && t <= n+r.daily; t++ {
		if mask&(1<<weekdayOf(t)) != 0 {
			add(t, r.daily)
		}
	}
	if r.weekly > 0 && !r.vix && d >= r.weeklyFrom {
		f := n + (int(time.Friday)-int(weekdayOf(n))+7)%7
		for ; f <= n+r.weekly; f += 7 {
			t := f
			if !isTrading(t) {
				t = prevTrading(t)
			}
			add(t, r.weekly)
		}
	}
	y, mo := d.Year(), d.Month()
	consec := 0
	for i := 0; i < 12*6; i++ {
		m := time.Month((int(mo)-1+i)%12 + 1)
		yy := y + (int(mo)-1+i)/12
		if r.vix {
			add(vixExpiry(yy, m), r.monthly)
			continue
		}
		if d >= r.endsFrom {
			add(monthEndDay(yy, m), r.monthEnd)
			if m%3 == 0 {
				add(monthEndDay(yy, m), r.qtrEnd)
			}
		}
		t := monthlyExpiry(yy, m)
		add(t, r.monthly)
		if consec < r.consec && t >= first {
			add(t, 400)
			consec++
		} else if r.cycle > 0 && (int(m)-r.cycle)%3 == 0 {
			add(t, r.cycleHor)
		}
		if m%3 == 0 {
			add(t, r.quarterly)
		}
		if m == time.January {
			add(t, r.leapsJan)
		}
		if m == time.December {
			add(t, r.leapsDec)
		}
	}
	if r.vix && r.weekly > 0 {
		w := n + (int(time.Wednesday)-int(weekdayOf(n))+7)%7
		for ; w <= n+r.weekly; w += 7 {
			t := w
			if !isTrading(t) {
				t = prevTrading(t)
			}
			if wd := dateOf(w); t != vixExpiry(wd.Year(), wd.Month()) { // the monthly is the VIX root's
				add(t, r.weekly)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
