package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/s2"
)

// cacheBodies and cacheBytes bound the bodies a Day keeps read: a replay
// moving on reads each delta on the body before it, kept here.
const (
	cacheBodies = 4
	cacheBytes  = 64 << 20
)

// readBody is a body read back.
type readBody struct {
	hash uint64
	body []byte
}

// body reads and checks the body an answer names.
func (d *Day) body(m meta) ([]byte, error) {
	if m.Size == 0 {
		return nil, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.load(m.Body, m.Size)
}

// load reads the body of hash: from the cache, or from the frames on
// the way to it from the nearest body read or whole (each delta patched
// on the one before, in scratch buffers but the last). A body that does
// not read back is remembered with the deltas on it, so they fail at
// once next time.
func (d *Day) load(hash uint64, size int) ([]byte, error) {
	var path []uint64 // hash, its base, ... up to one that is kept or whole
	var body []byte
	for h := hash; ; {
		if err, ok := d.bad[h]; ok {
			return nil, d.fail(path, err)
		}
		if b, ok := d.cached(h); ok {
			body = b
			break
		}
		loc, ok := d.bodies[h]
		if !ok {
			return nil, d.fail(append(path, h), errors.New("its body is not in the recording"))
		}
		if len(path) > maxDepth {
			return nil, d.fail(path, errors.New("its body's deltas go round"))
		}
		path = append(path, h)
		if !loc.delta {
			break
		}
		h = loc.base
	}
	var scratch [2][]byte
	for k := len(path) - 1; k >= 0; k-- {
		var dst []byte
		if k > 0 {
			dst = scratch[k%2][:0]
		}
		next, err := d.read(path[k], body, dst, size)
		if err != nil {
			return nil, d.fail(path[:k+1], err)
		}
		if k > 0 {
			scratch[k%2] = next
		}
		body = next
	}
	d.keep(hash, body)
	return body, nil
}

// fail remembers err for every body of path.
func (d *Day) fail(path []uint64, err error) error {
	for _, h := range path {
		d.bad[h] = err
	}
	return err
}

func (d *Day) cached(hash uint64) ([]byte, bool) {
	for _, c := range d.cache {
		if c.hash == hash {
			return c.body, true
		}
	}
	return nil, false
}

// keep adds a body read to the cache, the oldest going past its bounds.
func (d *Day) keep(hash uint64, body []byte) {
	if _, ok := d.cached(hash); ok {
		return
	}
	d.cache = append(d.cache, readBody{hash, body})
	total := 0
	for _, c := range d.cache {
		total += len(c.body)
	}
	for len(d.cache) > 1 && (len(d.cache) > cacheBodies || total > cacheBytes) {
		total -= len(d.cache[0].body)
		d.cache[0] = readBody{}
		d.cache = d.cache[1:]
	}
}

// read reads the frame of hash: a whole body, or a delta patched on base
// into dst (nil: a new buffer). size is the body's length when known.
func (d *Day) read(hash uint64, base, dst []byte, size int) ([]byte, error) {
	loc := d.bodies[hash]
	payload, err := readPayload(loc)
	if err != nil {
		return nil, err
	}
	if !loc.delta {
		return d.dec.DecodeAll(payload[8:], make([]byte, 0, size))
	}
	rest := payload[deltaHead:]
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)-k) {
		return nil, errDelta
	}
	ops, err := s2.Decode(nil, rest[k:k+int(n)])
	if err != nil {
		return nil, fmt.Errorf("its delta: %w", err)
	}
	ins, err := d.dec.DecodeAll(rest[k+int(n):], nil)
	if err != nil {
		return nil, fmt.Errorf("its delta: %w", err)
	}
	if dst == nil {
		dst = make([]byte, 0, min(int(binary.LittleEndian.Uint32(payload[16:])), maxFrame))
	}
	body, err := patch(dst, base, ops, ins)
	if err != nil {
		return nil, err
	}
	if xxhash.Sum64(body) != hash {
		return nil, errDelta
	}
	return body, nil
}

// readPayload reads a body frame's payload and checks its CRC.
func readPayload(loc bodyLoc) ([]byte, error) {
	f, err := os.Open(loc.seg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	payload := make([]byte, loc.size)
	if _, err := f.ReadAt(payload, loc.off); err != nil {
		return nil, err
	}
	if crc32.Checksum(payload, castagnoli) != loc.crc {
		return nil, errors.New("its body is damaged")
	}
	return payload, nil
}
