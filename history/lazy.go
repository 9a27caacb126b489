package history

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
)

// A screen or a headless command that may never look at a past day opens
// its store lazily: the database (and SQLite's code and caches with it)
// is opened at the first read or write, not at start. What can be known
// without SQLite is checked at start all the same, so that a directory
// that cannot be written, or a file that is not a chainwatch store, is
// still said before the screen and the command run without history;
// anything found only at the first use (a file corrupt past its header)
// is said by Notice, on the status bar and after the screen.

// OpenLazy is Open, the database opened at its first use. The file is
// made (empty, which SQLite takes for a new database) if there is none;
// an existing one's header must be a chainwatch store's, else a
// *BadFileError. A header that cannot tell (a file that SQLite has not
// yet given chainwatch's mark, or whose mark waits in its write-ahead
// log after a crash) is opened at once, as Open does.
func OpenLazy(ctx context.Context, path, service string, opts ...Option) (*Store, error) {
	s, err := newStore(path, service, opts)
	if err != nil {
		return nil, err
	}
	sure, err := s.checkHeader()
	if err != nil {
		return nil, err
	}
	if !sure {
		s.opened.Do(func() { err = s.open(ctx) })
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// sqliteMagic begins every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkHeader makes the file if there is none and reads an existing
// one's header: sure is whether it is enough to open the file later.
func (s *Store) checkHeader() (sure bool, err error) {
	f, err := os.OpenFile(s.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return false, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	var h [100]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return true, nil // new, or empty: SQLite makes the database in it
	case err != nil || !bytes.HasPrefix(h[:], sqliteMagic):
		return false, &BadFileError{Path: s.path, Reason: "is not a readable SQLite database (corrupt, or another kind of file)"}
	}
	version, app := binary.BigEndian.Uint32(h[60:64]), binary.BigEndian.Uint32(h[68:72])
	switch {
	case app != applicationID:
		return false, nil // unmarked: open (and classify) it now
	case version > uint32(len(migrations)):
		return false, &BadFileError{Path: s.path, Reason: fmt.Sprintf("has schema version %d, newer than this chainwatch knows (%d): a newer chainwatch wrote it", version, len(migrations))}
	}
	return true, nil
}

// conn is the database, opened at the first use of a lazy store; a store
// that fails to open answers nothing and keeps nothing, and says why.
func (s *Store) conn() (*sql.DB, error) {
	s.opened.Do(func() {
		if err := s.open(context.Background()); err != nil {
			s.mu.Lock()
			s.openErr = err
			s.announce(slog.LevelError, s.noticeLocked(), "history: the store did not open", "path", s.path, "err", err)
			s.mu.Unlock()
			s.tell()
		}
	})
	if s.db != nil {
		return s.db, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openErr != nil {
		return nil, s.openErr
	}
	return nil, errors.New("history: the store is closed")
}

// query runs a read on the database.
func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	db, err := s.conn()
	if err != nil {
		return nil, err
	}
	return db.QueryContext(ctx, q, args...)
}

// id is the service's row in the store, once it is open (0 when it did
// not open: nothing matches it).
func (s *Store) id() int64 {
	_, _ = s.conn()
	return s.svcID
}
