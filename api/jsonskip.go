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

// skipStr consumes the string that starts at s.i without decoding it:
// nothing is copied and nothing allocated, yet it refuses what str
// refuses (control characters, bad escapes, no closing quote), so a body
// is valid or not whatever its unknown members are.
func (s *jsonScanner) skipStr() {
	b := s.b
	for i := s.i + 1; i < len(b); i++ {
		switch skipClass[b[i]] {
		case 0:
			continue
		case 1:
			s.i = i + 1
			return
		case 2: // backslash
			if i+1 >= len(b) {
				s.i = len(b)
				s.fail("unterminated string")
				return
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
				s.i = i + 2
				s.fail("invalid \\u escape")
				return
			}
			s.i = i
			s.fail("invalid escape \\%c", b[i+1])
			return
		default:
			s.i = i
			s.fail("control character in string")
			return
		}
	}
	s.i = len(b)
	s.fail("unterminated string")
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
// held to the grammar as decoding is, in one loop instead of a call per
// value: a container's kind is one bit of a word. A container more than
// 64 levels below the first goes through skip, so the depth limit holds.
func (s *jsonScanner) skipNested() {
	const (
		value = iota // a value must come: the first, after ':' or an array's ','
		first        // a container just opened: its closing byte or a member
		key          // an object's key must come, after ','
		after        // a member ended: ',' or the closing byte
	)
	var objects uint64 // bit d-1: the container at depth d is an object
	depth, state := 0, value
	for s.err == nil {
		c := s.peek()
		if state == first || state == after {
			closing := byte(']')
			if objects>>(depth-1)&1 == 1 {
				closing = '}'
			}
			if c == closing {
				s.i++
				if depth--; depth == 0 {
					return
				}
				state = after
				continue
			}
			if state == after {
				if c != ',' {
					s.fail("expected ',' or %q", closing)
					return
				}
				s.i++
				if c = s.peek(); c == closing {
					s.fail("trailing comma")
					return
				}
			}
			state = value
			if closing == '}' {
				state = key
			}
		}
		if state == key {
			if c != '"' {
				s.expect('"') // fails with what str would say
				return
			}
			s.skipStr()
			if !s.expect(':') {
				return
			}
			c = s.peek()
		}
		switch c {
		case '{', '[':
			if depth == 64 {
				s.depth += depth - 1
				s.skip()
				s.depth -= depth - 1
				state = after
				continue
			}
			if s.depth+depth > maxDepth { // s.depth counts the first container
				s.fail("value nested deeper than %d levels", maxDepth)
				return
			}
			objects &^= 1 << depth
			if c == '{' {
				objects |= 1 << depth
			}
			depth++
			s.i++
			state = first
		case '"':
			s.skipStr()
			state = after
		default:
			s.skip()
			state = after
		}
	}
}
