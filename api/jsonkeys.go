package api

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Finding the field of an object's key. Objects of one array nearly always
// list their members in one order, so object first tries the field after
// the previous one (expectedKey: one comparison, the key is not even
// scanned). When a service shuffles its members or adds ones the table does
// not hold, memberKey finds the field in about the same time: the key's end
// is found eight bytes at a time, and a perfect hash of the struct's names
// gives the one field it can be, confirmed by one comparison.

// expectedKey consumes the key if it is, byte for byte, the name of field
// hint (the one after the previous key), and returns hint; else it consumes
// nothing and returns -1. Field names hold no escapes, so a raw match is an
// exact match; this skips decoding the key in the common case.
func (s *jsonScanner) expectedKey(d *structDesc, hint int) int {
	if hint >= len(d.fields) || s.peek() != '"' {
		return -1
	}
	n := d.fields[hint].name
	j := s.i + 1
	if j+len(n) < len(s.b) && s.b[j+len(n)] == '"' && string(s.b[j:j+len(n)]) == n {
		s.i = j + len(n) + 1
		return hint
	}
	return -1
}

// memberKey consumes a key and returns its field, or -1 for a key the
// table does not hold, with the key itself (for the caller's hook). A
// plain ASCII key (every key a service sends) costs a scan by words and a
// table probe; one with escapes or non-ASCII bytes is decoded by key and
// matched by lookup. ok is false on a syntax error.
func (s *jsonScanner) memberKey(d *structDesc) (i int, key []byte, ok bool) {
	if s.peek() != '"' {
		s.expect('"')
		return -1, nil, false
	}
	start := s.i + 1
	i, n := d.keys.byWords(d.fields, s.b, start)
	if i >= 0 {
		s.i = start + n + 1
		return i, s.b[start : start+n], true
	}
	// A miss by words is final for a plain lower-case key shorter than 24
	// bytes (no name can be it, exactly or folded): a member the table
	// does not know, told without scanning or probing again.
	if n > 0 && n < 24 && d.keys.words != nil && d.lower && plainLower(s.b[start:start+n]) {
		s.i = start + n + 1
		return -1, s.b[start : start+n], true
	}
	if end := plainEnd(s.b, start); end < len(s.b) && s.b[end] == '"' {
		key = s.b[start:end]
		s.i = end + 1
		if i = d.keys.find(d.fields, key); i >= 0 {
			return i, key, true
		}
		if d.lower && !hasUpper(key) {
			return -1, key, true // folds to itself, and that is no name
		}
		return d.lookupFold(key), key, true
	}
	if key, ok = s.key(); !ok {
		return -1, nil, false
	}
	return d.lookup(key), key, true
}

// lookup finds the field for a key by exact name, then case-insensitively
// as encoding/json does.
func (d *structDesc) lookup(key []byte) int {
	if i := d.keys.find(d.fields, key); i >= 0 {
		return i
	}
	return d.lookupFold(key)
}

