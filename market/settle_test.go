package market_test

import (
	"math"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/market"
	sbmarket "chainwatch/sandbox/market"
)

// TestSettlesAMAsTheSandboxLists: every root the sandbox lists settles
// at the open exactly when its series say AM-settled (SPX, NDX, RUT and
// DJX monthlies, VIX and VIXW), and at the close otherwise.
func TestSettlesAMAsTheSandboxLists(t *testing.T) {
	u := sbmarket.Default()
	d := api.NewDate(2026, 11, 20)
	seen := 0
	for _, s := range u.Optionable() {
		for _, ser := range u.Series(s, d) {
			seen++
			if got := market.SettlesAM(ser.Root); got != ser.AMSettled {
				t.Fatalf("%s %s: SettlesAM %v, the sandbox's AM-settled %v", ser.Root, ser.Expiry, got, ser.AMSettled)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the sandbox lists no series")
	}
}

// TestYearsToSettleCountsWallClockDays: T runs to 09:30 for an AM root
// and to the close otherwise, in calendar days of 24 hours on the
// Eastern clock, so the hour daylight saving takes in March is not
// lost (the service counts T so).
func TestYearsToSettleCountsWallClockDays(t *testing.T) {
	now := time.Date(2026, 11, 20, 11, 30, 0, 0, api.Eastern)
	mar := api.NewDate(2027, 3, 19) // after DST begins on March 14
	days := float64(api.NewDate(2026, 11, 20).DaysUntil(mar))
	for _, c := range []struct {
		root  string
		hours float64
	}{{"SPXW", days*24 + 4.5}, {"SPY", days*24 + 4.5}, {"SPX", days*24 - 2}, {"VIXW", days*24 - 2}} {
		want := c.hours / 24 / market.DaysPerYear
		if got := market.YearsToSettle(c.root, mar, now.UTC()); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: T %v, want %v", c.root, got, want)
		}
	}
	if got := market.YearsToSettle("SPY", api.NewDate(2026, 11, 20), now.Add(5*time.Hour)); got >= 0 {
		t.Errorf("after the close T is %v, want below zero", got)
	}
}
