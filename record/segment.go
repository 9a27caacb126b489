package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// entry is an answer frame as read, with where its segment is.
type entry struct {
	meta
	seg string
	seq int // its order in the day's reading: ties of the Date's whole second
}

// bodyLoc is where a body or delta frame's payload is.
type bodyLoc struct {
	seg   string
	off   int64 // of the payload
	size  int64
	crc   uint32
	delta bool
	base  uint64 // a delta's base's hash
}

// scanned is what reading a day's segments found.
type scanned struct {
	answers  []entry
	bodies   map[uint64]bodyLoc
	bytes    int64
	sources  []string // where the segments' answers came from, each once
	problems []string // damaged or cut-off segments, one line each
}

// segments lists a day folder's segment files, oldest first.
func segments(dayDir string) ([]string, error) {
	list, err := os.ReadDir(dayDir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list {
		if !e.IsDir() && strings.HasSuffix(e.Name(), segmentExt) {
			out = append(out, filepath.Join(dayDir, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// scanDay reads every segment of a day folder: the answers in full, the
// bodies' places only.
func scanDay(dayDir string) (scanned, error) {
	s := scanned{bodies: map[uint64]bodyLoc{}}
	segs, err := segments(dayDir)
	if err != nil {
		return s, err
	}
	for _, p := range segs {
		if err := s.scanSegment(p); err != nil {
			s.problems = append(s.problems, fmt.Sprintf("%s: %v; skipped", filepath.Base(p), err))
		}
	}
	if n := s.unrooted(); n > 0 {
		s.problems = append(s.problems, fmt.Sprintf("%d deltas rest on a body that is damaged or missing; their answers give way to the ones before them", n))
	}
	return s, nil
}

// unrooted counts the deltas that do not lead back to a whole body (a
// base lost to damage), each once.
func (s *scanned) unrooted() int {
	rooted := map[uint64]bool{} // settled: whether it leads to a whole body
	n := 0
	for hash, loc := range s.bodies {
		if !loc.delta {
			continue
		}
		var path []uint64
		ok, h := false, hash
		for depth := 0; ; depth++ {
			if r, settled := rooted[h]; settled {
				ok = r
				break
			}
			l, found := s.bodies[h]
			if !found || depth > maxDepth {
				break
			}
			if !l.delta {
				ok = true
				break
			}
			path = append(path, h)
			h = l.base
		}
		for _, p := range path {
			if _, settled := rooted[p]; !settled {
				rooted[p] = ok
				if !ok {
					n++
				}
			}
		}
	}
	return n
}

// scanSegment reads one segment. A frame that does not check out is
// reported, and reading goes on at the next magic; a frame cut off at the
// end (a process killed mid-write, a full disk) ends it.
func (s *scanned) scanSegment(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	end := fi.Size()
	s.bytes += end
	name := filepath.Base(path)
	var hb [headerSize + deltaHead]byte
	for off := int64(0); off < end; {
		n, _ := f.ReadAt(hb[:], off)
		h, ok := parseHeader(hb[:n])
		if ok && off+headerSize+h.size > end {
			s.problems = append(s.problems, fmt.Sprintf("%s: cut off at byte %d; the answers before it replay", name, off))
			return nil
		}
		if ok && (h.kind == kindBody || h.kind == kindDelta) {
			hash := binary.LittleEndian.Uint64(hb[headerSize:])
			if _, dup := s.bodies[hash]; !dup {
				loc := bodyLoc{seg: path, off: off + headerSize, size: h.size, crc: h.crc, delta: h.kind == kindDelta}
				if loc.delta {
					loc.base = binary.LittleEndian.Uint64(hb[headerSize+8:])
				}
				s.bodies[hash] = loc
			}
			off += headerSize + h.size
			continue
		}
		if ok {
			payload := make([]byte, h.size)
			if _, err := f.ReadAt(payload, off+headerSize); err == nil && crc32.Checksum(payload, castagnoli) == h.crc {
				if h.kind == kindSource {
					var src sourceMeta
					if json.Unmarshal(payload, &src) == nil {
						if !slices.Contains(s.sources, src.Source) {
							s.sources = append(s.sources, src.Source)
						}
						off += headerSize + h.size
						continue
					}
				}
				var m meta
				if h.kind == kindAnswer && json.Unmarshal(payload, &m) == nil {
					s.answers = append(s.answers, entry{meta: m, seg: path, seq: len(s.answers)})
					off += headerSize + h.size
					continue
				}
			}
		}
		next, found := nextMagic(f, off+1, end)
		if !found {
			s.problems = append(s.problems, fmt.Sprintf("%s: damaged from byte %d to its end; skipped", name, off))
			return nil
		}
		s.problems = append(s.problems, fmt.Sprintf("%s: damaged from byte %d to %d; skipped", name, off, next))
		off = next
	}
	return nil
}

// nextMagic finds the next frame start at or after from.
func nextMagic(f io.ReaderAt, from, end int64) (int64, bool) {
	buf := make([]byte, 64<<10)
	for from < end {
		n, err := f.ReadAt(buf, from)
		if n <= 0 {
			return 0, false
		}
		if i := bytes.Index(buf[:n], []byte(magic)); i >= 0 {
			return from + int64(i), true
		}
		if errors.Is(err, io.EOF) || n < len(magic) {
			return 0, false
		}
		from += int64(n - len(magic) + 1)
	}
	return 0, false
}
