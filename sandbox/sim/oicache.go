package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"chainwatch/api"
)

// A day's start-of-day open interest needs the whole previous day's
// trades (daystate.go), the largest part of a process's first chain, and
// it never changes during the day. A short-lived process (chainwatch's
// embedded sandbox, started for each command) keeps it in a file of the
// cache directory, one per symbol and day, so the next process reads it
// instead of drawing yesterday again.
//
// The simulation is a pure function of the reference data compiled into
// the binary, so a file is trusted only when it was written by the very
// binary that reads it (its path, size and modification time, hashed):
// a rebuilt or upgraded binary recomputes instead of serving a stale
// figure. A file that cannot be read, is damaged (its checksum) or names
// another binary, symbol, day or listing size is ignored, computed afresh
// and rewritten: the cache only ever saves time.

// oiMagic starts every file; the digit is the format's version.
const oiMagic = "chainwatch-oi 1\n"

// oiMaxAge is how long a file unused (not rewritten) stays: the first
// write of a process removes older ones, so that days of running do not
// leave a file per symbol and day for ever.
const oiMaxAge = 14 * 24 * time.Hour

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// binaryID names the running binary; nil when it cannot be told, and then
// nothing is cached.
var binaryID = sync.OnceValue(func() []byte {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return nil
	}
	h := sha256.New()
	h.Write([]byte(exe))
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)))
	return h.Sum(nil)
})

// oiCache is the directory of open interest files; the zero value (no
// directory) keeps nothing.
type oiCache struct {
	dir    string
	pruned sync.Once
}

func (c *oiCache) path(sym string, date api.Date) string {
	return filepath.Join(c.dir, "oi-"+url.PathEscape(sym)+"-"+date.String())
}

// header is what a file of sym's day, written by this binary, starts with.
func (c *oiCache) header(sym string, date api.Date, n int) []byte {
	b := append([]byte(oiMagic), binaryID()...)
	b = binary.AppendUvarint(b, uint64(len(sym)))
	b = append(b, sym...)
	b = binary.BigEndian.AppendUint32(b, uint32(date))
	return binary.AppendUvarint(b, uint64(n))
}

// load returns the n open interests of sym's day from its file, if one
// this binary wrote is there whole.
func (c *oiCache) load(sym string, date api.Date, n int) ([]int64, bool) {
	if c.dir == "" || binaryID() == nil {
		return nil, false
	}
	data, err := os.ReadFile(c.path(sym, date))
	if err != nil || len(data) < 4 {
		return nil, false
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, false
	}
	h := c.header(sym, date, n)
	if !bytes.HasPrefix(body, h) {
		return nil, false
	}
	body = body[len(h):]
	oi := make([]int64, n)
	for i := range oi {
		v, k := binary.Uvarint(body)
		if k <= 0 || v > 1<<62 {
			return nil, false
		}
		oi[i], body = int64(v), body[k:]
	}
	return oi, len(body) == 0
}

// store writes oi as sym's day's file, by a rename so that a reader never
// sees half of it; a failure only costs the next process the work.
func (c *oiCache) store(sym string, date api.Date, oi []int64) {
	if c.dir == "" || binaryID() == nil {
		return
	}
	b := c.header(sym, date, len(oi))
	for _, v := range oi {
		if v < 0 {
			return // not a count: nothing to keep
		}
		b = binary.AppendUvarint(b, uint64(v))
	}
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
	if api.WriteFileAtomic(c.path(sym, date), b) == nil {
		c.pruned.Do(c.prune)
	}
}

// prune removes the files (and the leftovers of interrupted writes) not
// written for oiMaxAge.
func (c *oiCache) prune() {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "oi-") && !strings.HasPrefix(name, ".oi-") {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > oiMaxAge {
			_ = os.Remove(filepath.Join(c.dir, name))
		}
	}
}
