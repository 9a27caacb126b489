package market

import (
	"chainwatch/api"
	"time"
)

// The time to expiry the service's greeks are computed with, and that the
// client's own pricing (a strategy's curves, the zero-gamma search) must
// use too, so that a greek the client computes agrees with the one the
// service sent beside it.

// DaysPerYear is the ACT/365 day count of the service's greeks: T in
// years, and theta per calendar day.
const DaysPerYear = 365

// MinT is one minute in years: an option with less time left is priced
// as if it had a minute, as the service's greeks are, so that an
// at-the-money gamma on the last tick does not run to infinity.
const MinT = 1.0 / (DaysPerYear * 24 * 60)

// ExpiryTime is when an option expiring on d stops trading: the close of
// d's session, 13:00 Eastern on an early close (the day after
// Thanksgiving), 16:00 otherwise.
func ExpiryTime(d api.Date) time.Time { return SessionClose(d).On(d) }

// YearsTo is the time from t to ExpiryTime(d) in years (ACT/365);
// negative once it has passed.
func YearsTo(d api.Date, t time.Time) float64 {
	return ExpiryTime(d).Sub(t).Hours() / 24 / DaysPerYear
}

// FirstLiveDay is the first day whose expiry is still the chain's own: the
// chosen day (date nonzero), else today, Eastern. On a Saturday that is
// past Friday's expiry, so the screen and every command start on Monday's
// instead of one that stopped trading. The screen's first tab and the
// commands' default expiry are the first expiry on or after it.
func FirstLiveDay(date api.Date, now time.Time) api.Date {
	if date != 0 {
		return date
	}
	return api.Today(now)
}

// DaysLeft is the one count of days to d (an expiry's DTE, an event's
// days away) on the screen and in every command: from the day whose data is
// shown (ShownDay), so Friday's close seen on Saturday counts from Friday
// and an expiry and an event on the same date are the same days away.
func DaysLeft(date api.Date, mode api.Mode, now time.Time, d api.Date) int {
	return ShownDay(date, mode, now).DaysUntil(d)
}
