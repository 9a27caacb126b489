package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Every answer the store is handed was paid for, so a write that fails is
// not given up: it is kept in memory, in order, and one goroutine of the
// store's (drain) tries it again with a bounded backoff, then keeps
// probing at the backoff's ceiling. A lock held by another process
// (SQLITE_BUSY, SQLITE_LOCKED) or a disk or WAL that cannot grow
// (SQLITE_FULL, SQLITE_IOERR) usually clears; saving is said to be off
// only when the failure persists: 5 failed tries in a row over at least
// a minute (the retries wait 0.1 s, doubled each time up to 30 s, then
// probe every 30 s). Then it is said on screen (WithSay), in the log
// (WithLog) and by Notice. Kept answers answer reads meanwhile
// (pending.go), so none is bought twice, and are saved once a write
// succeeds again, which is said too. At most 4,096 answers or 64 MiB of
// them (deflated) are kept: past that an answer is dropped unsaved, and
// the first drop of a trouble is said (Notice counts them all). Close
// tries what is kept once more and counts what it loses in its error.

// policy is how the store retries and how much it keeps unsaved.
type policy struct {
	busy      time.Duration // the driver's wait for another connection's lock, each try
	first     time.Duration // the first retry's delay, doubled each failed try...
	ceiling   time.Duration // ...up to this: the probe interval while saving is off
	tries     int           // the failure persists after this many failed tries in a row...
	over      time.Duration // ...spanning at least this long
	maxKept   int           // answers kept unsaved at most...
	maxBytes  int           // ...and their bytes at most; an answer past either is dropped
	quoteSize int           // what one kept symbol-day of quotes counts for, in bytes
}

var defaultPolicy = policy{
	busy: 10 * time.Second, first: 100 * time.Millisecond, ceiling: 30 * time.Second,
	tries: 5, over: time.Minute,
	maxKept: 4096, maxBytes: 64 << 20, quoteSize: 256,
}

// Option is an optional setting of Open.
type Option func(*Store)

// WithLog logs saving's troubles and its recovery to l (none without it).
func WithLog(l *slog.Logger) Option { return func(s *Store) { s.log = l } }

// Retry tunes how the store retries a failed write and when it says the
// failure persists; a zero field keeps its default. A tool (or a test)
// that must see a persistent failure sooner than a minute sets it.
type Retry struct {
	Busy    time.Duration // how long one try waits for another connection's lock (10 s)
	First   time.Duration // the first retry's delay, doubled each failed try (0.1 s)...
	Ceiling time.Duration // ...up to this, the probe interval while saving is off (30 s)
	Tries   int           // the failure persists after this many failed tries in a row (5)...
	Over    time.Duration // ...spanning at least this long (a minute; negative: no time)
	MaxKept int           // answers kept unsaved at most (4,096)
}

// WithRetry sets how the store retries (Retry).
func WithRetry(r Retry) Option {
	return func(s *Store) {
		set := func(p *time.Duration, v time.Duration) {
			if v != 0 {
				*p = max(v, 0)
			}
		}
		set(&s.pol.busy, r.Busy)
		set(&s.pol.first, r.First)
		set(&s.pol.ceiling, r.Ceiling)
		set(&s.pol.over, r.Over)
		if r.Tries > 0 {
			s.pol.tries = r.Tries
		}
		if r.MaxKept > 0 {
			s.pol.maxKept = r.MaxKept
		}
	}
}

// WithSay tells say a line for the screen when saving stops, when
// answers start being dropped for want of room, and when saving resumes.
// It is called with no lock held, on the store's writer or the goroutine
// of the write that caused it, so possibly on two at once.
func WithSay(say func(string)) Option { return func(s *Store) { s.say = say } }

// op is one write: an answer's or a day's quotes (pending.go reads them).
type op struct {
	size   int // what it counts for against policy.maxBytes
	answer *answerRow
	quotes *quotesRow
	run    func(ctx context.Context, tx *sql.Tx) error
}

