package api

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// shortDecimal reads the number at b[i] when it is a plain decimal of at
// most eight bytes after its sign ("-4.1234", "5300", "0.12345"), as
// nearly every price, size and greek is, without a branch on its length
// or its sign: members in a shuffled order give the branch predictor no
// pattern, and a mispredicted loop exit per number was most of what
// decoding a shuffled chain cost beyond an ordered one. It returns the
// digits as an integer, how many followed the point, whether there was a
// point, the sign as a float64's sign bit, and the index after the number; ok is false for anything else
// (longer, exponent, leading zero, not a number), which the caller reads
// the careful way.
func shortDecimal(b []byte, i int) (mant uint64, frac int, dot bool, sign uint64, end int, ok bool) {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	if i+10 > len(b) {
		return 0, 0, false, 0, 0, false
	}
	j := i
	if b[i] == '-' {
		j++
		sign = 1 << 63
	}
	w := binary.LittleEndian.Uint64(b[j:])
	// Top bit of each byte that is not a digit, byte by byte exact: a byte
	// below '0' clears ge0, one above '9' sets gt9, and neither sum nor
	// difference carries out of its byte.
	ge0 := (w | tops) - ones*'0'
	gt9 := (w &^ tops) + ones*(0x7f-'9')
	nd := (^ge0 | gt9 | w) & tops
	p1 := bits.TrailingZeros64(nd) >> 3 // digits before the point (8: none but digits)
	dot = byte(w>>(8*p1)) == '.'        // a shift of 64 gives 0: no point
	nd2 := nd &^ (0x80 << (8 * p1))     // the next non-digit, after a point
	p2 := bits.TrailingZeros64(nd2) >> 3
	n := p1 // bytes of the number after the sign
	if dot {
		n = p2
	}
	digits := n // digits in all
	if dot {
		digits--
	}
	frac = n - p1 - 1
	if !dot {
		frac = 0
	}
	// The first byte after the number: a point or an exponent means a
	// form read the careful way, as does a leading zero ("01") or a point
	// without a digit after it.
	t := b[j+n]
	if p1 == 0 || (dot && frac == 0) || (w&0xff == '0' && p1 > 1) || t == '.' || t == 'e' || t == 'E' || t-'0' < 10 {
		return 0, 0, false, 0, 0, false
	}
	// Close the point's gap, keep the digits, and put them in the high
	// bytes so that the low ones read as leading zeros.
	low := uint64(1)<<(8*p1) - 1
	if dot {
		w = w&low | (w>>8)&^low
	}
	v := (w - ones*'0') & (uint64(1)<<(8*digits) - 1)
	v <<= 8 * (8 - digits)
	// Eight digits to an integer in three multiplications (first digit in
	// the lowest byte).
	v = (v * (1 + 10<<8)) >> 8 & 0x00ff00ff00ff00ff
	v = (v * (1 + 100<<16)) >> 16 & 0x0000ffff0000ffff
	v = (v * (1 + 10000<<32)) >> 32
	return v, frac, dot, sign, j + n, true
}

// shortFloat is shortDecimal as a float: at most eight digits, so the
// integer is exact, and dividing by an exact power of ten rounds once,
// correctly, as strconv would. The sign is set as a bit, not branched on.
func shortFloat(mant uint64, frac int, sign uint64) float64 {
	return math.Float64frombits(math.Float64bits(float64(mant)/pow10[frac]) | sign)
}
