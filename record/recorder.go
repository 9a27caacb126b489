package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/zstd"

	"chainwatch/api"
)

// DefaultMaxBytes is the recording's size cap when the config sets none:
// past it the oldest days are removed first.
const DefaultMaxBytes = 2 << 30

// queueLen bounds the answers waiting to be written; a full queue makes
// the fetch that adds one wait, so no answer is dropped, and cuts short
// the writeBehind of the answer first in line, so that the wait is one
// answer's writing, not writeBehind.
const queueLen = 64

// writeBehind is how long an answer waits, from its arrival, before the
// recorder hashes, compresses and writes it. The first answers of a run
// are its largest (a whole chain, SPX's the dearest to compress) and
// arrive as the screen decodes them and draws its first frame on the same
// few cores; written at once, the recording would delay that frame for
// nothing. Waiting costs memory only: the body, which the client does
// not copy, is held that much longer. Nothing is lost: Close writes what
// waits at once.
const writeBehind = time.Second

// Recorder appends every answer handed to it (api.Recorder) to the day's
// segment of this process. Record only queues the answer (its body is the
// client's, never written again, so it is not copied); hashing, diffing,
// compressing and writing happen on the recorder's own goroutine, off the
// path of the fetch, and a moment later (writeBehind).
type Recorder struct {
	dir      string
	maxBytes int64
	keyEvery int                                 // every keyEvery-th body of a request is whole
	source   string                              // where the answers come from (WithSource)
	open     func(path string) (*os.File, error) // tests: /dev/full
	behind   time.Duration                       // writeBehind; tests change it

	queue   chan waiting
	closing chan struct{} // closed by Close: what waits is written at once
	full    chan struct{} // Record found the queue full: write the next at once
	done    chan struct{}

	mu     sync.Mutex // guards closed and the sending on queue
	closed bool
	notice atomic.Pointer[string]

	// the writer goroutine's own
	day       api.Date
	seg       *os.File
	seen      map[uint64]int // bodies already in this day's segment: their depth
	bases     bases
	enc       *zstd.Encoder
	buf       []byte // the frames of one answer
	ops       []byte // a delta's steps (bases.go), kept from one to the next
	ins       []byte
	packedIns []byte
	packed    []byte
	written   int64 // since the last pruning
	stopped   bool
}

// waiting is an answer in the queue and when it arrived.
type waiting struct {
	a       api.Answer
	arrived time.Time
}

// Option configures a Recorder.
type Option func(*Recorder)

// WithMaxBytes sets the size cap (0 or less: DefaultMaxBytes).
func WithMaxBytes(n int64) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.maxBytes = n
		}
	}
}

// WithSource says where the answers come from: SandboxSource, or the
// service's URL (written without any user and password in it). Each
// segment starts with it, so that a sandbox's day never passes for a real
// one.
func WithSource(source string) Option {
	if u, err := url.Parse(source); err == nil && u.User != nil {
		u.User = nil
		source = u.String()
	}
	return func(r *Recorder) { r.source = source }
}

// Open starts recording under dir (created if missing).
func Open(dir string, opts ...Option) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return nil, err
	}
	r := &Recorder{dir: dir, maxBytes: DefaultMaxBytes, keyEvery: keyEvery, open: createSegment, enc: enc,
		behind: writeBehind, queue: make(chan waiting, queueLen), closing: make(chan struct{}), full: make(chan struct{}, 1),
		done: make(chan struct{})}
	for _, o := range opts {
		o(r)
	}
	go r.loop()
	return r, nil
}

// Record queues a to be written; it keeps a.Body as it is (api.Recorder).
func (r *Recorder) Record(a api.Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.notice.Load() != nil {
		return
	}
	w := waiting{a, time.Now()}
	select {
	case r.queue <- w:
	default:
		select {
		case r.full <- struct{}{}:
		default:
		}
		r.queue <- w
	}
}

// Notice says why recording stopped ("" while it goes on).
func (r *Recorder) Notice() string {
	if n := r.notice.Load(); n != nil {
		return *n
	}
	return ""
}

// Close writes what is queued, without waiting for writeBehind, and
// closes the segment.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	close(r.closing)
	close(r.queue)
	r.mu.Unlock()
	<-r.done
	if r.seg != nil {
		return r.seg.Close()
	}
	return nil
}

func (r *Recorder) loop() {
	defer close(r.done)
	for w := range r.queue {
		r.waitFor(w.arrived)
		if !r.stopped {
			r.write(w.a)
		}
	}
}

// waitFor returns writeBehind after arrived, or at once when closing or
// when a fetch waits on the full queue.
func (r *Recorder) waitFor(arrived time.Time) {
	d := r.behind - time.Since(arrived)
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.closing:
	case <-r.full:
	}
}

// write appends a's body (unless the segment has it) and a itself.
func (r *Recorder) write(a api.Answer) {
	day := api.Today(a.At)
	if err := r.segmentFor(day); err != nil {
		r.stop(err)
		return
	}
	m := meta{Key: a.Key, Family: a.Family, At: a.At.UnixNano(), Status: a.Status, Cost: a.Cost, Endpoint: int(a.Endpoint),
		Mode: string(a.Mode), Symbol: symbolOf(a), Size: len(a.Body)}
	r.buf = r.buf[:0]
	depth := 0
	if len(a.Body) > 0 {
		m.Body = xxhash.Sum64(a.Body)
		var kept bool
		if depth, kept = r.seen[m.Body]; !kept {
			depth = r.appendBody(a.Key, m.Body, a.Body)
		}
	}
	js, err := json.Marshal(m)
	if err != nil {
		r.stop(err)
		return
	}
	r.buf = appendFrame(r.buf, kindAnswer, js)
	if _, err := r.seg.Write(r.buf); err != nil {
		r.stop(err)
		return
	}
	if m.Body != 0 {
		r.seen[m.Body] = depth
		if len(a.Body) >= minDelta {
			r.bases.put(base{key: a.Key, hash: m.Body, body: a.Body, depth: depth})
		}
	}
	r.written += int64(len(r.buf))
	if r.written > r.maxBytes/64 {
		r.written = 0
		_ = pruneToCap(r.dir, r.maxBytes, day)
	}
}

// segmentFor opens this process's segment of day, a new one when the
// day changes (and then keeps the recording under its cap).
func (r *Recorder) segmentFor(day api.Date) error {
	if r.seg != nil && r.day == day {
		return nil
	}
	if r.seg != nil {
		_ = r.seg.Close()
		r.seg = nil
	}
	dir := filepath.Join(r.dir, day.String())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	name := strconv.FormatInt(time.Now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid()) + segmentExt
	f, err := r.open(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if r.source != "" {
		js, err := json.Marshal(sourceMeta{Source: r.source})
		if err == nil {
			_, err = f.Write(appendFrame(nil, kindSource, js))
		}
		if err != nil {
			_ = f.Close()
			return err
		}
	}
	r.seg, r.day, r.seen = f, day, map[uint64]int{}
	r.bases.reset() // a delta's base is in its own day
	_ = pruneToCap(r.dir, r.maxBytes, day)
	return nil
}

// stop ends recording for this run with a notice; the screen goes on.
func (r *Recorder) stop(err error) {
	r.stopped = true
	msg := "recording stopped: " + err.Error()
	if errors.Is(err, syscall.ENOSPC) {
		msg = "recording stopped: the disk is full (" + r.dir + ")"
	}
	r.notice.Store(&msg)
}

func createSegment(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
}