// lookupFold is the case-insensitive match. An ASCII key folds to one
// lower-case name (the names are ASCII), found in one map lookup without
// allocating; any other key is compared with strings.EqualFold, as
// encoding/json would (the Kelvin sign folds to "k").
func (d *structDesc) lookupFold(key []byte) int {
	var buf [64]byte
	if len(key) <= len(buf) {
		ascii := true
		for i, c := range key {
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		if ascii {
			if i, ok := d.folded[string(buf[:len(key)])]; ok {
				return i
			}
			return -1
		}
	}
	for i := range d.fields {
		if strings.EqualFold(d.fields[i].name, string(key)) {
			return i
		}
	}
	return -1
}

// plainLower reports whether k is ASCII with no upper-case letter and
// nothing a string would unescape.
func plainLower(k []byte) bool {
	for _, c := range k {
		if strClass[c] != 0 || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

func hasUpper(k []byte) bool {
	for _, c := range k {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// index builds the key table and the folded names once the fields are
// known.
func (d *structDesc) index() {
	d.folded = make(map[string]int, len(d.fields))
	d.lower = true
	for i := range d.fields {
		lower := strings.ToLower(d.fields[i].name)
		if !hasKey(d.folded, lower) {
			d.folded[lower] = i // the first field wins, as in byName
		}
		d.lower = d.lower && lower == d.fields[i].name
	}
	d.keys.build(d.fields)
	d.keys.buildWords(d.fields)
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// plainEnd returns the index of the first byte from i on that is a quote,
// a backslash, a control character or not ASCII, or len(b). Eight bytes
// are tested at once: in each of the masks below a byte's top bit is set
// where it matches, and since a borrow only carries upward from a matching
// byte, the lowest set bit is always a true match.
func plainEnd(b []byte, i int) int {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q := w ^ (ones * '"')
		e := w ^ (ones * '\\')
		if m := ((q - ones) &^ q) | ((e - ones) &^ e) | (w - ones*0x20) | w; m&tops != 0 {
			return i + bits.TrailingZeros64(m&tops)/8
		}
	}
	for i < len(b) && strClass[b[i]] == 0 {
		i++
	}
	return i
}

// keyTable finds a field index by a few bytes of a key and its length. A
// struct's names differ in those bytes ("option_bid", "option_ask" and
// "option_mid" at three quarters of their length), so a multiplier is
// searched once per struct that sends every name to its own slot: then
// any key, known or not, costs one probe and at most one comparison. Names
// the bytes cannot tell apart fall back to linear probing.
type keyTable struct {
	slot    [keySlots]int16 // field index + 1; 0 is empty
	mul     uint64
	shift   uint8 // 64 - log2 of the slots in use
	perfect bool

	// words finds a key before its end is known: the names are told
	// apart by their first 16 bytes, read as two words cut at the first
	// quote, so one perfect hash of the two words names the only field
	// the key can be. nil when two names share their first 16 bytes.
	words  []wordsEntry
	wmul   uint64
	wshift uint8
}

// wordsEntry is a name's first 16 bytes as keyWords reads them, and the
// next eight (w2 under m2, the bytes the name has there): names of up to
// 24 bytes are matched by words alone, without a branch on their length.
type wordsEntry struct {
	w0, w1, w2, m2 uint64
	end            int16 // the name's length: where the key's closing quote is
	field          int16 // field index + 1; 0 is empty
	long           bool  // longer than 24 bytes: compare the rest too
}

// keySlots bounds the table; a struct of more than keySlots/2 fields still
// works, by probing.
const keySlots = 256

// keyBits packs a key's length and four of its bytes into one word.
func keyBits(k []byte) uint64 {
	n := len(k)
	if n == 0 {
		return 0
	}
	return uint64(n) | uint64(k[0])<<8 | uint64(k[n-1])<<16 | uint64(k[n/2])<<24 | uint64(k[(n*3)/4])<<32
}

func (t *keyTable) hash(k []byte) uint {
	return uint((keyBits(k)*t.mul)>>t.shift) % keySlots
}

// build finds a perfect multiplier for the names, trying tables from
// twice the fields up to keySlots; the search is deterministic.
func (t *keyTable) build(fields []fieldDesc) {
	seed := uint64(0x9e3779b97f4a7c15)
	for b := bits.Len(uint(len(fields))) + 1; b <= bits.Len(keySlots-1); b++ {
		t.shift = uint8(64 - b)
		for try := 0; try < 4000; try++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			t.mul = seed | 1
			if t.fill(fields) {
				t.perfect = true
				return
			}
		}
	}
	// No perfect multiplier: probe from a plain hash over all the slots.
	t.mul, t.shift, t.perfect = 0x9e3779b97f4a7c15, 64-uint8(bits.Len(keySlots-1)), false
	t.slot = [keySlots]int16{}
	for i := range fields {
		for h, probe := t.hash([]byte(fields[i].name)), uint(0); probe < keySlots; probe++ {
			if j := (h + probe) % keySlots; t.slot[j] == 0 {
				t.slot[j] = int16(i + 1)
				break
			}
		}
	}
}

// keyHead reads the 24 bytes from i (i+24 <= len(b)), a key's first bytes
// after its opening quote: w0 and w1 are the first 16 with every byte from
// the first quote on zeroed (so they depend on the key alone, not on what
// follows it), w2 the next eight as they are, and n the offset of the
// first quote, 24 if there is none. Branch-free: the order of keys in a
// shuffled object is not predictable, and n does not wait on a table.
func keyHead(b []byte, i int) (w0, w1, w2 uint64, n int) {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	w0 = binary.LittleEndian.Uint64(b[i:])
	w1 = binary.LittleEndian.Uint64(b[i+8:])
	w2 = binary.LittleEndian.Uint64(b[i+16:])
	q0, q1, q2 := w0^(ones*'"'), w1^(ones*'"'), w2^(ones*'"')
	m0, m1, m2 := (q0-ones)&^q0&tops, (q1-ones)&^q1&tops, (q2-ones)&^q2&tops
	// The lowest set bit of m is a quote's top bit (see plainEnd); keep
	// the bytes below it.
	w0 &= (m0&-m0)>>7 - 1
	w1 &= (m1&-m1)>>7 - 1
	if m0 != 0 {
		w1 = 0
	}
	// One bit per byte that is a quote, the 24 bytes in a row.
	at := topsToBits(m0) | topsToBits(m1)<<8 | topsToBits(m2)<<16 | 1<<24
	return w0, w1, w2, bits.TrailingZeros32(at)
}

// topsToBits gathers the top bits of m's bytes (the only bits set) into
// the low eight bits, byte j's to bit j.
func topsToBits(m uint64) uint32 {
	return uint32(((m >> 7) * 0x0102040810204080) >> 56)
}

func (t *keyTable) wordsHash(w0, w1 uint64) uint {
	return uint(((w0 ^ bits.RotateLeft64(w1, 31)) * t.wmul) >> t.wshift)
}

// byWords returns the field whose name is the key starting at b[i] (just
// after its opening quote), with the key's length, or -1 when there is
// none or the words cannot tell: the caller then scans the key to its end.
// On a miss n is where the first quote is (24 if not within 24 bytes, 0
// if the words were not read): the key's end, if nothing in it is escaped.
func (t *keyTable) byWords(fields []fieldDesc, b []byte, i int) (field, n int) {
	if t.words == nil || i+24 > len(b) {
		return -1, 0
	}
	w0, w1, w2, n := keyHead(b, i)
	e := &t.words[t.wordsHash(w0, w1)&uint(len(t.words)-1)]
	// The words match the name's first 24 bytes and the key ends where
	// the name does.
	if e.field == 0 || e.w0 != w0 || e.w1 != w1 || e.w2 != w2&e.m2 || int(e.end) != n {
		if !e.long || e.field == 0 || e.w0 != w0 || e.w1 != w1 || e.w2 != w2 {
			return -1, n
		}
		// A name longer than 24 bytes: compare the rest.
		if end := i + int(e.end); end >= len(b) || b[end] != '"' || string(b[i+24:end]) != fields[e.field-1].name[24:] {
			return -1, n
		}
		n = int(e.end)
	}
	return int(e.field - 1), n
}

// buildWords finds a perfect multiplier for the names' words, or leaves
// words nil when two names share their words.
func (t *keyTable) buildWords(fields []fieldDesc) {
	ws := make([]wordsEntry, len(fields))
	for i := range fields {
		n := fields[i].name
		if strings.ContainsAny(n, "\"\\") || len(n) > math.MaxInt16 {
			return // a key matching it would be escaped; let memberKey decode it
		}
		// The name as a key: its closing quote, then anything.
		e := &ws[i]
		var w2 uint64
		e.w0, e.w1, w2, _ = keyHead(append(append([]byte(n), '"'), make([]byte, 24)...), 0)
		for j := 16; j < min(len(n), 24); j++ {
			e.m2 |= 0xff << (8 * (j - 16))
		}
		e.w2 = w2 & e.m2
		e.end, e.field, e.long = int16(len(n)), int16(i+1), len(n) > 24
	}
	seed := uint64(0x2545f4914f6cdd1d)
	for b := bits.Len(uint(len(fields))) + 1; b <= bits.Len(keySlots-1); b++ {
		t.wshift = uint8(64 - b)
		words := make([]wordsEntry, 1<<b)
	try:
		for range 4000 {
			seed = seed*6364136223846793005 + 1442695040888963407
			t.wmul = seed | 1
			clear(words)
			for _, w := range ws {
				e := &words[t.wordsHash(w.w0, w.w1)&uint(len(words)-1)]
				if e.field != 0 {
					continue try
				}
				*e = w
			}
			t.words = words
			return
		}
	}
}

// fill places every name in its own slot, or reports that two collide.
func (t *keyTable) fill(fields []fieldDesc) bool {
	t.slot = [keySlots]int16{}
	for i := range fields {
		h := t.hash([]byte(fields[i].name))
		if t.slot[h] != 0 {
			return false
		}
		t.slot[h] = int16(i + 1)
	}
	return true
}

func (t *keyTable) find(fields []fieldDesc, key []byte) int {
	h := t.hash(key)
	if t.perfect {
		if v := t.slot[h]; v != 0 && fields[v-1].name == string(key) {
			return int(v - 1)
		}
		return -1
	}
	for probe := uint(0); probe < keySlots; probe++ {
		v := t.slot[(h+probe)%keySlots]
		if v == 0 {
			return -1
		}
		if fields[v-1].name == string(key) {
			return int(v - 1)
		}
	}
	return -1
}