// saving is the store's writing state, under Store.mu.
type saving struct {
	kept      []*op // unsaved answers, oldest first
	keptBytes int
	failed    int       // failed tries in a row
	since     time.Time // the first of them
	lastErr   error
	off       error // the persistent error while saving is off
	dropped   int   // answers dropped unsaved (past the bound), in all
	droppedBy error // the failure they were dropped in
	dropSaid  bool  // a drop was said in this trouble
	troubled  bool  // a trouble was said: its end will be said too
	resumed   int   // kept answers saved since the trouble was said
}

// write saves o now if nothing is waiting before it, else keeps it for
// drain; a failure that may clear keeps it too. It returns nil when o is
// saved or kept, an error when o itself cannot be stored (or ctx ends).
func (s *Store) write(ctx context.Context, o *op) error {
	if _, err := s.conn(); err != nil {
		return err // a store that did not open keeps nothing: Notice says why
	}
	s.mu.Lock()
	if len(s.st.kept) > 0 || s.st.failed > 0 {
		s.keepLocked(o)
		s.mu.Unlock()
		s.kick()
		return nil
	}
	s.mu.Unlock()
	err := s.tx(ctx, func(tx *sql.Tx) error { return o.run(ctx, tx) })
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return err
	case itemError(err):
		s.log.Error("history: an answer cannot be stored, dropped", "path", s.path, "err", err)
		return err
	}
	s.mu.Lock()
	s.keepLocked(o)
	s.failLocked(err)
	s.mu.Unlock()
	s.kick()
	return nil
}

// keepLocked appends o to the kept answers, or drops it past the bound.
func (s *Store) keepLocked(o *op) {
	if len(s.st.kept) >= s.pol.maxKept || s.st.keptBytes+o.size > s.pol.maxBytes {
		s.st.dropped++
		s.st.droppedBy = s.st.lastErr
		if !s.st.dropSaid { // once a trouble: the notice counts the rest
			s.st.dropSaid, s.st.troubled = true, true
			s.announce(slog.LevelError, s.noticeLocked(), "history: an answer dropped unsaved: no room to keep more",
				"path", s.path, "kept", len(s.st.kept), "bytes", s.st.keptBytes, "err", s.st.lastErr)
		}
		return
	}
	s.st.kept = append(s.st.kept, o)
	s.st.keptBytes += o.size
}

// failLocked counts a failed try of an error that may clear, and turns
// saving off when it persists.
func (s *Store) failLocked(err error) {
	now := time.Now()
	if s.st.failed == 0 {
		s.st.since = now
		s.log.Warn("history: saving failed, retrying", "path", s.path, "err", err)
	}
	s.st.failed++
	s.st.lastErr = err
	if s.st.off == nil && s.st.failed >= s.pol.tries && now.Sub(s.st.since) >= s.pol.over {
		s.st.off, s.st.troubled = err, true
		s.announce(slog.LevelError, s.noticeLocked(), "history: saving off until the failure clears",
			"path", s.path, "tries", s.st.failed, "since", s.st.since, "kept", len(s.st.kept), "err", err)
	}
}

// savedLocked counts o saved (or given up as unstorable) and says when
// saving, off until now, has caught up.
func (s *Store) savedLocked() {
	o := s.st.kept[0]
	s.st.kept[0] = nil
	s.st.kept = s.st.kept[1:]
	s.st.keptBytes -= o.size
	s.st.failed = 0
	if s.st.troubled {
		s.st.resumed++
	}
	if len(s.st.kept) > 0 || !s.st.troubled {
		return
	}
	line := fmt.Sprintf("history: saving to %s again; the %d answers kept meanwhile are saved", s.path, s.st.resumed)
	if s.st.dropped > 0 {
		line += fmt.Sprintf(" (%d were dropped unsaved)", s.st.dropped)
	}
	s.st.off, s.st.troubled, s.st.dropSaid, s.st.resumed = nil, false, false, 0
	s.announce(slog.LevelInfo, line, "history: saving again", "path", s.path, "dropped", s.st.dropped)
}

// announce logs a change of saving and queues line for Say.
func (s *Store) announce(level slog.Level, line, msg string, attrs ...any) {
	s.log.Log(context.Background(), level, msg, attrs...)
	if s.say != nil {
		s.said = append(s.said, line)
	}
}

