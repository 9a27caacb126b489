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
