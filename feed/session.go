package feed

import (
	"time"

	"chainwatch/api"
)

// The regular session, as the scheduler and the tape need it. Market
// facts, not settings: they are not defaults and live beside their use.

// MarketOpen reports whether now is in a regular session: Monday to Friday,
// 09:30 to 16:00 Eastern (api.Eastern), whatever the user's own zone.
//
// Exchange holidays and early closes are not known client-side (the service
// publishes no holiday list), so on a holiday this says open and the screen
// keeps its session pace; the data simply does not change.
func MarketOpen(now time.Time) bool {
	t := now.In(api.Eastern)
	if !weekday(t.Weekday()) {
		return false
	}
	open, closing := sessionBounds(t)
	return !t.Before(open) && t.Before(closing)
}

// TradingHoursLeftInMonth is the regular-session hours from now to the end of
// now's month (Eastern): what is left of today's session plus 6.5 h for each
// later weekday. It never returns less than half an hour, because a budget is
// divided by it: on the last evening of a month the balance is about to
// renew anyway, and dividing by zero would allow infinite spending.
func TradingHoursLeftInMonth(now time.Time) float64 {
	t := now.In(api.Eastern)
	hours := sessionHoursLeftToday(t)
	y, m, d := t.Date()
	last := time.Date(y, m+1, 0, 12, 0, 0, 0, api.Eastern).Day()
	for day := d + 1; day <= last; day++ {
		if weekday(time.Date(y, m, day, 12, 0, 0, 0, api.Eastern).Weekday()) {
			hours += sessionHours
		}
	}
	return max(hours, minHoursLeft)
}

// sessionHoursLeftToday is what is left of today's regular session (Eastern),
// 0 on a weekend or after the close.
func sessionHoursLeftToday(now time.Time) float64 {
	t := now.In(api.Eastern)
	if !weekday(t.Weekday()) {
		return 0
	}
	open, closing := sessionBounds(t)
	switch {
	case t.Before(open):
		return sessionHours
	case !t.Before(closing):
		return 0
	}
	return closing.Sub(t).Hours()
}

// sessionBounds builds the open and close from the calendar date rather than
// by adding durations to midnight, so the two days a year with 23 or 25 hours
// still open at 09:30 wall-clock time.
func sessionBounds(t time.Time) (open, closing time.Time) {
	y, m, d := t.Date()
	open = time.Date(y, m, d, 0, sessionOpenMinute, 0, 0, api.Eastern)
	closing = time.Date(y, m, d, sessionCloseHour, 0, 0, 0, api.Eastern)
	return open, closing
}

func weekday(w time.Weekday) bool { return w != time.Saturday && w != time.Sunday }

// dataDelay is how far delayed data runs behind the clock.
const dataDelay = 15 * time.Minute

// SessionLive reports whether the data of mode is moving at now: the
// regular session, seen 15 minutes late on the delayed path.
func SessionLive(now time.Time, mode api.Mode) bool {
	if mode == api.Delayed {
		now = now.Add(-dataDelay)
	}
	return MarketOpen(now)
}

// afterHours is when a feed last fetched at last should fetch again while
// the session is over: once right away if last came before the close (to
// hold the closing state), else at the next open. Quotes and trades do not
// move in between, so a screen left open overnight spends nothing, which
// matters most on the trial's daily allowance. Holidays are not known
// client-side: on one the screen polls as on any weekday.
func afterHours(last, now time.Time, mode api.Mode) time.Time {
	var delay time.Duration
	if mode == api.Delayed {
		delay = dataDelay
	}
	t := now.Add(-delay).In(api.Eastern)
	day := t
	if !weekday(day.Weekday()) || t.Before(sessionStart(day)) {
		day = prevWeekday(day)
	}
	closed := sessionEnd(day).Add(delay)
	if last.Before(closed) {
		return now
	}
	next := t
	if !weekday(next.Weekday()) || !t.Before(sessionStart(next)) {
		next = nextWeekday(next)
	}
	return sessionStart(next).Add(delay)
}

func sessionStart(t time.Time) time.Time { open, _ := sessionBounds(t); return open }
func sessionEnd(t time.Time) time.Time   { _, end := sessionBounds(t); return end }

func prevWeekday(t time.Time) time.Time {
	for t = t.AddDate(0, 0, -1); !weekday(t.Weekday()); t = t.AddDate(0, 0, -1) {
	}
	return t
}

func nextWeekday(t time.Time) time.Time {
	for t = t.AddDate(0, 0, 1); !weekday(t.Weekday()); t = t.AddDate(0, 0, 1) {
	}
	return t
}
