package market

import (
	"chainwatch/api"
	"sync"
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/aa"
	"github.com/rickar/cal/v2/us"
)

// The NYSE trading calendar, as the service's conventions state it: no
// weekends, the exchange's holidays by their rules with weekend observance,
// the unscheduled closures that really happened, and the 13:00 early
// closes. It lives in market because the client and the sandbox both need the
// same answer: the client to refuse a date before paying for its 204, the
// sandbox to give that 204 and to close early.
//
// The holiday rules come from github.com/rickar/cal/v2 (its us and aa
// packages), adjusted where the exchange differs from the federal calendar:
// New Year's Day on a Saturday is not observed on the Friday before,
// Juneteenth is an exchange holiday from 2022, Good Friday is one, and
// Columbus and Veterans Day are not.

// Session bounds, Eastern: the regular session opens at 09:30 and closes at
// 16:00, or at 13:00 on an early-close day.
const (
	SessionOpen  api.TimeOfDay = 34200000 // 09:30:00.000
	SessionEnd   api.TimeOfDay = 57600000 // 16:00:00.000
	EarlySession api.TimeOfDay = 46800000 // 13:00:00.000
)

// nyseHolidays are the exchange's rules. Only Holiday.Calc is used: the
// library's Calendar keeps an unlocked cache, and the answers here are
// computed once per year into a table instead.
var nyseHolidays = []*cal.Holiday{
	us.NewYear.Clone(&cal.Holiday{Observed: []cal.AltDay{{Day: time.Sunday, Offset: 1}}}),
	us.MlkDay,
	us.PresidentsDay.Clone(&cal.Holiday{Name: "Washington's Birthday"}),
	aa.GoodFriday,
	us.MemorialDay,
	us.Juneteenth.Clone(&cal.Holiday{StartYear: 2022}),
	us.IndependenceDay,
	us.LaborDay,
	us.ThanksgivingDay,
	us.ChristmasDay,
}

// specialClosures are the days the exchange closed outside its rules: the
// September 11 attacks, presidential funerals and days of mourning, and
// Hurricane Sandy.
var specialClosures = map[api.Date]string{
	20010911: "the September 11 closure", 20010912: "the September 11 closure",
	20010913: "the September 11 closure", 20010914: "the September 11 closure",
	20040611: "a national day of mourning (Reagan)", 20070102: "a national day of mourning (Ford)",
	20121029: "the Hurricane Sandy closure", 20121030: "the Hurricane Sandy closure",
	20181205: "a national day of mourning (G. H. W. Bush)", 20250109: "a national day of mourning (Carter)",
}

// specialEarlyCloses are the 13:00 closes outside the rules: the Friday
// after a Thursday Christmas was one in 2003, not in 2008, 2014 or 2025.
// Together with specialClosures it is the one-off table, checked day by
// day against the exchange's published record from 2003 (market/caltest).
var specialEarlyCloses = map[api.Date]string{
	20031226: "the Friday after Christmas",
}

// yearDays is one year's exchange holidays (by name) and early closes.
type yearDays struct {
	closed map[api.Date]string
	early  map[api.Date]bool
}

var calYears sync.Map // int year -> *yearDays

func daysOf(y int) *yearDays {
	if v, ok := calYears.Load(y); ok {
		return v.(*yearDays)
	}
	yd := &yearDays{closed: map[api.Date]string{}, early: map[api.Date]bool{}}
	for _, h := range nyseHolidays {
		if _, obs := h.Calc(y); !obs.IsZero() && obs.Year() == y {
			yd.closed[api.DateOf(obs)] = h.Name
		}
	}
	for d, why := range specialClosures {
		if d.Year() == y {
			yd.closed[d] = why
		}
	}
	_, thanksgiving := us.ThanksgivingDay.Calc(y)
	early := []api.Date{api.DateOf(thanksgiving).AddDays(1), api.NewDate(y, time.December, 24), api.NewDate(y, time.July, 3)}
	for d := range specialEarlyCloses {
		if d.Year() == y {
			early = append(early, d)
		}
	}
	for _, d := range early {
		if _, shut := yd.closed[d]; !shut && weekday(d) {
			yd.early[d] = true
		}
	}
	v, _ := calYears.LoadOrStore(y, yd)
	return v.(*yearDays)
}

func weekday(d api.Date) bool {
	w := d.Weekday()
	return w != time.Saturday && w != time.Sunday
}

// IsTradingDay reports whether the exchange holds a session on d.
func IsTradingDay(d api.Date) bool {
	if !d.Valid() || !weekday(d) {
		return false
	}
	_, shut := daysOf(d.Year()).closed[d]
	return !shut
}

// ClosedReason says why d has no session ("a Sunday", "Thanksgiving Day",
// "the Hurricane Sandy closure"), or "" for a trading day, for messages
// that refuse a date.
func ClosedReason(d api.Date) string {
	switch {
	case !d.Valid():
		return "not a date"
	case !weekday(d):
		return "a " + d.Weekday().String()
	}
	return daysOf(d.Year()).closed[d]
}

// PrevTradingDay returns the last trading day strictly before d.
func PrevTradingDay(d api.Date) api.Date {
	for i := 0; i < 30; i++ { // the longest closure ran four weekdays
		d = d.AddDays(-1)
		if IsTradingDay(d) {
			return d
		}
	}
	return d
}

// NextTradingDay returns the first trading day strictly after d.
func NextTradingDay(d api.Date) api.Date {
	for i := 0; i < 30; i++ {
		d = d.AddDays(1)
		if IsTradingDay(d) {
			return d
		}
	}
	return d
}

// LastTradingDay returns d if it is a trading day, else the one before it.
func LastTradingDay(d api.Date) api.Date {
	if IsTradingDay(d) {
		return d
	}
	return PrevTradingDay(d)
}

// SessionClose returns the end of d's regular session: 13:00 on an early
// close (the day after Thanksgiving, Christmas Eve and July 3 when they are
// trading days, and the one-off specialEarlyCloses), 16:00 otherwise, also
// for days without a session, so that a caller never sees a zero close.
func SessionClose(d api.Date) api.TimeOfDay {
	if daysOf(d.Year()).early[d] {
		return EarlySession
	}
	return SessionEnd
}
