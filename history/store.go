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
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

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

	mu     sync.Mutex
	broken error // the first failed write: the store stops writing and says so
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
// caller reports before running without history.
func Open(ctx context.Context, path, service string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	s := &Store{db: db, path: path, service: service}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// dsn is the driver's name for path: a busy timeout so two writers queue instead of failing, and
// BEGIN IMMEDIATE so a write transaction takes its lock up front (no
// deadlock between two processes that both read then write).
func dsn(path string) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "synchronous(NORMAL)", "foreign_keys(ON)"} {
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

// Close folds the WAL back into the database (so the file's size is the
// store's) and closes it.
func (s *Store) Close() error {
	s.Checkpoint()
	return s.db.Close()
}

// Checkpoint folds the WAL into the database file, best effort: a reader
// in another process may keep part of it for now.
func (s *Store) Checkpoint() {
	_, _ = s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Service is the name the store files its answers under.
func (s *Store) Service() string { return s.service }

// Notice says why the store stopped saving (a full disk, a read-only
// file), "" while it works: answers already paid for were returned, only
// their saving was lost.
func (s *Store) Notice() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken == nil {
		return ""
	}
	return fmt.Sprintf("history: could not save to %s (%v): running without saving history", s.path, s.broken)
}

// write runs f in a transaction unless an earlier write failed; the
// first failure is kept for Notice and stops further writes.
func (s *Store) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	s.mu.Lock()
	broken := s.broken
	s.mu.Unlock()
	if broken != nil {
		return broken
	}
	err := s.tx(ctx, f)
	if err != nil && !errors.Is(err, context.Canceled) {
		s.mu.Lock()
		if s.broken == nil {
			s.broken = err
		}
		s.mu.Unlock()
	}
	return err
}

func (s *Store) tx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
