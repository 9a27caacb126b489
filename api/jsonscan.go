package api

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jsonScanner reads JSON values from a complete body. It exists because no
// JSON library measured here decodes a 20,000-contract chain both five times
// faster than encoding/json and with at most two allocations per contract
// (see decode_bench_test.go and the closing notes): nulls need a value type
// (pointers cost an allocation each), and value types with UnmarshalJSON
// cost every library its speed. The scanner is deliberately small: it reads
// exactly the JSON grammar, and a differential fuzz test holds it to
// encoding/json's answers.
type jsonScanner struct {
	b       []byte
	i       int
	err     error
	scratch []byte   // unescaped string bytes, reused
	strs    *strPool // where decoded strings live
}

// syntaxError records the first error with its byte offset.
func (s *jsonScanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("json: "+format+" at byte %d", append(args, s.i)...)
	}
	s.i = len(s.b)
}

// ws skips white space. It is spaceEnd on the scanner's own index, kept
// as a switch: written as a call to spaceEnd it made the ordered chain
// decode measurably slower (BenchmarkDecodeChain), as it runs before
// every token.
func (s *jsonScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *jsonScanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// expect consumes c or fails.
func (s *jsonScanner) expect(c byte) bool {
	if s.peek() != c {
		if s.i < len(s.b) {
			s.fail("expected %q, found %q", c, s.b[s.i])
		} else {
			s.fail("expected %q, found end of input", c)
		}
		return false
	}
	s.i++
	return true
}

// literal consumes a keyword such as null or true.
func (s *jsonScanner) literal(word string) bool {
	if hasWord(s.b[s.i:], word) {
		s.i += len(word)
		return true
	}
	return false
}

// null consumes a null if one comes next.
func (s *jsonScanner) null() bool {
	return s.peek() == 'n' && s.literal("null")
}

// end checks that only white space follows the top-level value.
func (s *jsonScanner) end() {
	if s.peek() != 0 {
		s.fail("unexpected data after the top-level value")
	}
}

// str reads a string and returns its bytes, valid until the next call.
func (s *jsonScanner) str() ([]byte, bool) {
	if !s.expect('"') {
		return nil, false
	}
	start := s.i
	for i := s.i; i < len(s.b); i++ {
		switch strClass[s.b[i]] {
		case 0:
			continue
		case 1: // closing quote
			s.i = i + 1
			return s.b[start:i], true
		default: // escape, control or non-ASCII byte
			s.i = i
			return s.strSlow(start)
		}
	}
	s.i = len(s.b)
	s.fail("unterminated string")
	return nil, false
}

// key reads an object's key. Keys are short plain ASCII: the closing
// quote is found with one vectorised search and the bytes before it
// checked with the table; anything else goes the way of str.
func (s *jsonScanner) key() ([]byte, bool) {
	if !s.expect('"') {
		return nil, false
	}
	start := s.i
	if end := bytes.IndexByte(s.b[start:], '"'); end >= 0 {
		k := s.b[start : start+end]
		plain := true
		for _, c := range k {
			if strClass[c] != 0 {
				plain = false
				break
			}
		}
		if plain {
			s.i = start + end + 1
			return k, true
		}
	}
	return s.strSlow(start)
}

// strClass sorts string bytes: 0 plain ASCII, 1 the closing quote, 2 a
// byte that needs strSlow. One table load per byte keeps the common case
// (short ASCII keys and symbols) to a single branch.
var strClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '"':
			t[c] = 1
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			t[c] = 2
		}
	}
	return t
}()

// strSlow handles escapes, control characters and non-ASCII bytes the way
// encoding/json does: invalid UTF-8 becomes U+FFFD.
func (s *jsonScanner) strSlow(start int) ([]byte, bool) {
	out := append(s.scratch[:0], s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			s.scratch = out
			return out, true
		case c < 0x20:
			s.fail("control character in string")
			return nil, false
		case c == '\\':
			if s.i+1 >= len(s.b) {
				s.fail("unterminated string")
				return nil, false
			}
			e := s.b[s.i+1]
			s.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return nil, false
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
						save := s.i
						s.i += 2
						if r2, ok = s.hex4(); !ok {
							return nil, false
						}
						if utf16.DecodeRune(r, r2) == utf8.RuneError {
							s.i, r2 = save, -1
						}
					}
					if r2 >= 0 {
						r = utf16.DecodeRune(r, r2)
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				s.fail("invalid escape \\%c", e)
				return nil, false
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s.b[s.i:s.i+size]...)
			}
			s.i += size
		}
	}
	s.fail("unterminated string")
	return nil, false
}

