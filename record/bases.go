package record

import (
	"encoding/binary"
	"slices"

	"github.com/klauspost/compress/s2"
)

const (
	// keyEvery: every keyEvery-th body of a request is written whole, so
	// reading one back patches at most keyEvery-1 deltas (BenchmarkSeekSPY).
	keyEvery = 64
	// maxDepth bounds the deltas a reader follows to a whole body: more
	// is damage (a loop of bases).
	maxDepth = 1024
	// minDelta: a smaller body is written whole; its delta would save
	// little, and keeping it as a base would cost a slot.
	minDelta = 16 << 10
	// maxBases and maxBaseBytes bound the bodies kept as bases: the
	// latest requests' (a screen's chain, its expiries, the tape's page).
	maxBases     = 8
	maxBaseBytes = 64 << 20
)

// base is the last body written for a request.
type base struct {
	key   string
	hash  uint64
	body  []byte // the client's own: it never writes a body it handed over
	depth int    // deltas between it and a whole body
}

// bases are the bases of the latest requests with large bodies, oldest
// first.
type bases struct {
	list  []base
	bytes int
}

func (b *bases) get(key string) (base, bool) {
	for _, x := range b.list {
		if x.key == key {
			return x, true
		}
	}
	return base{}, false
}

// put makes x its request's base, letting go of the oldest past the
// bounds.
func (b *bases) put(x base) {
	if i := slices.IndexFunc(b.list, func(y base) bool { return y.key == x.key }); i >= 0 {
		b.bytes -= len(b.list[i].body)
		b.list = slices.Delete(b.list, i, i+1)
	}
	b.list = append(b.list, x)
	b.bytes += len(x.body)
	for len(b.list) > 1 && (len(b.list) > maxBases || b.bytes > maxBaseBytes) {
		b.bytes -= len(b.list[0].body)
		b.list[0] = base{}
		b.list = b.list[1:]
	}
}

func (b *bases) reset() { clear(b.list); b.list, b.bytes = b.list[:0], 0 }

// appendBody appends to r.buf the frame of a body not yet in the
// segment: a delta from its request's base when there is one close
// enough to a whole body and the two line up, else the body whole. It
// returns the body's depth.
func (r *Recorder) appendBody(key string, hash uint64, body []byte) int {
	if b, ok := r.bases.get(key); ok && b.depth+1 < r.keyEvery && len(body) >= minDelta {
		var fits bool
		if r.ops, r.ins, fits = diff(b.body, body, r.ops[:0], r.ins[:0]); fits {
			// The steps repeat from contract to contract, which S2 finds
			// at little cost; the inserts are new figures, which only an
			// entropy coder shrinks: zstd.
			if n := s2.MaxEncodedLen(len(r.ops)); cap(r.packed) < n {
				r.packed = make([]byte, n)
			}
			ops := s2.Encode(r.packed[:cap(r.packed)], r.ops)
			r.packedIns = r.enc.EncodeAll(r.ins, r.packedIns[:0])
			var head [deltaHead + binary.MaxVarintLen64]byte
			binary.LittleEndian.PutUint64(head[0:], hash)
			binary.LittleEndian.PutUint64(head[8:], b.hash)
			binary.LittleEndian.PutUint32(head[16:], uint32(len(body)))
			h := binary.AppendUvarint(head[:deltaHead], uint64(len(ops)))
			r.buf = appendFrame(r.buf, kindDelta, h, ops, r.packedIns)
			return b.depth + 1
		}
	}
	var head [8]byte
	binary.LittleEndian.PutUint64(head[:], hash)
	r.packed = r.enc.EncodeAll(body, r.packed[:0])
	r.buf = appendFrame(r.buf, kindBody, head[:], r.packed)
	return 0
}
