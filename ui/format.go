package ui

import (
	"math"
	"strconv"

	"chainwatch/api"
)

// Number formatting and padding for every pane.
//
// Two flavours of each: fmtX returns a string (for the panes drawn a few
// times a frame: header, details, status), appendX appends to a []byte (for
// the ladder and the tape, which format hundreds of cells a frame: one
// scratch buffer per View, no allocation per cell). Both agree on the text.
//
// Padding works on plain ASCII: numbers, dates, symbols and the marks the
// renderers put around them. One byte is one cell there, so there is no
// width measurement at all. Free text (company names, error messages) must
// go through ansi.StringWidth/ansi.Truncate instead.

// dash is how a null shows everywhere.
const dash = "-"

// spaces is a run of blanks to pad from without allocating.
const spaces = "                                                                                                                                " +
	"                                                                                                                                "

// appendSpaces appends n blanks.
func appendSpaces(dst []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

// padLeft right-aligns s in w cells: blanks on the left. Longer text is
// cut to w (its head kept). Plain ASCII only.
func padLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if len(s) >= w {
		return s[:w]
	}
	if w-len(s) <= len(spaces) {
		return spaces[:w-len(s)] + s
	}
	return string(appendPadLeft(make([]byte, 0, w), s, w))
}

// padRight left-aligns s in w cells: blanks on the right. Longer text is
// cut to w. Plain ASCII only.
func padRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if len(s) >= w {
		return s[:w]
	}
	if w-len(s) <= len(spaces) {
		return s + spaces[:w-len(s)]
	}
	return string(appendPadRight(make([]byte, 0, w), s, w))
}

// center centres s in w cells, the odd blank on the right. Longer text is
// cut to w. Plain ASCII only.
func center(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if len(s) >= w {
		return s[:w]
	}
	return string(appendCenter(make([]byte, 0, w), s, w))
}

// appendPadLeft appends s right-aligned in w cells (cut to w if longer).
func appendPadLeft[T string | []byte](dst []byte, s T, w int) []byte {
	if w <= 0 {
		return dst
	}
	if len(s) >= w {
		return append(dst, s[:w]...)
	}
	dst = appendSpaces(dst, w-len(s))
	return append(dst, s...)
}

// appendPadRight appends s left-aligned in w cells (cut to w if longer).
func appendPadRight[T string | []byte](dst []byte, s T, w int) []byte {
	if w <= 0 {
		return dst
	}
	if len(s) >= w {
		return append(dst, s[:w]...)
	}
	dst = append(dst, s...)
	return appendSpaces(dst, w-len(s))
}

// appendCenter appends s centred in w cells (cut to w if longer).
func appendCenter[T string | []byte](dst []byte, s T, w int) []byte {
	if w <= 0 {
		return dst
	}
	if len(s) >= w {
		return append(dst, s[:w]...)
	}
	left := (w - len(s)) / 2
	dst = appendSpaces(dst, left)
	dst = append(dst, s...)
	return appendSpaces(dst, w-len(s)-left)
}

// appendPrice appends a price with 2 decimals, "-" for null. No thousands
// separator: a ladder cell is narrow and digits line up without one.
func appendPrice(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	return appendFixed(dst, v, 2)
}

// pow10 are the scales appendFixed rounds at.
var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}

// appendFixed appends v with a fixed number of decimals, rounded half
// away from zero. It is strconv.AppendFloat(dst, v, 'f', decimals, 64)
// for the magnitudes of a chain, three times cheaper: AppendFloat finds
// the exact decimal expansion of the binary value, which a cell showing
// cents does not need, and it was a third of the ladder's frame. A value
// that rounds to zero has no sign ("0.00", never "-0.00").
func appendFixed(dst []byte, v float64, decimals int) []byte {
	a := math.Abs(v)
	if decimals < 0 || decimals >= len(pow10) || !(a < 1e12) {
		return strconv.AppendFloat(dst, v, 'f', decimals, 64)
	}
	p := pow10[decimals]
	n := int64(math.Round(a * p))
	if n != 0 && v < 0 {
		dst = append(dst, '-')
	}
	ip := int64(p)
	dst = strconv.AppendInt(dst, n/ip, 10)
	if decimals == 0 {
		return dst
	}
	dst = append(dst, '.')
	f := n % ip
	var frac [8]byte
	for i := decimals - 1; i >= 0; i-- {
		frac[i] = byte('0' + f%10)
		f /= 10
	}
	return append(dst, frac[:decimals]...)
}

