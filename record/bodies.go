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
	return d.load(m.Body, m.Size, 0)
}

// load reads the body of hash: from the cache, or its frame (a delta on
// its base, read first). A body that does not read back is remembered,
// so the deltas on it fail at once.
func (d *Day) load(hash uint64, size, depth int) ([]byte, error) {
	for _, c := range d.cache {
		if c.hash == hash {
			return c.body, nil
		}
	}
	if err, ok := d.bad[hash]; ok {
		return nil, err
	}
	body, err := d.read(hash, size, depth)
	if err != nil {
		d.bad[hash] = err
		return nil, err
	}
	d.cache = append(d.cache, readBody{hash, body})
	for n := len(d.cache); n > 1; n-- {
		total := 0
		for _, c := range d.cache {
			total += len(c.body)
		}
		if n <= cacheBodies && total <= cacheBytes {
			break
		}
		d.cache[0] = readBody{}
		d.cache = d.cache[1:]
	}
	return body, nil
}

func (d *Day) read(hash uint64, size, depth int) ([]byte, error) {
	loc, ok := d.bodies[hash]
	if !ok {
		return nil, errors.New("its body is not in the recording")
	}
	if depth > maxDepth {
		return nil, errors.New("its body's deltas go round")
	}
	var base []byte
	if loc.delta {
		var err error
		if base, err = d.load(loc.base, 0, depth+1); err != nil {
			return nil, fmt.Errorf("the body its delta is on: %w", err)
		}
	}
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
	body, err := patch(make([]byte, 0, min(int(binary.LittleEndian.Uint32(payload[16:])), maxFrame)), base, ops, ins)
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
