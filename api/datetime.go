package api

import (
	"encoding/xml"
	"fmt"
	"time"
	_ "time/tzdata" // Eastern time must resolve on machines without a zoneinfo database.
)

// Eastern is the exchange time zone. Dates and times of day in the service are
// Eastern; "historical" means a date before today in Eastern time, whatever
// the user's own zone.
var Eastern = mustLoadEastern()

func mustLoadEastern() *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic("api: America/New_York missing from the embedded tzdata: " + err.Error())
	}
	return loc
}

// Date is a calendar day stored as yyyymmdd, so that it is small, comparable
// with < and usable as a map key. The zero Date means "no date".
type Date int32

// NewDate returns the Date for a year, month and day (not checked; see Valid).
func NewDate(y int, m time.Month, d int) Date { return Date(y*10000 + int(m)*100 + d) }

// DateOf returns the calendar day of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return NewDate(y, m, d)
}

// Today returns today's date in Eastern time.
func Today(now time.Time) Date { return DateOf(now.In(Eastern)) }

func (d Date) Year() int         { return int(d) / 10000 }
func (d Date) Month() time.Month { return time.Month(int(d) / 100 % 100) }
func (d Date) Day() int          { return int(d) % 100 }
func (d Date) IsZero() bool      { return d == 0 }

// Valid reports whether d is a real calendar day.
func (d Date) Valid() bool {
	y, m, day := d.Year(), d.Month(), d.Day()
	if y < 1 || y > 9999 || m < 1 || m > 12 || day < 1 {
		return false
	}
	return day <= daysIn(m, y)
}

// daysIn returns the number of days of month m in year y (Gregorian).
func daysIn(m time.Month, y int) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// Time returns midnight of d in loc.
func (d Date) Time(loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
}

// AddDays returns the date n days after d.
func (d Date) AddDays(n int) Date { return DateOf(d.Time(time.UTC).AddDate(0, 0, n)) }

// DaysUntil returns the number of calendar days from d to e (negative if e is earlier).
func (d Date) DaysUntil(e Date) int {
	return int(e.Time(time.UTC).Sub(d.Time(time.UTC)).Hours() / 24)
}

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return d.Time(time.UTC).Weekday() }

// String formats d as yyyy-MM-dd, the service's date format.
func (d Date) String() string {
	if d == 0 {
		return ""
	}
	b := make([]byte, 0, 10)
	return string(d.appendTo(b))
}

func (d Date) appendTo(b []byte) []byte {
	y, m, day := d.Year(), int(d.Month()), d.Day()
	b = append(b, byte('0'+y/1000%10), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-')
	b = append(b, byte('0'+m/10), byte('0'+m%10), '-', byte('0'+day/10), byte('0'+day%10))
	return b
}

// ParseDate parses yyyy-MM-dd strictly: four-digit year, two-digit month and
// day, and a day that exists.
func ParseDate(s string) (Date, error) {
	d, ok := parseDateBytes([]byte(s))
	if !ok {
		return 0, fmt.Errorf("%q is not a date of the form yyyy-MM-dd", truncate(s, 40))
	}
	return d, nil
}

func parseDateBytes(b []byte) (Date, bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	n := 0
	for i, c := range b {
		if i == 4 || i == 7 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	d := Date(n)
	return d, d.Valid()
}

// MarshalJSON writes "yyyy-MM-dd", or null for the zero Date.
func (d Date) MarshalJSON() ([]byte, error) {
	if d == 0 {
		return nullJSON, nil
	}
	b := append(make([]byte, 0, 12), '"')
	return append(d.appendTo(b), '"'), nil
}

// UnmarshalJSON reads "yyyy-MM-dd" (a time part, if the service sends one, is ignored) or null.
func (d *Date) UnmarshalJSON(b []byte) error {
	s, err := jsonText(b, "date")
	if err != nil {
		return err
	}
	return d.setText(s)
}

func (d *Date) setText(s string) error {
	v, ok := parseDateLenient([]byte(s))
	if !ok {
		return fmt.Errorf("%q is not a date of the form yyyy-MM-dd", truncate(s, 40))
	}
	*d = v
	return nil
}

// parseDateLenient reads a date from a response: surrounding space is
// ignored, an empty value is no date, and a time part after the day (which
// a .NET service may append) is dropped.
func parseDateLenient(b []byte) (Date, bool) {
	b = trimSpace(b)
	if len(b) == 0 {
		return 0, true
	}
	if len(b) > 10 && (b[10] == 'T' || b[10] == ' ') {
		b = b[:10]
	}
	return parseDateBytes(b)
}

// trimSpace trims ASCII white space without allocating.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for n := len(b); n > 0 && (b[n-1] == ' ' || b[n-1] == '\t' || b[n-1] == '\n' || b[n-1] == '\r'); n = len(b) {
		b = b[:n-1]
	}
	return b
}

// UnmarshalXML reads a date element (i:nil or empty gives the zero Date).
func (d *Date) UnmarshalXML(dec *xml.Decoder, start xml.StartElement) error {
	s, err := xmlText(dec, start)
	if err != nil {
		return err
	}
	return d.setText(s)
}

// MarshalText writes yyyy-MM-dd (used by encoding/xml and as a map key).
func (d Date) MarshalText() ([]byte, error) { return d.appendTo(nil), nil }

