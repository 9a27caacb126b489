package market

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"chainwatch/api"
)

// Day numbers: the whole package counts calendar days from 2000-01-01
// (day 0), the first day any sandbox data can exist. The Brownian paths are
// indexed by this number and the calendar's bit sets use it too, so date
// arithmetic is integer arithmetic with no time.Time in hot paths.

// epochDays is the civil-from-days number of 2000-01-01.
const epochDays = 10957 // days from 1970-01-01 to 2000-01-01

// horizon is the number of day numbers the paths and the calendar cover:
// 2^16 days, 2000-01-01 to 2179-06-05.
const horizon = 1 << 16

// dayNum returns the number of days from 2000-01-01 to d (negative before).
// Howard Hinnant's days_from_civil, exact for the proleptic Gregorian calendar.
func dayNum(d api.Date) int {
	y, m, dd := d.Year(), int(d.Month()), d.Day()
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + dd - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468 - epochDays
}

// dateOf is the inverse of dayNum (civil_from_days).
func dateOf(n int) api.Date {
	z := n + epochDays + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return api.Date(y*10000 + m*100 + d)
}

// weekdayOf returns the weekday of day number n (2000-01-01 was a Saturday).
func weekdayOf(n int) time.Weekday {
	return time.Weekday(((n+6)%7 + 7) % 7)
}

// nthWeekday returns the day number of the nth (1-based) weekday wd of a
// month; n = -1 asks for the last one.
func nthWeekday(y int, m time.Month, wd time.Weekday, n int) int {
	if n < 0 {
		last := dayNum(api.NewDate(y, m, daysInMonth(y, m)))
		return last - (int(weekdayOf(last))-int(wd)+7)%7
	}
	return weekdayOnOrAfter(dayNum(api.NewDate(y, m, 1)), wd) + 7*(n-1)
}

// weekdayOnOrAfter returns the day number of the first weekday wd on or
// after day n.
func weekdayOnOrAfter(n int, wd time.Weekday) int {
	return n + (int(wd)-int(weekdayOf(n))+7)%7
}

// daysInMonth returns the length of month m of year y.
func daysInMonth(y int, m time.Month) int {
	if m == time.December {
		return 31
	}
	return dayNum(api.NewDate(y, m+1, 1)) - dayNum(api.NewDate(y, m, 1))
}

// yearsBetween is the ACT/365.25 year fraction from day a to day b.
func yearsBetween(a, b int) float64 { return float64(b-a) / 365.25 }

// hashKey is the FNV-64a hash of the parts, joined by a separator that
// cannot occur in symbols. FNV is fixed across runs and machines, which
// maphash is not, so every derived number is reproducible.
func hashKey(parts ...string) uint64 {
	h := fnv.New64a()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return h.Sum64()
}

// mix combines a key with integers into a new well-spread 64-bit value
// (the splitmix64 finaliser), for sub-keys such as (symbol, day, purpose).
func mix(key uint64, xs ...uint64) uint64 {
	for _, x := range xs {
		key ^= x + 0x9e3779b97f4a7c15 + key<<6 + key>>2
		key ^= key >> 30
		key *= 0xbf58476d1ce4e5b9
		key ^= key >> 27
		key *= 0x94d049bb133111eb
		key ^= key >> 31
	}
	return key
}

// newRand returns a PCG generator seeded from a key and a stream number.
func newRand(key, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(key, mix(key, stream)))
}

// unit returns a uniform in [0, 1) derived from a key: one PCG step.
func unit(key, stream uint64) float64 {
	p := rand.NewPCG(key, stream)
	return float64(p.Uint64()>>11) / (1 << 53)
}

// normal returns a standard normal variate derived from a key, by the
// Box-Muller transform of two PCG uniforms. It is what the Levy
// construction draws at each node, so it must be cheap and allocation free.
func normal(key, stream uint64) float64 {
	p := rand.NewPCG(key, stream)
	a, b := p.Uint64(), p.Uint64()
	u1 := (float64(a>>11) + 0.5) / (1 << 53)
	u2 := float64(b>>11) / (1 << 53)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// round2 rounds a price to cents, the tick every underlying here prints in.
func round2(x float64) float64 { return math.Round(x*100) / 100 }
