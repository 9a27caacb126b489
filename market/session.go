package market

import (
	"strconv"
	"time"

	"chainwatch/api"
)

// The regular session, as the scheduler, the budget and the tape need it,
// from the exchange's calendar (IsTradingDay, SessionClose):
// weekends, holidays and the 13:00 early closes are known here, so a
// holiday spends nothing and an early close stops polling at 13:00.

// sessionBounds is d's regular session as instants, Eastern. Built from the
// calendar date rather than by adding durations to midnight, so the two
// days a year with 23 or 25 hours still open at 09:30 wall-clock time.
func sessionBounds(d api.Date) (open, closing time.Time) {
	return SessionOpen.On(d), SessionClose(d).On(d)
}

// MarketOpen reports whether now is in a regular session, whatever the
// user's own zone.
func MarketOpen(now time.Time) bool {
	d := api.Today(now)
	if !IsTradingDay(d) {
		return false
	}
	open, closing := sessionBounds(d)
	return !now.Before(open) && now.Before(closing)
}

// sessionHours is the length of d's session in hours (0 without one).
func sessionHours(d api.Date) float64 {
	if !IsTradingDay(d) {
		return 0
	}
	open, closing := sessionBounds(d)
	return closing.Sub(open).Hours()
}

// MinHoursLeft is the least TradingHoursLeftInMonth says: a budget is
// divided by the hours left, and dividing by zero would allow infinite
// spending.
const MinHoursLeft = 0.5

// TradingHoursLeftInMonth is the regular-session hours from now to the end of
// now's month (Eastern): what is left of today's session plus each later
// trading day's session. It never returns less than half an hour, because a
// budget is divided by it: on the last evening of a month the balance is
// about to renew anyway, and dividing by zero would allow infinite spending.
func TradingHoursLeftInMonth(now time.Time) float64 {
	hours := SessionHoursLeftToday(now)
	today := api.Today(now)
	for d := today.AddDays(1); d.Month() == today.Month(); d = d.AddDays(1) {
		hours += sessionHours(d)
	}
	return max(hours, MinHoursLeft)
}

// SessionHoursLeftToday is what is left of today's regular session (Eastern),
// 0 on a day without one or after the close.
func SessionHoursLeftToday(now time.Time) float64 {
	d := api.Today(now)
	if !IsTradingDay(d) {
		return 0
	}
	open, closing := sessionBounds(d)
	switch {
	case now.Before(open):
		return closing.Sub(open).Hours()
	case !now.Before(closing):
		return 0
	}
	return closing.Sub(now).Hours()
}

// DataDelay is how far delayed data runs behind the clock.
const DataDelay = 15 * time.Minute

// dataClock is the instant mode's data shows at now.
func dataClock(now time.Time, mode api.Mode) time.Time {
	if mode == api.Delayed {
		return now.Add(-DataDelay)
	}
	return now
}

// SessionLive reports whether the data of mode is moving at now: the
// regular session, seen 15 minutes late on the delayed path.
func SessionLive(now time.Time, mode api.Mode) bool {
	return MarketOpen(dataClock(now, mode))
}

// ShownDay is the day whose data the screen shows: its own date (nonzero),
// else the session the data's clock is in or last saw. Before the open and
// on a day without a session that is the last session, fetched as its
// end-of-day state: the service has nothing for a day whose session has
// not begun (and answers 204 for a holiday), and a trader opening
// chainwatch on Saturday wants Friday's close, tape and volume.
func ShownDay(date api.Date, mode api.Mode, now time.Time) api.Date {
	if date != 0 {
		return date
	}
	t := dataClock(now, mode)
	d := api.Today(t)
	if !IsTradingDay(d) {
		return PrevTradingDay(d)
	}
	if open, _ := sessionBounds(d); t.Before(open) {
		return PrevTradingDay(d)
	}
	return d
}

// NextOpen is the start of the next regular session after now, as the
// data of mode sees it (15 minutes later for delayed data): when a paused
// feed moves again.
func NextOpen(now time.Time, mode api.Mode) time.Time {
	t := dataClock(now, mode)
	delay := now.Sub(t)
	d := api.Today(t)
	if open, _ := sessionBounds(d); IsTradingDay(d) && t.Before(open) {
		return open.Add(delay)
	}
	open, _ := sessionBounds(NextTradingDay(d))
	return open.Add(delay)
}

// AfterHours is when a feed last fetched at last should fetch again while
// the session is over: once right away if last came before the last
// session's close (to hold the closing state), else at the next open.
// Quotes and trades do not move in between, so a screen left open
// overnight or over a holiday spends nothing, which matters most on the
// trial's daily allowance.
func AfterHours(last, now time.Time, mode api.Mode) time.Time {
	_, closed := sessionBounds(ShownDay(0, mode, now))
	if last.Before(closed.Add(now.Sub(dataClock(now, mode)))) {
		return now
	}
	return NextOpen(now, mode)
}

// PauseText says when polling resumes while mode's data is still: "paused
// until 09:30 ET (in 13h20m)", with the weekday when the next session is
// not the next morning ("paused until Mon 09:30 ET (in 2d13h)").
func PauseText(now time.Time, mode api.Mode) string {
	open := NextOpen(now, mode)
	day := open.Format("15:04") + " ET"
	if api.DateOf(open) != api.Today(now).AddDays(1) && api.DateOf(open) != api.Today(now) {
		day = open.Format("Mon ") + day
	}
	return "paused until " + day + " (in " + roughDuration(open.Sub(now)) + ")"
}

// roughDuration is a wait in its two largest units: "2d13h", "13h20m",
// "45m", rounded up to the minute so that it never reads as "0m".
func roughDuration(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	days, hours, mins := m/(24*60), m/60%24, m%60
	switch {
	case days > 0:
		return strconv.Itoa(days) + "d" + strconv.Itoa(hours) + "h"
	case hours > 0:
		return strconv.Itoa(hours) + "h" + strconv.Itoa(mins) + "m"
	}
	return strconv.Itoa(mins) + "m"
}
