package api

import (
	"encoding/binary"
	"math/bits"
)

// The scalars of skipped values: strings, numbers and literals, each read
// on a local index and checked against the grammar as str, number and
// literal would (the same bodies accepted and refused), without decoding.

// strEnd returns the index after the string that opens at b[i], or where
// it goes wrong and why. Nothing is copied or allocated. Bytes from 0x80
// up are plain: invalid UTF-8 is replaced when decoded, never refused, so
// skipping need not look at it.
//
// A string whose first sixteen bytes are plain is searched eight bytes at
// a time up to its first quote, backslash or control byte; the rest, and
// any string that starts otherwise, is read one byte at a time. Escapes
// come in clusters ("\ud83d\ude00", "\"quoted\""), and there the
// processor runs ahead on a byte loop whose exits it predicts, where each
// step of a search by words would wait on the one before.
func strEnd(b []byte, i int) (int, string) {
	i++
	if i+16 <= len(b) && specials(binary.LittleEndian.Uint64(b[i:]))|specials(binary.LittleEndian.Uint64(b[i+8:])) == 0 {
		for i += 16; i+8 <= len(b); i += 8 {
			if m := specials(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
		}
	}
	for ; i < len(b); i++ {
		switch skipClass[b[i]] {
		case 0:
			continue
		case 1:
			return i + 1, ""
		case 2: // backslash
			if i+1 >= len(b) {
				return len(b), "unterminated string"
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
				continue
			case 'u':
				if i+5 < len(b) && isHex(b[i+2]) && isHex(b[i+3]) && isHex(b[i+4]) && isHex(b[i+5]) {
					i += 5
					continue
				}
				return i + 2, "invalid \\u escape"
			}
			return i, "invalid escape \\" + string(b[i+1:i+2])
		default:
			return i, "control character in string"
		}
	}
	return len(b), "unterminated string"
}

// specials sets the top bit of each byte of w that is a quote, a
// backslash or a control character. A borrow only carries upward from a
// matching byte, so the lowest set bit is always a true match, and a byte
// from 0x80 up never is one (the &^ clears it).
func specials(w uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	q, e := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (e-ones)&^e | (w-ones*0x20)&^w) & tops
}

// shortStrEnd returns the index after the string whose quote is b[i] when
// it closes within sixteen bytes with no escape or control character
// before, else -1: keys and short strings, most of those in skipped
// values, are read inline by a loop the processor runs ahead on.
func shortStrEnd(b []byte, i int) int {
	seg := b[:min(len(b), i+17)]
	for i++; i < len(seg); i++ {
		if skipClass[seg[i]] != 0 {
			if seg[i] == '"' {
				return i + 1
			}
			return -1
		}
	}
	return -1
}

// skipClass sorts bytes for strEnd: 0 plain (any byte from 0x20 up, since
// invalid UTF-8 is replaced, not refused), 1 the closing quote, 2 a
// backslash, 3 a control character.
var skipClass = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 3
	}
	t['"'], t['\\'] = 1, 2
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scalarEnd returns the index after the literal or number at b[i], or
// where it goes wrong and why.
func scalarEnd(b []byte, i int) (int, string) {
	if i >= len(b) {
		return i, "unexpected end of input"
	}
	switch c := b[i]; {
	case c == '-' || c-'0' < 10:
		return numEnd(b, i)
	case c == 'n' && hasWord(b[i:], "null"), c == 't' && hasWord(b[i:], "true"):
		return i + 4, ""
	case c == 'f' && hasWord(b[i:], "false"):
		return i + 5, ""
	case c == 'n' || c == 't' || c == 'f':
		return i, "invalid literal"
	}
	return i, unexpected(b, i, "a value")
}

// numEnd returns the index after the number at b[i], held to the grammar
// as number holds it: an optional minus, 0 or a digit run without a
// leading zero, then optionally a point and digits, then optionally an
// exponent with an optional sign and digits. Exponents ("-1.5e-7") are
// read here too, not the slow way.
func numEnd(b []byte, i int) (int, string) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i]-'1' < 9:
		i = digitsEnd(b, i+1)
	default:
		return i, "expected a number"
	}
	if i < len(b) && b[i] == '.' {
		d := i + 1
		if i = digitsEnd(b, d); i == d {
			return i, "expected a digit after the decimal point"
		}
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		if i = digitsEnd(b, d); i == d {
			return i, "expected a digit in the exponent"
		}
	}
	return i, ""
}

// digitsEnd returns the index of the first byte from i on that is not a
// decimal digit.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	return i
}

// spaceEnd returns the index of the first byte from i on that is not JSON
// white space.
func spaceEnd(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\n' || c == '\t' || c == '\r') }

func hasWord(b []byte, w string) bool { return len(b) >= len(w) && string(b[:len(w)]) == w }