// TimeOfDay is an Eastern time of day in milliseconds since midnight, the
// service's HH:mm:ss.fff. It is an integer so that trades sort and compare
// cheaply and a tape of thousands of trades holds no time strings.
type TimeOfDay int32

// Milliseconds in a day; a TimeOfDay lies in [0, DayMillis).
const DayMillis = 24 * 60 * 60 * 1000

// NewTimeOfDay builds a TimeOfDay from its parts.
func NewTimeOfDay(h, m, s, ms int) TimeOfDay {
	return TimeOfDay(((h*60+m)*60+s)*1000 + ms)
}

// TimeOfDayOf returns the time of day of t in Eastern time.
func TimeOfDayOf(t time.Time) TimeOfDay {
	t = t.In(Eastern)
	return NewTimeOfDay(t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e6)
}

func (t TimeOfDay) Hour() int        { return int(t) / 3600000 }
func (t TimeOfDay) Minute() int      { return int(t) / 60000 % 60 }
func (t TimeOfDay) Second() int      { return int(t) / 1000 % 60 }
func (t TimeOfDay) Millisecond() int { return int(t) % 1000 }

// On returns the instant of t on day d in Eastern time.
func (t TimeOfDay) On(d Date) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), t.Hour(), t.Minute(), t.Second(), t.Millisecond()*1e6, Eastern)
}

// String formats t as HH:mm:ss.fff.
func (t TimeOfDay) String() string { return string(t.appendTo(make([]byte, 0, 12))) }

func (t TimeOfDay) appendTo(b []byte) []byte {
	h, m, s, ms := t.Hour(), t.Minute(), t.Second(), t.Millisecond()
	return append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':',
		byte('0'+s/10), byte('0'+s%10), '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
}

// ParseTimeOfDay parses HH:mm:ss.fff strictly, as request parameters must be
// written: 00:00:00.000 to 23:59:59.999.
func ParseTimeOfDay(s string) (TimeOfDay, error) {
	if len(s) != 12 || s[8] != '.' {
		return 0, fmt.Errorf("%q is not a time of the form HH:mm:ss.fff", truncate(s, 40))
	}
	t, ok := parseTimeBytes([]byte(s))
	if !ok {
		return 0, fmt.Errorf("%q is not a time between 00:00:00.000 and 23:59:59.999", truncate(s, 40))
	}
	return t, nil
}

// parseTimeBytes parses HH:mm:ss with an optional fraction of one to nine
// digits (kept to the millisecond). Responses are read leniently: a service
// that drops or lengthens the fraction is still understood.
func parseTimeBytes(b []byte) (TimeOfDay, bool) {
	if len(b) < 8 || b[2] != ':' || b[5] != ':' {
		return 0, false
	}
	h, ok1 := twoDigits(b[0], b[1])
	m, ok2 := twoDigits(b[3], b[4])
	s, ok3 := twoDigits(b[6], b[7])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 59 {
		return 0, false
	}
	ms, ok := fractionMillis(b[8:])
	if !ok {
		return 0, false
	}
	return NewTimeOfDay(h, m, s, ms), true
}

// twoDigits is the number c0c1 writes; false when either is not a digit.
func twoDigits(c0, c1 byte) (int, bool) {
	if c0 < '0' || c0 > '9' || c1 < '0' || c1 > '9' {
		return 0, false
	}
	return int(c0-'0')*10 + int(c1-'0'), true
}

// fractionMillis reads what follows the seconds: nothing, or "." and one
// to nine digits, kept to the millisecond.
func fractionMillis(f []byte) (int, bool) {
	if len(f) == 0 {
		return 0, true
	}
	if f[0] != '.' || len(f) == 1 || len(f) > 10 {
		return 0, false
	}
	ms := 0
	for i, c := range f[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		if i < 3 {
			ms = ms*10 + int(c-'0')
		}
	}
	for i := len(f) - 1; i < 3; i++ {
		ms *= 10
	}
	return ms, true
}

// parseTimeLenient reads a time of day from a response: surrounding space is
// ignored, an empty value is midnight, the fraction may have 0 to 9 digits.
func parseTimeLenient(b []byte) (TimeOfDay, bool) {
	b = trimSpace(b)
	if len(b) == 0 {
		return 0, true
	}
	return parseTimeBytes(b)
}

// MarshalJSON writes "HH:mm:ss.fff".
func (t TimeOfDay) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 14), '"')
	return append(t.appendTo(b), '"'), nil
}

// UnmarshalJSON reads "HH:mm:ss.fff" (leniently) or null (as midnight).
func (t *TimeOfDay) UnmarshalJSON(b []byte) error {
	s, err := jsonText(b, "time")
	if err != nil {
		return err
	}
	return t.setText(s)
}

func (t *TimeOfDay) setText(s string) error {
	v, ok := parseTimeLenient([]byte(s))
	if !ok {
		return fmt.Errorf("%q is not a time of the form HH:mm:ss.fff", truncate(s, 40))
	}
	*t = v
	return nil
}

// UnmarshalXML reads a time element.
func (t *TimeOfDay) UnmarshalXML(dec *xml.Decoder, start xml.StartElement) error {
	s, err := xmlText(dec, start)
	if err != nil {
		return err
	}
	return t.setText(s)
}

// MarshalText writes HH:mm:ss.fff.
func (t TimeOfDay) MarshalText() ([]byte, error) { return t.appendTo(nil), nil }
