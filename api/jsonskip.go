package api

import "fmt"

// Skipping the value of a member the struct does not know. Nothing is
// decoded, yet the value is held to the whole grammar, so that a body is
// valid or invalid exactly as encoding/json says whatever its unknown
// members hold. Every step works on a local index and returns the index
// after what it read, or where it went wrong and why (the scanner's state
// is written once, at the end): an index in a register and no call per
// token is most of what makes skipping cheap.

// maxDepth bounds the nesting skip follows, as encoding/json does: a body
// of a million '[' must be an error, not a stack overflow that kills the
// program.
const maxDepth = 10000

// skip consumes any value (an unknown key's), nested up to maxDepth.
func (s *jsonScanner) skip() {
	s.ws()
	s.done(valueEnd(s.b, s.i))
}

// skipMember consumes the ':' and the value of a member the table does not
// hold. The compact form, the value right after the ':', is tested first.
func (s *jsonScanner) skipMember() {
	b, i := s.b, s.i
	if i >= len(b) || b[i] != ':' {
		i = spaceEnd(b, i)
		if i >= len(b) || b[i] != ':' {
			s.i = i
			s.expect(':')
			return
		}
	}
	i++
	if i < len(b) && b[i] <= ' ' {
		i = spaceEnd(b, i)
	}
	if i >= len(b) {
		s.done(i, "unexpected end of input")
		return
	}
	// What valueEnd does, with the common scalars read inline.
	switch c := b[i]; {
	case c == '"':
		if j := shortStrEnd(b, i); j >= 0 {
			s.i = j
			return
		}
		s.done(strEnd(b, i))
	case c == '{' || c == '[':
		s.done(nestedEnd(b, i, 0))
	case c == 'n' && hasWord(b[i:], "null"), c == 't' && hasWord(b[i:], "true"):
		s.i = i + 4
	default:
		s.done(scalarEnd(b, i))
	}
}

// done moves the scanner to end, failing there with bad unless it is "".
func (s *jsonScanner) done(end int, bad string) {
	s.i = end
	if bad != "" {
		s.fail("%s", bad)
	}
}

// valueEnd returns the index after the value that starts at b[i], or
// where it goes wrong and why.
func valueEnd(b []byte, i int) (int, string) {
	if i >= len(b) {
		return i, "unexpected end of input"
	}
	switch b[i] {
	case '"':
		return strEnd(b, i)
	case '{', '[':
		return nestedEnd(b, i, 0)
	}
	return scalarEnd(b, i)
}

// nestedEnd returns the index after the object or array that opens at
// b[i] (depth containers around it), or where it goes wrong and why. It
// is one loop over a local index instead of a call per value, with the
// grammar's states as labels: whitespace costs one comparison where there
// is none, and a container's kind is one bit of a word. A container more
// than 64 levels below the first is read by a call to nestedEnd, so the
// word suffices and the depth limit still holds.
func nestedEnd(b []byte, i, outer int) (int, string) {
	var (
		objects uint64 // bit d-1: the container at depth d is an object
		depth   int    // containers open in this call
		closing byte   // the innermost open container's closing byte
		c       byte   // b[i], or 0 at the end
		bad     string
	)
	c = b[i]
open: // c = b[i] opens a container
	if depth == 64 {
		if i, bad = nestedEnd(b, i, outer+depth); bad != "" {
			return i, bad
		}
		goto after
	}
	if outer+depth >= maxDepth {
		return i, fmt.Sprintf("value nested deeper than %d levels", maxDepth)
	}
	objects = objects&^(1<<depth) | uint64(c>>5&1)<<depth // '{' 0x7b, '[' 0x5b
	depth++
	closing = c + 2 // '}' 0x7d, ']' 0x5d
	if c = 0; i+1 < len(b) {
		c = b[i+1]
	}
	if i++; c <= ' ' {
		i, c = nonSpace(b, i)
	}
	if c == closing { // empty
		i++
		goto closed
	}
	if closing == ']' {
		goto value
	}
key: // c = b[i] must open an object's key
	if c != '"' {
		return i, unexpected(b, i, "'\"'")
	}
	if j := shortStrEnd(b, i); j >= 0 {
		i = j
	} else if i, bad = strEnd(b, i); bad != "" {
		return i, bad
	}
	if i >= len(b) || b[i] != ':' {
		if i = spaceEnd(b, i); i >= len(b) || b[i] != ':' {
			return i, unexpected(b, i, "':'")
		}
	}
	if c = 0; i+1 < len(b) {
		c = b[i+1]
	}
	if i++; c <= ' ' {
		i, c = nonSpace(b, i)
	}
value: // c = b[i] must start a value
	// The common values are read here, without a call: short strings,
	// plain integers and literals.
	switch {
	case c == '"':
		if j := shortStrEnd(b, i); j >= 0 {
			i = j
			goto after
		}
		i, bad = strEnd(b, i)
	case c == '{' || c == '[':
		goto open
	case c-'1' < 9:
		if j := digitsEnd(b, i+1); j < len(b) && b[j] != '.' && b[j]|0x20 != 'e' {
			i = j
			goto after
		}
		i, bad = numEnd(b, i)
	case c == 'n' && hasWord(b[i:], "null"), c == 't' && hasWord(b[i:], "true"):
		i += 4
		goto after
	default:
		i, bad = scalarEnd(b, i)
	}
	if bad != "" {
		return i, bad
	}
after: // a value ended: ',' or the closing byte
	if c = 0; i < len(b) {
		c = b[i]
	}
	if c <= ' ' {
		i, c = nonSpace(b, i)
	}
	if c == ',' {
		if c = 0; i+1 < len(b) {
			c = b[i+1]
		}
		if i++; c <= ' ' {
			i, c = nonSpace(b, i)
		}
		if closing == ']' {
			goto value
		}
		goto key
	}
	if c != closing {
		return i, unexpected(b, i, fmt.Sprintf("',' or %q", closing))
	}
	i++
closed: // a container closed before i
	if depth--; depth == 0 {
		return i, ""
	}
	closing = ']' | byte(objects>>(depth-1)&1)<<5
	goto after
}

// nonSpace returns the index of the first byte from i on that is not
// white space, with that byte, or 0 at the end. It is spaceEnd with the
// byte, as its own loop: through spaceEnd, skipping spaced objects took
// 5 % longer.
func nonSpace(b []byte, i int) (int, byte) {
	for ; i < len(b); i++ {
		if c := b[i]; !isSpace(c) {
			return i, c
		}
	}
	return i, 0
}

// unexpected says what was found at b[i] where want should have come: the
// error path only, so it may take its time.
func unexpected(b []byte, i int, want string) string {
	if i >= len(b) {
		return "expected " + want + ", found end of input"
	}
	j := i - 1
	for j > 0 && isSpace(b[j]) {
		j--
	}
	if j >= 0 && b[j] == ',' && (b[i] == '}' || b[i] == ']') {
		return "trailing comma"
	}
	return fmt.Sprintf("expected %s, found %q", want, b[i])
}
