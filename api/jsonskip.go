package api

// maxDepth bounds the nesting skip follows, as encoding/json does: a body
// of a million '[' must be an error, not a stack overflow that kills the
// program.
const maxDepth = 10000

// skip consumes any value (an unknown key's), nested up to maxDepth.
func (s *jsonScanner) skip() {
	switch s.peek() {
	case '"':
		s.skipStr()
	case '{', '[':
		if s.depth++; s.depth > maxDepth {
			s.fail("value nested deeper than %d levels", maxDepth)
			return
		}
		s.skipNested()
		s.depth--
	case 't':
		if !s.literal("true") {
			s.fail("invalid literal")
		}
	case 'f':
		if !s.literal("false") {
			s.fail("invalid literal")
		}
	case 'n':
		if !s.literal("null") {
			s.fail("invalid literal")
		}
	default:
		s.number()
	}
}

// skipMember consumes the ':' and the value of a member the table does not
// hold. Scalars, the usual case, are read on a local index in one call;
// anything else goes through skip.
func (s *jsonScanner) skipMember() {
	b, i := s.b, s.i
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != ':' {
		s.i = i
		s.expect(':')
		return
	}
	for i++; i < len(b) && isSpace(b[i]); i++ {
	}
	if i < len(b) && b[i] == '"' {
		end, bad := strEnd(b, i)
		if s.i = end; bad != "" {
			s.fail("%s", bad)
		}
		return
	}
	if end := scalarEnd(b, i); end > i {
		s.i = end
		return
	}
	s.i = i
	s.skip()
}

// scalarEnd returns the index after the literal or short plain number at
// b[i], or i when there is none (a string, a container, a long number, an
// error): those the caller reads the careful way.
func scalarEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch c := b[i]; {
	case c == 'n' && hasWord(b[i:], "null"), c == 't' && hasWord(b[i:], "true"):
		return i + 4
	case c == 'f' && hasWord(b[i:], "false"):
		return i + 5
	case c == '-' || c-'0' < 10:
		if _, _, _, _, end, ok := shortDecimal(b, i); ok {
			return end
		}
	}
	return i
}

func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\n' || c == '\t' || c == '\r') }

func hasWord(b []byte, w string) bool { return len(b) >= len(w) && string(b[:len(w)]) == w }

// skipStr consumes the string that starts at s.i without decoding it:
// nothing is copied and nothing allocated, yet it refuses what str
// refuses (control characters, bad escapes, no closing quote), so a body
// is valid or not whatever its unknown members are.
func (s *jsonScanner) skipStr() {
	if end, bad := strEnd(s.b, s.i); bad == "" {
		s.i = end
	} else {
		s.i = end
		s.fail("%s", bad)
	}
}

// strEnd returns the index after the string that opens at b[i], or where
// it goes wrong and why. It works on a local index (no scanner state) so
// that skipNested keeps its position in a register.
func strEnd(b []byte, i int) (int, string) {
	for i++; i < len(b); i++ {
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

// skipClass sorts bytes for skipStr: 0 plain (any byte from 0x20 up, since
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

// skipNested consumes the object or array whose opening byte is next,
// held to the grammar as decoding is, in one loop over a local index
// instead of a call per value: a container's kind is one bit of a word. A
// container more than 64 levels below the first goes through skip, so the
// depth limit holds.
func (s *jsonScanner) skipNested() {
	const (
		value = iota // a value must come: the first, after ':' or an array's ','
		first        // a container just opened: its closing byte or a member
		key          // an object's key must come, after ','
		after        // a member ended: ',' or the closing byte
	)
	b, i := s.b, s.i
	var objects uint64 // bit d-1: the container at depth d is an object
	depth, state := 0, value
	for {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		var c byte
		if i < len(b) {
			c = b[i]
		}
		if state == first || state == after {
			closing := byte(']')
			if objects>>(depth-1)&1 == 1 {
				closing = '}'
			}
			if c == closing {
				i++
				if depth--; depth == 0 {
					s.i = i
					return
				}
				state = after
				continue
			}
			if state == first {
				state = value
			} else if c != ',' {
				s.i = i
				s.fail("expected ',' or %q", closing)
				return
			} else {
				i++
				state = value
				if s.i = i; s.peek() == closing {
					s.fail("trailing comma")
					return
				}
				i = s.i
				c = 0
				if i < len(b) {
					c = b[i]
				}
			}
			if closing == '}' {
				// A key, then ':'.
				if c != '"' {
					s.i = i
					s.expect('"') // fails with what str would say
					return
				}
				end, bad := strEnd(b, i)
				if s.i = end; bad != "" {
					s.fail("%s", bad)
					return
				}
				if !s.expect(':') {
					return
				}
				s.ws()
				if i = s.i; i >= len(b) {
					s.fail("unexpected end of input")
					return
				}
				c = b[i]
			}
		}
		switch c {
		case '{', '[':
			if depth == 64 {
				s.i, s.depth = i, s.depth+depth-1
				s.skip()
				i, s.depth = s.i, s.depth-(depth-1)
				if s.err != nil {
					return
				}
				state = after
				continue
			}
			if s.depth+depth > maxDepth { // s.depth counts the first container
				s.i = i
				s.fail("value nested deeper than %d levels", maxDepth)
				return
			}
			objects &^= 1 << depth
			if c == '{' {
				objects |= 1 << depth
			}
			depth++
			i++
			state = first
		case '"':
			end, bad := strEnd(b, i)
			if i = end; bad != "" {
				s.i = i
				s.fail("%s", bad)
				return
			}
			state = after
		default:
			if end := scalarEnd(b, i); end > i {
				i, state = end, after
				continue
			}
			s.i = i
			s.skip() // a long number, or an error to report
			if i = s.i; s.err != nil {
				return
			}
			state = after
		}
	}
}
