package record

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// A delta is a body written as the change from the previous body of the
// same request: a program of (copy, skip, insert) steps over the base and
// the inserted bytes. A chain's tick changes most quotes and greeks but
// few of the bytes around them (keys, symbols, strikes, expiries, open
// interest), so the program and its inserts are a fraction of the body
// and only they are compressed (BenchmarkSPYRefresh).
//
// The diff is a single forward walk, no search: the common run is found
// eight bytes at a time; at the first difference both sides go on to the
// end of their token (the next , : { } [ ]), the bytes the tokens still
// share at their end are left to the next copy, and the rest is a skip
// over the base and an insert. Bodies of one request keep their shape
// from answer to answer; when they do not (a contract listed or gone, so
// the tokens no longer line up), the inserts grow, diff gives up past
// half the body and the body is written whole.

// isDelim marks the bytes that end a token.
var isDelim = func() (t [256]bool) {
	for _, c := range []byte(",:{}[]") {
		t[c] = true
	}
	return t
}()

// diff appends to ops the steps that make cur from base, and to ins the
// inserted bytes; ok is false when the inserts passed half of cur.
func diff(base, cur, ops, ins []byte) (_, _ []byte, ok bool) {
	limit := len(ins) + len(cur)/2
	i, j := 0, 0
	for {
		n := commonPrefix(base[i:], cur[j:])
		i += n
		j += n
		if j == len(cur) {
			ops = appendStep(ops, n, len(base)-i, 0)
			return ops, ins, true
		}
		je := j
		for je < len(cur) && !isDelim[cur[je]] {
			je++
		}
		// Most figures keep their length: when the base has the same
		// delimiter as far on and the same eight bytes after it (the
		// next key), its token is taken to end there too. Were that
		// wrong, the steps would still be right, only longer.
		ie := i + je - j
		if ie+9 > len(base) || je+9 > len(cur) || base[ie] != cur[je] ||
			binary.LittleEndian.Uint64(base[ie+1:]) != binary.LittleEndian.Uint64(cur[je+1:]) {
			for ie = i; ie < len(base) && !isDelim[base[ie]]; ie++ {
			}
		}
		for ie > i && je > j && base[ie-1] == cur[je-1] {
			ie--
			je--
		}
		if ie == i && je == j { // two different delimiters
			je = j + 1
			if i < len(base) {
				ie = i + 1
			}
		}
		if skip, insert := ie-i, je-j; n < 0x80 && skip < 15 && insert < 16 {
			ops = append(ops, byte(n), byte(skip<<4|insert)) // appendStep's usual case
		} else {
			ops = appendStep(ops, n, skip, insert)
		}
		ins = append(ins, cur[j:je]...)
		if len(ins) > limit {
			return ops, ins, false
		}
		i, j = ie, je
	}
}

// appendStep appends a step: the copy's length, then skip and insert in
// one byte's halves when skip is under 15 and insert under 16 (nearly
// every step of a chain), else 0xF0 and both as varints.
func appendStep(ops []byte, copyN, skip, insert int) []byte {
	if copyN < 0x80 {
		ops = append(ops, byte(copyN))
	} else {
		ops = binary.AppendUvarint(ops, uint64(copyN))
	}
	if skip < 15 && insert < 16 {
		return append(ops, byte(skip<<4|insert))
	}
	ops = append(ops, 0xF0)
	ops = binary.AppendUvarint(ops, uint64(skip))
	return binary.AppendUvarint(ops, uint64(insert))
}

// readStep reads a step appendStep wrote.
func readStep(ops []byte) (copyN, skip, insert uint64, rest []byte, ok bool) {
	copyN, n := binary.Uvarint(ops)
	if n <= 0 || n >= len(ops) {
		return 0, 0, 0, nil, false
	}
	b, ops := ops[n], ops[n+1:]
	if b>>4 != 15 {
		return copyN, uint64(b >> 4), uint64(b & 15), ops, true
	}
	if skip, n = binary.Uvarint(ops); n <= 0 {
		return 0, 0, 0, nil, false
	}
	ops = ops[n:]
	if insert, n = binary.Uvarint(ops); n <= 0 {
		return 0, 0, 0, nil, false
	}
	return copyN, skip, insert, ops[n:], true
}

// commonPrefix is the length of the run a and b start with.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	for len(a) >= 16 && len(b) >= 16 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)
		y := binary.LittleEndian.Uint64(a[8:]) ^ binary.LittleEndian.Uint64(b[8:])
		if x|y != 0 {
			if x != 0 {
				return n - len(a) + bits.TrailingZeros64(x)/8
			}
			return n - len(a) + 8 + bits.TrailingZeros64(y)/8
		}
		a, b = a[16:], b[16:]
	}
	for len(a) >= 8 && len(b) >= 8 {
		if x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b); x != 0 {
			return n - len(a) + bits.TrailingZeros64(x)/8
		}
		a, b = a[8:], b[8:]
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return n - len(a) + i
}

var errDelta = errors.New("its delta does not fit its base")

// patch appends to dst the body that ops and ins make from base; a step
// past the base or the inserts is damage.
func patch(dst, base, ops, ins []byte) ([]byte, error) {
	i := 0
	for len(ops) > 0 {
		copyN, skip, insert, rest, ok := readStep(ops)
		if !ok {
			return nil, errDelta
		}
		ops = rest
		if copyN > uint64(len(base)-i) {
			return nil, errDelta
		}
		dst = append(dst, base[i:i+int(copyN)]...)
		i += int(copyN)
		if skip > uint64(len(base)-i) || insert > uint64(len(ins)) {
			return nil, errDelta
		}
		i += int(skip)
		dst = append(dst, ins[:insert]...)
		ins = ins[insert:]
	}
	if i != len(base) || len(ins) != 0 {
		return nil, errDelta
	}
	return dst, nil
}