// drain is the store's writer: it saves the kept answers in order, waits
// its backoff after a failed try, and ends when the store closes.
func (s *Store) drain() {
	defer close(s.drained)
	for {
		s.mu.Lock()
		n, failed := len(s.st.kept), s.st.failed
		s.mu.Unlock()
		kick, wait := s.kicks, (<-chan time.Time)(nil)
		var t *time.Timer
		if n > 0 {
			t = time.NewTimer(s.backoff(failed))
			wait, kick = t.C, nil
		}
		select {
		case <-s.stop:
			return
		case <-kick:
		case <-wait:
		}
		if t != nil {
			t.Stop()
		}
		s.tryKept(s.ctx)
		s.tell()
	}
}

// backoff is the wait before the next try after failed ones.
func (s *Store) backoff(failed int) time.Duration {
	if failed == 0 {
		return 0
	}
	d := s.pol.first
	for i := 1; i < failed && d < s.pol.ceiling; i++ {
		d *= 2
	}
	return min(d, s.pol.ceiling)
}

// tryKept saves kept answers, oldest first, until none is left or a try
// fails; it returns that failure.
func (s *Store) tryKept(ctx context.Context) error {
	for {
		s.mu.Lock()
		if len(s.st.kept) == 0 {
			s.mu.Unlock()
			return nil
		}
		o := s.st.kept[0]
		s.mu.Unlock()
		err := s.tx(ctx, func(tx *sql.Tx) error { return o.run(ctx, tx) })
		if err != nil && ctx.Err() != nil {
			return err // the store is closing: Close tries it once more
		}
		s.mu.Lock()
		if err != nil && !itemError(err) {
			s.failLocked(err)
			s.mu.Unlock()
			return err
		}
		if err != nil {
			s.log.Error("history: an answer cannot be stored, dropped", "path", s.path, "err", err)
		}
		s.savedLocked()
		s.mu.Unlock()
	}
}

// tell says the queued notices, outside the lock.
func (s *Store) tell() {
	s.mu.Lock()
	said := s.said
	s.said = nil
	s.mu.Unlock()
	for _, line := range said {
		s.say(line)
	}
}

func (s *Store) kick() {
	select {
	case s.kicks <- struct{}{}:
	default:
	}
	s.tell()
}

// itemError is a failure of this write's own, which no retry clears (a
// value too big, a constraint): the write is dropped, the store goes on.
// Any other failure is the store's (a lock, a full disk, an I/O error, a
// file made read-only) and may clear.
func itemError(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_RANGE:
		return true
	}
	return false
}

// Notice says what the screen should: that saving is off and why, how
// many answers are kept to be saved when it clears, and how many were
// dropped for want of room. "" while saving works (a failure that has not
// persisted yet is retried unsaid): answers already paid for were
// returned, only their saving is late.
func (s *Store) Notice() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.noticeLocked()
}

func (s *Store) noticeLocked() string {
	st := &s.st
	var parts []string
	if s.openErr != nil {
		parts = append(parts, strings.TrimPrefix(s.openErr.Error(), "history: ")+"; running without history")
	}
	if st.off != nil {
		parts = append(parts, fmt.Sprintf("not saving to %s since %s (%v): %d answers kept, saved when it clears",
			s.path, st.since.Format("15:04:05"), st.off, len(st.kept)))
	}
	if st.dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d answers dropped unsaved (%v), no room to keep more than %d (%d MiB): asked again, they are paid again",
			st.dropped, st.droppedBy, s.pol.maxKept, s.pol.maxBytes>>20))
	}
	if len(parts) == 0 {
		return ""
	}
	return "history: " + strings.Join(parts, "; ")
}

// Unsaved is the last failed write's error while answers handed to the
// store wait unsaved (its writer retries them), nil when all are saved.
func (s *Store) Unsaved() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.st.kept) == 0 {
		return nil
	}
	return s.st.lastErr
}

// Contended reports whether err is another connection's hold on the file
// (SQLITE_BUSY, SQLITE_LOCKED), which clears once that holder is done;
// a full disk or an I/O error does not clear by waiting a moment.
func Contended(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// Off is the persistent error for which saving is off, nil while it works.
func (s *Store) Off() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.off
}
