package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"chainwatch/api"
)

// The usage ledger: OPRA has a distributor report every user and device
// that could see real-time data, so every session of every serve host is
// written down twice, when it opens and when it ends. The ledger is JSON
// lines, one file a calendar month (Eastern, the exchange's) named
// YYYY-MM.jsonl, each record in the file of its own instant: a session
// across a month's end has its start in one file and its end in the next
// (Report reads both). Files are only appended to, one whole line in one
// write, under the lock file YYYY-MM.jsonl.lock (api.LockFile: flock), so
// that two processes on one box, or a host and the bus relay, lose no
// line and never interleave two.

// UsageRecord is one line of the usage ledger (JSON lines).
type UsageRecord struct {
	Event    string    `json:"event"`     // "start" or "end"
	ID       string    `json:"id"`        // the session's, unique across hosts (random hex)
	Key      string    `json:"key"`       // the authorized key's name
	Host     string    `json:"host"`      // the serve host that ran it
	Device   string    `json:"device"`    // the client's address (IP without port)
	Kind     string    `json:"kind"`      // "screen" or "command"
	RealTime bool      `json:"real_time"` // the session could see real-time data (live mode)
	At       time.Time `json:"at"`
}

// The events and kinds of a record.
const (
	UsageStart   = "start"
	UsageEnd     = "end"
	UsageScreen  = "screen"
	UsageCommand = "command"
)

// whole reports whether r is a record at all: an event (start or end),
// an id and a time; Append refuses, and Month skips, any other.
func (r UsageRecord) whole() bool {
	return (r.Event == UsageStart || r.Event == UsageEnd) && r.ID != "" && !r.At.IsZero()
}

// UsageSink takes the ledger's records: the file ledger on the host that
// keeps it, a relay over the bus on the others.
type UsageSink interface{ Append(UsageRecord) error }

// NewUsageID is a session's ID: 64 random bits in hex, so that hosts that
// never talk still name their sessions apart.
func NewUsageID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail (it panics first)
	return hex.EncodeToString(b[:])
}

// usageLockWait bounds the wait for another process's append or read.
const usageLockWait = 5 * time.Second

// maxUsageLine is the longest line read as a record; one the desk writes
// is a handful of short fields, far below it, so a longer one is damage.
const maxUsageLine = 64 << 10

// UsageLedger is the file ledger: one file a month under dir
// (YYYY-MM.jsonl), appended under a lock so that two processes lose
// nothing.
type UsageLedger struct {
	dir string
	mu  sync.Mutex // this process's appends, before the file's lock
}

// OpenUsage is the ledger in dir, made (0700) with its first record.
func OpenUsage(dir string) *UsageLedger { return &UsageLedger{dir: dir} }

// Dir is the ledger's directory.
func (l *UsageLedger) Dir() string { return l.dir }

// UsageMonth is the month (YYYY-MM, Eastern) an instant's record is
// filed under.
func UsageMonth(t time.Time) string { return t.In(api.Eastern).Format("2006-01") }

func (l *UsageLedger) path(ym string) string { return filepath.Join(l.dir, ym+".jsonl") }

// Append writes r as one line of its month's file. A file whose last line
// was cut off (a crash mid-write) gets a newline first, so that the cut
// line alone is lost, not r with it.
func (l *UsageLedger) Append(r UsageRecord) error {
	if !r.whole() {
		return fmt.Errorf("usage ledger: a record needs an event (start or end), an id and a time; got %q, %q, %v", r.Event, r.ID, r.At)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path := l.path(UsageMonth(r.At))
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), usageLockWait)
	unlock, err := api.LockFile(ctx, path+".lock")
	cancel()
	if err != nil {
		return fmt.Errorf("usage ledger: %w", err)
	}
	defer unlock()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("usage ledger: %w", err)
	}
	if torn, err := endsTorn(f); err != nil {
		f.Close()
		return fmt.Errorf("usage ledger: %w", err)
	} else if torn {
		line = append([]byte{'\n'}, line...)
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("usage ledger: writing %s: %w", path, err)
	}
	return nil
}

// endsTorn says whether f is not empty and does not end in a newline.
func endsTorn(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// DamagedLines is Month's error when some lines are not records (a line
// cut off by a crash, a hand edit): the others are returned with it, and
// the caller warns and goes on.
type DamagedLines struct {
	Path  string
	Lines []int // 1-based
}

func (e *DamagedLines) Error() string {
	nums := make([]string, 0, min(len(e.Lines), 10))
	for _, n := range e.Lines[:min(len(e.Lines), 10)] {
		nums = append(nums, fmt.Sprint(n))
	}
	more := ""
	if len(e.Lines) > 10 {
		more = fmt.Sprintf(" and %d more", len(e.Lines)-10)
	}
	return fmt.Sprintf("%s: skipped %d damaged line(s), not records: line %s%s", e.Path, len(e.Lines), strings.Join(nums, ", "), more)
}

// Month is the records of the month ym (YYYY-MM), in the file's order;
// none, and no error, when the month has no file. Lines that are not
// records are skipped, and named in a *DamagedLines returned with the
// others.
func (l *UsageLedger) Month(ym string) ([]UsageRecord, error) {
	if _, err := time.Parse("2006-01", ym); err != nil {
		return nil, fmt.Errorf("usage ledger: month %q: want YYYY-MM", ym)
	}
	path := l.path(ym)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), usageLockWait)
	unlock, err := api.LockFile(ctx, path+".lock")
	cancel()
	if err != nil {
		return nil, fmt.Errorf("usage ledger: %w", err)
	}
	defer unlock()
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("usage ledger: %w", err)
	}
	defer f.Close()
	recs, bad, err := readUsage(f)
	if err != nil {
		return recs, fmt.Errorf("usage ledger: reading %s: %w", path, err)
	}
	if len(bad) > 0 {
		return recs, &DamagedLines{Path: path, Lines: bad}
	}
	return recs, nil
}

// readUsage reads records a line at a time; bad are the numbers of the
// lines that are not one (too long, not JSON, no event, id or time).
func readUsage(r io.Reader) (recs []UsageRecord, bad []int, err error) {
	br := bufio.NewReaderSize(r, maxUsageLine)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		long := false
		for errors.Is(err, bufio.ErrBufferFull) {
			long = true
			_, err = br.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return recs, bad, err
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var rec UsageRecord
			switch {
			case long, json.Unmarshal(trimmed, &rec) != nil, !rec.whole():
				bad = append(bad, n)
			default:
				recs = append(recs, rec)
			}
		}
		if err != nil { // io.EOF
			return recs, bad, nil
		}
	}
}
