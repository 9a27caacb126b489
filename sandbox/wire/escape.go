package wire

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendFloat appends v as strconv.AppendFloat(b, v, 'f', -1, 64) does,
// byte for byte, but several times faster for the values a chain is made of.
//
// Prices, IVs and greeks are rounded to a few decimals, and strconv's
// shortest-digit search costs more than the rest of a contract's encoding.
// For 0 < |v| < 1e7 the numbers of eight decimals are spaced wider than one
// ulp of v, so at most one of them reads back as v; m = |v|*1e8 rounded is
// that one (the product's rounding error is far below one half); and
// m/1e8 == |v|, a correctly rounded division as ParseFloat of the text is,
// proves that it reads back. Any shorter decimal that reads back as v is
// also such a number, so it is this one: the shortest form, which strconv
// prints, is m/1e8 without its trailing zeros. Anything else (more digits,
// huge, tiny, zero, -0, NaN) takes strconv's path, so the output is always
// strconv's; TestAppendFloatMatchesStrconv checks it over a wide sample.
//
// The digits are made eight at a time in a word (digits8), leading and
// trailing zeros cut by bit counts, and written with two stores: no loop
// per digit. Values below 1e4 with at most four decimals (prices, IV and
// most greeks; the same argument at 1e4) need only one digits8.
func appendFloat(b []byte, v float64) []byte {
	a := math.Abs(v)
	if !(a > 0 && a < 1e7) {
		return strconv.AppendFloat(b, v, 'f', -1, 64)
	}
	sign := 0
	if v < 0 {
		sign = 1
	}
	if cap(b)-len(b) < 18 {
		b = slices.Grow(b, 18)
	}
	at := len(b)
	d := b[at : at+18]
	d[0] = '-'
	// int64, not uint64, conversions: one instruction each.
	if n := int64(a*1e4 + 0.5); a < 1e4 && float64(n)/1e4 == a {
		w := digits8(uint64(n))
		id, fd := uint32(w), uint32(w>>32)
		lead := bits.TrailingZeros32(id|1<<24) / 8 // leading zeros, one digit kept for 0.x
		fracLen := 4 - bits.LeadingZeros32(fd)/8   // trailing zeros of the fraction cut
		binary.LittleEndian.PutUint32(d[sign:], id>>(8*lead)+asciiZeros32)
		end := sign + 4 - lead
		d[end] = '.'
		binary.LittleEndian.PutUint32(d[end+1:], fd+asciiZeros32)
		if fracLen > 0 {
			end++
		}
		return b[:at+end+fracLen]
	}
	n := int64(a*1e8 + 0.5)
	if float64(n)/1e8 != a {
		return strconv.AppendFloat(b, v, 'f', -1, 64)
	}
	id, fd := digits8(uint64(n/1e8)), digits8(uint64(n%1e8))
	lead := bits.TrailingZeros64(id|1<<56) / 8
	fracLen := 8 - bits.LeadingZeros64(fd)/8
	binary.LittleEndian.PutUint64(d[sign:], id>>(8*lead)+asciiZeros)
	end := sign + 8 - lead
	d[end] = '.'
	binary.LittleEndian.PutUint64(d[end+1:], fd+asciiZeros)
	if fracLen > 0 {
		end++
	}
	return b[:at+end+fracLen]
}

// asciiZeros turns bytes 0-9 into the digits '0'-'9'.
const (
	asciiZeros   = 0x3030303030303030
	asciiZeros32 = 0x30303030
)

// digits8 returns the eight decimal digits of x < 1e8 as bytes 0-9 in a
// word, the most significant in the lowest byte (first in memory when
// stored little-endian): two halves of four digits, each split into pairs,
// each pair into digits, in parallel lanes by multiply-and-shift division
// (x*10486>>20 is x/100 below 10,000, x*103>>10 is x/10 below 100;
// TestDigits8 checks the lanes).
func digits8(x uint64) uint64 {
	v := x/10000 | (x%10000)<<32
	q := (v * 10486 >> 20) & 0x0000007f0000007f
	v = q | (v-q*100)<<16
	q = (v * 103 >> 10) & 0x000f000f000f000f
	return q | (v-q*10)<<8
}

// appendInt appends v as strconv.AppendInt(b, v, 10) does; sizes, counts
// and volumes below 1e8 take the digits8 path.
func appendInt(b []byte, v int64) []byte {
	if v < 0 || v >= 1e8 {
		return strconv.AppendInt(b, v, 10)
	}
	id := digits8(uint64(v))
	lead := bits.TrailingZeros64(id|1<<56) / 8
	if cap(b)-len(b) < 8 {
		b = slices.Grow(b, 8)
	}
	at := len(b)
	binary.LittleEndian.PutUint64(b[at:at+8], id>>(8*lead)+asciiZeros)
	return b[:at+8-lead]
}

// finite reports whether v can be written as a JSON or XML number; NaN and
// infinities are sent as null rather than as invalid JSON.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

const hexDigits = "0123456789abcdef"

// plainPrefix returns a length, in whole words of eight bytes, of a prefix
// of s that needs no escaping: no control character, no byte from 0x80 on
// (which the escapers check as UTF-8), and none of x, y and z. Names,
// symbols and codes are checked a word at a time, not a byte at a time.
func plainPrefix(s string, x, y, z byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(w uint64) uint64 { return (w - ones) &^ w & highs } // high bit of bytes that are 0, and maybe of bytes above them
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// (w - 0x20 in each byte) &^ w sets the high bit of a byte below 0x20 (HAKMEM's hasless).
		if (w-0x20*ones)&^w&highs|w&highs|zero(w^(uint64(x)*ones))|zero(w^(uint64(y)*ones))|zero(w^(uint64(z)*ones)) != 0 {
			break
		}
	}
	return i
}

// jsonSafe marks the ASCII bytes a JSON string holds as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string: quote and backslash escaped,
// control characters as \n, \r, \t, \b, \f or \u00XX, U+2028 and U+2029
// escaped (as encoding/json does, for JavaScript consumers), and each byte
// of invalid UTF-8 replaced by U+FFFD so that the body is always valid.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := plainPrefix(s, '"', '\\', '\\'); i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendXMLText appends s as XML character data: &, < and > escaped; tab,
// newline and carriage return as character references (so that a parser's
// line-end normalisation does not change them, as encoding/xml writes them);
// and what XML 1.0 cannot carry at all (other control characters, U+FFFE,
// U+FFFF, invalid UTF-8) replaced by U+FFFD, so that the document always
// parses. Such a string therefore does not survive XML unchanged; it does
// in JSON.
func appendXMLText(b []byte, s string) []byte {
	start := 0
	for i := plainPrefix(s, '<', '>', '&'); i < len(s); {
		c := s[i]
		var esc string
		size := 1
		if c < utf8.RuneSelf {
			switch {
			case c == '<':
				esc = "&lt;"
			case c == '>':
				esc = "&gt;"
			case c == '&':
				esc = "&amp;"
			case c == '\t':
				esc = "&#x9;"
			case c == '\n':
				esc = "&#xA;"
			case c == '\r':
				esc = "&#xD;"
			case c < 0x20:
				esc = "\uFFFD"
			default:
				i++
				continue
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			if !(r == utf8.RuneError && size == 1) && r != 0xFFFE && r != 0xFFFF {
				i += size
				continue
			}
			esc = "\uFFFD"
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		i += size
		start = i
	}
	return append(b, s[start:]...)
}