func (s *jsonScanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		s.fail("short \\u escape")
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			s.fail("invalid \\u escape")
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// number returns the bytes of a JSON number, checked against the grammar.
func (s *jsonScanner) number() ([]byte, bool) {
	s.ws()
	start, i, b := s.i, s.i, s.b
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		s.fail("expected a number")
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			s.fail("expected a digit after the decimal point")
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			s.fail("expected a digit in the exponent")
			return nil, false
		}
	}
	s.i = i
	return b[start:i], true
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// float reads a number in one pass. Prices and greeks have at most 15
// significant digits and no exponent, so the exact fast path (an integer
// below 2^53 divided by an exact power of ten rounds once, correctly, as
// strconv would) covers nearly all of them; anything else, and anything
// off the JSON grammar, goes through number() and strconv.
func (s *jsonScanner) float() (float64, bool) {
	s.ws()
	if mant, frac, _, sign, end, ok := shortDecimal(s.b, s.i); ok {
		s.i = end
		return shortFloat(mant, frac, sign), true
	}
	b, i := s.b, s.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits, frac := 0, -1
	first := i
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			mant = mant*10 + uint64(c-'0')
			if mant != 0 {
				digits++
			}
			if frac >= 0 {
				frac++
			}
			continue
		}
		if c == '.' && frac < 0 {
			frac = 0
			continue
		}
		break
	}
	intDigits := i - first
	if frac >= 0 {
		intDigits -= frac + 1
	}
	fast := digits <= 15 && frac != 0 && frac <= 22 && intDigits >= 1 &&
		(b[first] != '0' || intDigits == 1) &&
		(i == len(b) || (b[i] != 'e' && b[i] != 'E'))
	if fast {
		s.i = i
		f := float64(mant)
		if frac > 0 {
			f /= pow10[frac]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	num, ok := s.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
	if err != nil || math.IsInf(f, 0) {
		s.fail("number %s out of range", truncate(string(num), 40))
		return 0, false
	}
	return f, true
}

// int reads an integer that fits in [lo, hi].
func (s *jsonScanner) int(lo, hi int64) (int64, bool) {
	s.ws()
	if m, _, dot, sign, end, ok := shortDecimal(s.b, s.i); ok && !dot {
		v := int64(m) // at most eight digits
		if sign != 0 {
			v = -v
		}
		if lo <= v && v <= hi {
			s.i = end
			return v, true
		}
	}
	num, ok := s.number()
	if !ok {
		return 0, false
	}
	// Sizes and counts are short plain integers: add up the digits directly
	// when there are at most 18 of them (no overflow possible).
	if d := num; len(d) <= 19 {
		neg := d[0] == '-'
		if neg {
			d = d[1:]
		}
		var v int64
		plain := len(d) <= 18
		for _, c := range d {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			v = v*10 + int64(c-'0')
		}
		if plain {
			if neg {
				v = -v
			}
			if v < lo || v > hi {
				s.fail("number %s is out of range", truncate(string(num), 40))
				return 0, false
			}
			return v, true
		}
	}
	v, err := strconv.ParseInt(unsafe.String(&num[0], len(num)), 10, 64)
	if err != nil || v < lo || v > hi {
		s.fail("number %s is not an integer in range", truncate(string(num), 40))
		return 0, false
	}
	return v, true
}

// more reports whether another element of an object or array follows,
// consuming the comma between elements; closing is '}' or ']'.
func (s *jsonScanner) more(closing byte, first *bool) bool {
	if s.err != nil {
		return false
	}
	c := s.peek()
	if c == closing {
		s.i++
		return false
	}
	if !*first {
		if c != ',' {
			s.fail("expected ',' or %q", closing)
			return false
		}
		s.i++
		if s.peek() == closing {
			s.fail("trailing comma")
			return false
		}
	}
	*first = false
	return true
}

// strPool turns decoded bytes into strings without one allocation per
// string: short repeated strings (roots, symbols, C/P) are interned, and the
// rest are copied into large shared blocks that are never written again.
type strPool struct {
	intern map[string]string
	block  []byte
}

const (
	strBlockSize = 64 << 10
	internMax    = 12   // bytes; longer strings are rarely repeated
	internLimit  = 4096 // entries; bounds the map on hostile input
)

func newStrPool() *strPool { return &strPool{intern: make(map[string]string, 64)} }

func (p *strPool) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) <= internMax {
		if s, ok := p.intern[string(b)]; ok {
			return s
		}
		if len(p.intern) < internLimit {
			s := string(b)
			p.intern[s] = s
			return s
		}
	}
	if len(b) > strBlockSize/4 {
		return string(b)
	}
	if cap(p.block)-len(p.block) < len(b) {
		p.block = make([]byte, 0, strBlockSize)
	}
	start := len(p.block)
	p.block = append(p.block, b...)
	return unsafe.String(&p.block[start], len(b))
}
