package sim

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"slices"
	"testing"
	"time"

	"chainwatch/api"
)

// openInterestIn is sym's start-of-day open interest on d, from a new
// market caching in dir ("" caches nothing).
func openInterestIn(t *testing.T, dir, sym string, d api.Date) ([]int64, int64) {
	t.Helper()
	now := time.Date(2026, time.November, 25, 12, 0, 0, 0, api.Eastern)
	m := New(Config{Now: func() time.Time { return now }, CacheDir: dir})
	return m.state(mustBook(t, m, sym, d)).openInterest(m)
}

// TestOpenInterestCache: a second process's open interest, read from the
// file the first wrote, is the one computed from yesterday's trades.
func TestOpenInterestCache(t *testing.T) {
	dir := t.TempDir()
	for _, sym := range []string{"SPY", "AAPL"} {
		const d = api.Date(20261124)
		fresh, freshTotal := openInterestIn(t, "", sym, d)
		if _, err := os.Stat((&oiCache{dir: dir}).path(sym, d)); err == nil {
			t.Fatalf("%s: a file before any market used the directory", sym)
		}
		first, _ := openInterestIn(t, dir, sym, d)
		if !slices.Equal(first, fresh) {
			t.Fatalf("%s: the writing market's open interest differs from a fresh one", sym)
		}
		c := &oiCache{dir: dir}
		loaded, ok := c.load(sym, d, len(fresh))
		if !ok || !slices.Equal(loaded, fresh) {
			t.Fatalf("%s: the file does not hold the computed open interest (read %v)", sym, ok)
		}
		cached, cachedTotal := openInterestIn(t, dir, sym, d)
		if !slices.Equal(cached, fresh) || cachedTotal != freshTotal {
			t.Fatalf("%s: cached open interest (total %d) differs from the computed one (total %d)", sym, cachedTotal, freshTotal)
		}
		// A file is only read for its own symbol, day and listing size.
		if _, ok := c.load(sym, d, len(fresh)+1); ok {
			t.Fatalf("%s: a file read for another listing size", sym)
		}
		if _, ok := c.load(sym, d-1, len(fresh)); ok {
			t.Fatalf("%s: a file read for another day", sym)
		}
	}
}

// TestOpenInterestCacheDamaged: a damaged, truncated, foreign or
// unreadable file is never trusted; the open interest is computed again
// and the file rewritten whole.
func TestOpenInterestCacheDamaged(t *testing.T) {
	const sym, d = "SPY", api.Date(20261124)
	fresh, _ := openInterestIn(t, "", sym, d)
	good := func(t *testing.T, dir string) []byte {
		openInterestIn(t, dir, sym, d)
		b, err := os.ReadFile((&oiCache{dir: dir}).path(sym, d))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	resum := func(b []byte) []byte { // a valid checksum over changed bytes
		return binary.BigEndian.AppendUint32(b[:len(b)-4:len(b)-4], crc32.Checksum(b[:len(b)-4], crcTable))
	}
	damages := map[string]func(b []byte) []byte{
		"a flipped bit": func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b },
		"truncated":     func(b []byte) []byte { return b[:len(b)-9] },
		"empty":         func(b []byte) []byte { return nil },
		"another binary": func(b []byte) []byte {
			b[len(oiMagic)] ^= 0xff
			return resum(b)
		},
		"another version": func(b []byte) []byte {
			b[len(oiMagic)-2] = '0'
			return resum(b)
		},
		"values changed, checksum kept": func(b []byte) []byte {
			b[len(b)-5]++
			return b
		},
	}
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := (&oiCache{dir: dir}).path(sym, d)
			whole := good(t, dir)
			if err := os.WriteFile(path, damage(slices.Clone(whole)), 0o600); err != nil {
				t.Fatal(err)
			}
			if got, _ := openInterestIn(t, dir, sym, d); !slices.Equal(got, fresh) {
				t.Fatal("open interest from a damaged file")
			}
			if b, err := os.ReadFile(path); err != nil || !slices.Equal(b, whole) {
				t.Fatalf("the damaged file was not rewritten whole (%v)", err)
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		dir := t.TempDir()
		path := (&oiCache{dir: dir}).path(sym, d)
		if err := os.Mkdir(path, 0o700); err != nil { // a directory where the file goes
			t.Fatal(err)
		}
		if got, _ := openInterestIn(t, dir, sym, d); !slices.Equal(got, fresh) {
			t.Fatal("open interest wrong beside an unreadable file")
		}
	})
	t.Run("no directory", func(t *testing.T) {
		file := t.TempDir() + "/file"
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := openInterestIn(t, file+"/cache", sym, d); !slices.Equal(got, fresh) {
			t.Fatal("open interest wrong when the directory cannot be made")
		}
	})
}

// TestOpenInterestCachePrunes: the first write of a process removes the
// files not written for oiMaxAge, and keeps the others.
func TestOpenInterestCachePrunes(t *testing.T) {
	dir := t.TempDir()
	c := &oiCache{dir: dir}
	old, recent := c.path("QQQ", 20250102), c.path("QQQ", 20261123)
	for _, p := range []string{old, recent} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-oiMaxAge - time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	openInterestIn(t, dir, "AAPL", 20261124)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("a file unused for longer than oiMaxAge was kept (%v)", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Fatalf("a recent file was removed: %v", err)
	}
}
