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
// Bytes are read one at a time until a plain run reaches sixteen: the
// processor runs ahead on a byte loop whose exit it predicts, while the
// eight-bytes-at-once search below is a chain of dependent steps, slower
// for short strings and for escapes in clusters ("\ud83d\ude00"). A
// longer plain run is searched by words.
func strEnd(b []byte, i int) (int, string) {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	run := i + 17 // where the plain run from i+1 turns to words
	for i++; i < len(b); i++ {
		if skipClass[b[i]] == 0 {
			if i < run {
				continue
			}
			// In the mask a byte's top bit is set where it is a quote, a
			// backslash or a control character; a borrow only carries
			// upward from a matching byte, so the lowest set bit is a
			// true match, and a byte from 0x80 up never is one (the &^
			// clears it).
			for ; i+8 <= len(b); i += 8 {
				w := binary.LittleEndian.Uint64(b[i:])
				q, e := w^(ones*'"'), w^(ones*'\\')
				if m := ((q-ones)&^q | (e-ones)&^e | (w-ones*0x20)&^w) & tops; m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
			}
			for i < len(b) && skipClass[b[i]] == 0 {
				i++
			}
			if i >= len(b) {
				break
			}
		}
		switch b[i] {
		case '"':
			return i + 1, ""
		case '\\':
			if i+1 >= len(b) {
				return len(b), "unterminated string"
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i + 2, "invalid \\u escape"
				}
				i += 5
			default:
				return i, "invalid escape \\" + string(b[i+1:i+2])
			}
			run = i + 17
		default:
			return i, "control character in string"
		}
	}
	return len(b), "unterminated string"
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

// skipClass sorts bytes for strEnd's tail: 0 plain (any byte from 0x20 up
// but the quote and the backslash), 1 a byte that ends the plain run.
var skipClass = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 1
	}
	t['"'], t['\\'] = 1, 1
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
