package market

import (
	"testing"
	"time"

	"chainwatch/api"
)

// TestMonthDaysMemoized: a month's expiry days, memoized, are the days
// the calendar gives, asked first and asked again, for every month from
// 1999 (outside the memo) to 2201 (past its end).
func TestMonthDaysMemoized(t *testing.T) {
	for y := 1999; y <= 2201; y++ {
		for m := time.January; m <= time.December; m++ {
			ny, nm := y, m+1
			if nm > 12 {
				ny, nm = y+1, 1
			}
			monthly := sessionOnOrBefore(nthWeekday(y, m, time.Friday, 3))
			vix := sessionOnOrBefore(nthWeekday(ny, nm, time.Friday, 3) - 30)
			end := prevTrading(dayNum(api.NewDate(ny, nm, 1)))
			for range 2 {
				if got := monthlyExpiry(y, m); got != monthly {
					t.Fatalf("%d-%02d: monthly %d, want %d", y, m, got, monthly)
				}
				if got := vixExpiry(y, m); got != vix {
					t.Fatalf("%d-%02d: VIX %d, want %d", y, m, got, vix)
				}
				if got := monthEndDay(y, m); got != end {
					t.Fatalf("%d-%02d: month end %d, want %d", y, m, got, end)
				}
			}
		}
	}
}
