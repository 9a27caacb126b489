package market

import (
	"time"

	"chainwatch/api"
)

// amRoots are the option roots settled at the open of their expiry day
// (on the opening prints, SOQ): SPX, NDX, RUT and DJX monthlies, and VIX
// and VIXW, whose last trading day is the session before. Their time to
// expiry ends at 09:30, as the service's greeks count it; the weeklies
// (SPXW, NDXP, RUTW) and every equity and fund option settle at the close.
var amRoots = map[string]bool{"SPX": true, "NDX": true, "RUT": true, "DJX": true, "VIX": true, "VIXW": true}

// SettlesAM reports whether root's options settle at 09:30 on their
// expiry day rather than at its close.
func SettlesAM(root string) bool { return amRoots[root] }

// SettleTime is when an option of root expiring on d settles: 09:30
// Eastern for an AM-settled root, ExpiryTime otherwise.
func SettleTime(root string, d api.Date) time.Time {
	if SettlesAM(root) {
		return SessionOpen.On(d)
	}
	return ExpiryTime(d)
}

// YearsToSettle is the time from t to SettleTime(root, d) in years
// (ACT/365), negative once it has passed: an option's T as the chain
// prices it. It counts on the Eastern wall clock, calendar days of 24
// hours plus the difference of the times of day, as the service does:
// across a change of daylight saving time it is an hour from the
// instants' difference (YearsTo).
func YearsToSettle(root string, d api.Date, t time.Time) float64 {
	et := t.In(api.Eastern)
	today := api.NewDate(et.Year(), et.Month(), et.Day())
	settle := SettleTime(root, d)
	tod := time.Duration(settle.Hour()-et.Hour())*time.Hour + time.Duration(settle.Minute()-et.Minute())*time.Minute +
		time.Duration(settle.Second()-et.Second())*time.Second + time.Duration(settle.Nanosecond()-et.Nanosecond())
	return (float64(today.DaysUntil(d))*24 + tod.Hours()) / 24 / DaysPerYear
}
