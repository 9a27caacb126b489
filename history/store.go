// Package history is chainwatch's store of past days: every answer to a
// request for a day before today is bought once and kept in an embedded
// SQLite database (modernc.org/sqlite, pure Go: no C toolchain to build),
// so a second look, a restart or a script pays nothing for it. It sits
// below the api client (api.History) and holds no product logic: the
// figures read from it (IV rank, realized vol) are in chainwatch/vol.
//
// The database is in WAL mode, so the screen and a headless command read
// and write it at once; its schema is versioned (PRAGMA user_version) and
// migrated forward on open; a file that is not a chainwatch store is
// reported with its path and never touched.
package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// applicationID marks a chainwatch store ("chwh"): a SQLite file of
// another program is refused, not migrated.
const applicationID = 0x63687768

// Store is an open store of past days for one service: answers of one
// service never answer another's requests (a sandbox's simulated market
// must never pass for a real one). It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	path    string
	service string
	svcID   int64

	pol policy
	log *slog.Logger
	say func(string)

	mu   sync.Mutex
	st   saving   // answers kept unsaved, failures (saving.go)
	said []string // lines for say, told outside mu

	ctx     context.Context // the writer's: cancelled by Close
	cancel  context.CancelFunc
	kicks   chan struct{} // something new to save
	stop    chan struct{} // Close: the writer ends
	drained chan struct{} // the writer has ended
	closed  sync.Once

	opened  sync.Once // the database opened, at once or at first use (lazy.go)
	openErr error     // why it did not, under mu
}

// BadFileError is a file at the store's path that is not a usable
// chainwatch store: corrupt, another program's database, or a newer
// schema. It is left where it is; `chainwatch history --move-aside`
// moves it aside when the user agrees.
type BadFileError struct {
	Path   string
	Reason string
}

func (e *BadFileError) Error() string {
	return fmt.Sprintf("history: %s %s", e.Path, e.Reason)
}

// Open opens (creating it if need be) the store at path for service
// (a name that identifies the market: the service's base URL, or
// "sandbox" for the embedded one). A file that is not a chainwatch store
// is a *BadFileError; a directory that cannot be written is an error the
// caller reports before running without history. The store writes on a
// goroutine of its own until Close.
func Open(ctx context.Context, path, service string, opts ...Option) (*Store, error) {
	s, err := newStore(path, service, opts)
	if err != nil {
		return nil, err
	}
	s.opened.Do(func() { err = s.open(ctx) })
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newStore is a store not opened yet, its directory made.
func newStore(path, service string, opts []Option) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	s := &Store{path: path, service: service, pol: defaultPolicy, log: slog.New(slog.DiscardHandler),
		kicks: make(chan struct{}, 1), stop: make(chan struct{}), drained: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// open opens the database, checks and migrates it, and starts the writer;
// s.db stays nil when it fails.
func (s *Store) open(ctx context.Context) error {
	db, err := sql.Open("sqlite", dsn(s.path, s.pol.busy))
	if err != nil {
		return fmt.Errorf("history: %s: %w", s.path, err)
	}
	s.db = db
	if err := s.init(ctx); err != nil {
		db.Close()
		s.db = nil
		return err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go s.drain()
	return nil
}

// cacheKiB bounds each connection's page cache (SQLite's default is 2
// MiB a connection). The store reads a row or a few by key, so a small
// cache costs no reads worth having, and a large write spills to the WAL
// instead of holding its pages in memory.
const cacheKiB = 256

// dsn is the driver's name for path: a busy timeout so two writers queue
// instead of failing, BEGIN IMMEDIATE so a write transaction takes its
// lock up front (no deadlock between two processes that both read then
// write), and the bounded page cache.
func dsn(path string, busy time.Duration) string {
	q := url.Values{}
	for _, p := range []string{fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()), "synchronous(NORMAL)", "foreign_keys(ON)",
		fmt.Sprintf("cache_size(-%d)", cacheKiB)} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// init checks the file is a chainwatch store (or a new one), migrates its
// schema and registers the service.
func (s *Store) init(ctx context.Context) error {
	var app, version int64
	if err := s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return s.classify(err)
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return s.classify(err)
	}
	if app != applicationID {
		var tables int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
			return s.classify(err)
		}
		if app != 0 || tables > 0 {
			return &BadFileError{Path: s.path, Reason: "is another program's SQLite database, not chainwatch's history"}
		}
	}
	if version > int64(len(migrations)) {
		return &BadFileError{Path: s.path, Reason: fmt.Sprintf("has schema version %d, newer than this chainwatch knows (%d): a newer chainwatch wrote it", version, len(migrations))}
	}
	// WAL only once the file is known to be ours (switching writes the
	// file's header): readers never wait for the writer, so the screen and
	// a headless command share the store.
	if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return s.classify(err)
	}
	if err := s.migrate(ctx, int(version)); err != nil {
		return s.classify(err)
	}
	return s.register(ctx)
}

// classify turns the driver's "not a database" into a BadFileError;
// anything else (a read-only directory, a full disk) stays as it is.
func (s *Store) classify(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_NOTADB") || strings.Contains(msg, "SQLITE_CORRUPT") {
		return &BadFileError{Path: s.path, Reason: "is not a readable SQLite database (corrupt, or another kind of file)"}
	}
	return fmt.Errorf("history: %s: %w", s.path, err)
}

// register finds or adds the service's row; a store opened for no
// service ("": to report or prune the file) adds none.
func (s *Store) register(ctx context.Context) error {
	if s.service == "" {
		return nil
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO services(name) VALUES (?) ON CONFLICT(name) DO NOTHING", s.service)
	if err != nil {
		return s.classify(err)
	}
	return s.db.QueryRowContext(ctx, "SELECT id FROM services WHERE name = ?", s.service).Scan(&s.svcID)
}

// Close stops the writer, tries once more to save the answers kept
// unsaved, folds the WAL back into the database (so the file's size is
// the store's) and closes it. The error says how many answers were lost.
func (s *Store) Close() error {
	var lost error
	s.closed.Do(func() {
		s.opened.Do(func() {}) // a lazy store never used is not opened to be closed
		if s.db == nil {
			return
		}
		s.cancel()
		close(s.stop)
		<-s.drained
		if err := s.tryKept(context.Background()); err != nil {
			s.mu.Lock()
			n := len(s.st.kept)
			s.mu.Unlock()
			lost = fmt.Errorf("history: %d answers not saved to %s (%w): asked again, they are paid again", n, s.path, err)
			s.log.Error("history: answers lost at close", "path", s.path, "lost", n, "err", err)
		}
		s.tell()
		s.Checkpoint()
		lost = errors.Join(lost, s.db.Close())
	})
	return lost
}

// Checkpoint folds the WAL into the database file, best effort: a reader
// in another process may keep part of it for now.
func (s *Store) Checkpoint() {
	if db, err := s.conn(); err == nil {
		_, _ = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	}
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Service is the name the store files its answers under.
func (s *Store) Service() string { return s.service }

// tx runs f in one transaction.
func (s *Store) tx(ctx context.Context, f func(tx *sql.Tx) error) error {
	db, err := s.conn()
	if err != nil {
		return err
	}
	return txOn(ctx, db, f)
}

// txOn runs f in one transaction on db (open's own, before the store is
// open: tx would wait for the open it is part of).
func txOn(ctx context.Context, db *sql.DB, f func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