// fmtPrice formats a price with 2 decimals, "-" for null.
func fmtPrice(v float64) string { return string(appendPrice(nil, v)) }

// appendSize appends a count (volume, open interest, a size): plain digits
// up to 99,999, then "123.4k", then "1.2M", "12.3M", then "1.2B". The
// suffixed forms cut (not round) the last digit, so a figure is never
// shown larger than it is and never rolls over into "1000.0k". Null (< 0)
// is "-".
func appendSize(dst []byte, v int64) []byte {
	switch {
	case v < 0:
		return append(dst, dash...)
	case v <= 99_999:
		return strconv.AppendInt(dst, v, 10)
	case v < 1_000_000:
		return appendTenths(dst, v/100, 'k')
	case v < 1_000_000_000:
		return appendTenths(dst, v/100_000, 'M')
	default:
		return appendTenths(dst, v/100_000_000, 'B')
	}
}

// appendSizeFit appends a count in at most w cells: plain digits when they
// fit, else the shortest suffixed form that fits ("123.4k", "123k", "1.2M",
// "1M"). Volume columns are narrow on small terminals; digits are kept
// as long as there is room because traders read exact volumes.
func appendSizeFit(dst []byte, v int64, w int) []byte {
	if v < 0 {
		return append(dst, dash...)
	}
	return appendSizeIn(dst, v, sizeUnitFor(v, w))
}

// sizeUnit is a form for counts: digits (div 1), or thousands, millions
// or billions, whole or to a tenth. A column chooses one by its largest
// value (sizeUnitFor) so that every row of it reads alike: "980.1k" over
// "7.7M" reads as the larger at a glance.
type sizeUnit struct {
	div    int64
	suffix byte
	tenths bool
	w      int // the cells it was chosen for
}

// sizeUnitFor is appendSizeFit's form for v in w cells: the form in which
// every count up to v fits w.
func sizeUnitFor(v int64, w int) sizeUnit {
	if digits(max(v, 0)) <= w {
		return sizeUnit{div: 1, w: w}
	}
	for _, u := range [...]sizeUnit{{1_000, 'k', true, w}, {1_000_000, 'M', true, w}, {1_000_000_000, 'B', true, w}} {
		whole := v / u.div
		if whole >= 1000 && u.suffix != 'B' {
			continue
		}
		// "12.3k": whole digits, a point, one decimal, the suffix.
		if digits(whole)+3 <= w {
			return u
		}
		if digits(whole)+1 <= w {
			u.tenths = false
			return u
		}
	}
	// Nothing fits: the caller's column is too narrow; appendSize's
	// form, and let padding cut it.
	return sizeUnit{}
}

// appendSizeIn appends v >= 0 in form u ("-" for a negative: unknown);
// the zero form is appendSize's own choice. A count under the form's
// least step is "<1k" or "<0.1M" where that fits, not a "0k" that reads
// as none.
func appendSizeIn(dst []byte, v int64, u sizeUnit) []byte {
	switch {
	case v < 0:
		return append(dst, dash...)
	case u.div == 0:
		return appendSize(dst, v)
	case u.div == 1:
		return strconv.AppendInt(dst, v, 10)
	case u.tenths && v > 0 && v < u.div/10 && u.w >= 5:
		return append(append(dst, "<0.1"...), u.suffix)
	case u.tenths:
		return appendTenths(dst, v/(u.div/10), u.suffix)
	case v > 0 && v < u.div && u.w >= 3:
		return append(append(dst, "<1"...), u.suffix)
	}
	return append(strconv.AppendInt(dst, v/u.div, 10), u.suffix)
}

// underlyingVolume is an underlying's volume as shown: a count of none
// (an index, which does not trade, reports 0 all day) is "-" rather than
// "Vol 0", which reads as a feed that stopped.
func underlyingVolume(v int64) int64 {
	if v == 0 {
		return -1
	}
	return v
}

// appendTenths appends tenths as "12.3" plus a suffix.
func appendTenths(dst []byte, tenths int64, suffix byte) []byte {
	dst = strconv.AppendInt(dst, tenths/10, 10)
	dst = append(dst, '.', byte('0'+tenths%10), suffix)
	return dst
}

