package market

import (
	"time"

	"chainwatch/api"
)

// The NYSE calendar. Holidays follow the exchange's rules, computed for
// every year the paths cover, plus the unscheduled closures that really
// happened; early closes (13:00) are the three the exchange schedules.
// Options on these underlyings trade the same sessions, so one calendar
// serves stocks, ETFs and index options alike.

// SessionOpen is the start of the regular session, 09:30:00.000 Eastern.
const SessionOpen api.TimeOfDay = 34200000

// Regular and early session ends.
const (
	regularClose api.TimeOfDay = 57600000 // 16:00:00.000
	earlyClose   api.TimeOfDay = 46800000 // 13:00:00.000
)

// specialClosures are the days the exchange closed outside its rules:
// the September 11 attacks, presidential funerals and days of mourning,
// and Hurricane Sandy.
var specialClosures = []api.Date{
	20010911, 20010912, 20010913, 20010914,
	20040611, 20070102, 20121029, 20121030, 20181205, 20250109,
}

// calendar holds one bit per day number: trading days and early closes.
// It is built once at package initialisation and only read afterwards.
type calendar struct {
	trading, early [horizon / 64]uint64
}

var cal = buildCalendar()

func (c *calendar) set(bits *[horizon / 64]uint64, n int, v bool) {
	if n < 0 || n >= horizon {
		return
	}
	if v {
		bits[n/64] |= 1 << (n % 64)
	} else {
		bits[n/64] &^= 1 << (n % 64)
	}
}

func get(bits *[horizon / 64]uint64, n int) bool {
	return n >= 0 && n < horizon && bits[n/64]&(1<<(n%64)) != 0
}

func buildCalendar() *calendar {
	c := &calendar{}
	for n := 0; n < horizon; n++ {
		wd := weekdayOf(n)
		c.set(&c.trading, n, wd != time.Saturday && wd != time.Sunday)
	}
	last := dateOf(horizon - 1).Year()
	for y := 2000; y <= last; y++ {
		for _, h := range holidays(y) {
			c.set(&c.trading, h, false)
		}
	}
	for _, d := range specialClosures {
		c.set(&c.trading, dayNum(d), false)
	}
	for y := 2000; y <= last; y++ {
		thanksgiving := nthWeekday(y, time.November, time.Thursday, 4)
		for _, n := range []int{
			thanksgiving + 1,
			dayNum(api.NewDate(y, time.December, 24)),
			dayNum(api.NewDate(y, time.July, 3)),
		} {
			if get(&c.trading, n) {
				c.set(&c.early, n, true)
			}
		}
	}
	return c
}

// observed moves a holiday falling on a weekend to the nearest weekday:
// Saturday to Friday, Sunday to Monday.
func observed(n int) int {
	switch weekdayOf(n) {
	case time.Saturday:
		return n - 1
	case time.Sunday:
		return n + 1
	}
	return n
}

// holidays returns the day numbers of the NYSE holidays of year y.
func holidays(y int) []int {
	hs := make([]int, 0, 10)
	// New Year's Day: a Sunday moves to Monday, but a Saturday is not
	// observed on the Friday before, which belongs to the old year.
	ny := dayNum(api.NewDate(y, time.January, 1))
	switch weekdayOf(ny) {
	case time.Sunday:
		hs = append(hs, ny+1)
	case time.Saturday:
	default:
		hs = append(hs, ny)
	}
	hs = append(hs,
		nthWeekday(y, time.January, time.Monday, 3),  // Martin Luther King Jr. Day (NYSE since 1998)
		nthWeekday(y, time.February, time.Monday, 3), // Washington's Birthday
		easter(y)-2,                              // Good Friday
		nthWeekday(y, time.May, time.Monday, -1), // Memorial Day
		observed(dayNum(api.NewDate(y, time.July, 4))),
		nthWeekday(y, time.September, time.Monday, 1),  // Labor Day
		nthWeekday(y, time.November, time.Thursday, 4), // Thanksgiving
		observed(dayNum(api.NewDate(y, time.December, 25))),
	)
	if y >= 2022 {
		hs = append(hs, observed(dayNum(api.NewDate(y, time.June, 19)))) // Juneteenth
	}
	return hs
}

// easter returns the day number of Easter Sunday of year y (the anonymous
// Gregorian computus).
func easter(y int) int {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return dayNum(api.NewDate(y, time.Month(month), day))
}

// IsTradingDay reports whether the exchange holds a session on d. Days
// before 2000 or beyond the calendar (2179) are never trading days.
func IsTradingDay(d api.Date) bool { return get(&cal.trading, dayNum(d)) }

// isTrading is IsTradingDay on a day number.
func isTrading(n int) bool { return get(&cal.trading, n) }

// PrevTradingDay returns the last trading day strictly before d (the zero
// Date if there is none in the calendar).
func PrevTradingDay(d api.Date) api.Date {
	n := prevTrading(dayNum(d))
	if n < 0 {
		return 0
	}
	return dateOf(n)
}

// NextTradingDay returns the first trading day strictly after d (the zero
// Date if there is none in the calendar).
func NextTradingDay(d api.Date) api.Date {
	n := nextTrading(dayNum(d))
	if n < 0 {
		return 0
	}
	return dateOf(n)
}

// LastTradingDay returns d if it is a trading day, else the trading day
// before it.
func LastTradingDay(d api.Date) api.Date {
	if IsTradingDay(d) {
		return d
	}
	return PrevTradingDay(d)
}

// prevTrading returns the trading day number before n, or -1.
func prevTrading(n int) int {
	if n > horizon {
		n = horizon
	}
	for n--; n >= 0; n-- {
		if isTrading(n) {
			return n
		}
	}
	return -1
}

// nextTrading returns the trading day number after n, or -1.
func nextTrading(n int) int {
	if n < -1 {
		n = -1
	}
	for n++; n < horizon; n++ {
		if isTrading(n) {
			return n
		}
	}
	return -1
}

// SessionClose returns the end of d's regular session: 13:00:00.000 on
// the early-close days (the day after Thanksgiving, Christmas Eve and July
// 3 when they are trading days), 16:00:00.000 otherwise (also for days
// without a session, so that a caller never sees a zero close).
func SessionClose(d api.Date) api.TimeOfDay {
	if get(&cal.early, dayNum(d)) {
		return earlyClose
	}
	return regularClose
}

// rates holds the continuous risk-free rate by year from 2000: roughly the
// average three-month Treasury bill yield of that year. Later years keep
// the last level.
var rates = []float64{
	0.058, 0.034, 0.016, 0.011, 0.014, 0.031, 0.047, 0.044, 0.014, 0.0015, // 2000-2009
	0.0014, 0.0005, 0.0009, 0.0006, 0.0003, 0.0005, 0.0032, 0.0093, 0.019, 0.022, // 2010-2019
	0.0037, 0.0005, 0.020, 0.052, 0.052, 0.042, 0.038, 0.036, // 2020-2027
}

// Rate returns the continuous risk-free rate in force on d, by year: the
// level traders saw then (near zero from 2009 to 2015, 5.2 % in 2023-24).
func Rate(d api.Date) float64 {
	i := d.Year() - 2000
	switch {
	case i < 0:
		i = 0
	case i >= len(rates):
		i = len(rates) - 1
	}
	return rates[i]
}