// digits is the number of decimal digits of v >= 0.
func digits(v int64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

// fmtSize formats a count with appendSize's rules.
func fmtSize(v int64) string {
	if v >= 0 && v < 10 {
		return smallInts[v]
	}
	return string(appendSize(nil, v))
}

var smallInts = [...]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// appendPct appends a fraction as a percentage: 0.2208 with 1 decimal is
// "22.1%". Null is "-".
func appendPct(dst []byte, v float64, decimals int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	dst = appendFixed(dst, v*100, decimals)
	return append(dst, '%')
}

// fmtPct formats a fraction as a percentage ("22.1%"), "-" for null.
func fmtPct(v float64, decimals int) string { return string(appendPct(nil, v, decimals)) }

// appendSigned appends v with an explicit sign: "+1.23", "-0.45". A value
// that rounds to zero has no sign ("0.00"), so an unchanged figure does not
// look like a move. Null is "-".
func appendSigned(dst []byte, v float64, decimals int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	start := len(dst)
	dst = appendFixed(dst, math.Abs(v), decimals)
	if isZeroText(dst[start:]) {
		return dst
	}
	sign := byte('+')
	if v < 0 {
		sign = '-'
	}
	dst = append(dst, 0)
	copy(dst[start+1:], dst[start:len(dst)-1])
	dst[start] = sign
	return dst
}

// fmtSigned formats v with an explicit sign ("+1.23", "-0.45", "0.00").
func fmtSigned(v float64, decimals int) string { return string(appendSigned(nil, v, decimals)) }

func isZeroText(b []byte) bool {
	for _, c := range b {
		if c != '0' && c != '.' {
			return false
		}
	}
	return true
}

// appendGreek appends a greek with fixed decimals ("0.512", "-0.033"),
// "-" for null. A value that rounds to zero prints unsigned.
func appendGreek(dst []byte, v float64, decimals int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	return appendFixed(dst, v, decimals)
}

// appendGreekShort is appendGreek without the leading zero of a value
// below one (".512", "-.488"): the ladder's greek columns are one cell
// narrower for it, which on an 80-column terminal is a column more.
func appendGreekShort(dst []byte, v float64, decimals int) []byte {
	start := len(dst)
	dst = appendGreek(dst, v, decimals)
	s := dst[start:]
	switch {
	case len(s) > 2 && s[0] == '0' && s[1] == '.':
		copy(dst[start:], dst[start+1:])
		dst = dst[:len(dst)-1]
	case len(s) > 3 && s[0] == '-' && s[1] == '0' && s[2] == '.':
		copy(dst[start+1:], dst[start+2:])
		dst = dst[:len(dst)-1]
	}
	return dst
}

// fmtGreek formats a greek with fixed decimals ("0.512"), "-" for null.
func fmtGreek(v float64, decimals int) string { return string(appendGreek(nil, v, decimals)) }

var monthAbbr = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// appendDate appends a day as "Nov21": month and day, the short form of
// the tabs and the tape (the year is implied by being near). The zero or
// an invalid date is "-".
func appendDate(dst []byte, d api.Date) []byte {
	if !d.Valid() {
		return append(dst, dash...)
	}
	dst = append(dst, monthAbbr[d.Month()-1]...)
	day := d.Day()
	return append(dst, byte('0'+day/10), byte('0'+day%10))
}

// fmtDate formats a day as "Nov21", "-" for none.
func fmtDate(d api.Date) string { return string(appendDate(nil, d)) }

// appendStrike appends a strike with only the decimals it needs: 450,
// 452.5, 0.5, 12.125. Strikes come off a float grid, so the value is
// rounded to 4 decimals first to shed binary noise (452.49999999 -> 452.5).
func appendStrike(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	start := len(dst)
	dst = appendFixed(dst, v, 4)
	end := len(dst)
	for end > start && dst[end-1] == '0' {
		end--
	}
	if end > start && dst[end-1] == '.' {
		end--
	}
	return dst[:end]
}

// fmtStrike formats a strike with only the decimals it needs.
func fmtStrike(v float64) string { return string(appendStrike(nil, v)) }

// appendFit appends v with decimals (short: without the leading zero, as
// appendGreekShort), dropping decimals until the text fits w cells (down
// to none). A chain whose prices or greeks outgrow their column (an index
// at 20,000, a vega of 12.345) still shows whole numbers instead of a
// cut-off tail. Null is "-".
func appendFit(dst []byte, v float64, decimals, w int, short bool) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, dash...)
	}
	start := len(dst)
	for d := decimals; ; d-- {
		if short {
			dst = appendGreekShort(dst, v, d)
		} else {
			dst = appendFixed(dst, v, d)
		}
		if len(dst)-start <= w || d <= 0 {
			return dst
		}
		dst = dst[:start]
	}
}

// fixedText is v with decimals, "-" when it is not a number.
func fixedText(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	return string(appendFixed(nil, v, decimals))
}
