package history

import (
	"context"
	"fmt"
	"time"
)

// FillDisk makes the database refuse to grow past its present size, as a
// full disk does (SQLITE_FULL on the next write that needs a page).
func FillDisk(ctx context.Context, s *Store) error {
	if _, err := s.conn(); err != nil {
		return err
	}
	var pages int64
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return err
	}
	s.db.SetMaxOpenConns(1) // the pragma is per connection
	_, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages))
	return err
}

// ClearDisk lets the database grow again after FillDisk, as freeing
// space on a full disk does.
func ClearDisk(ctx context.Context, s *Store) error {
	if _, err := s.conn(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "PRAGMA max_page_count = 1073741823")
	return err
}

// Patient is a test's retry policy: a lock waited for 20 ms a try, a
// retry after 2 ms doubling up to 20 ms, saving off after tries failed
// tries over at least over, at most maxKept answers kept.
func Patient(tries int, over time.Duration, maxKept int) Option {
	if over == 0 {
		over = -1 // no time at all
	}
	return WithRetry(Retry{Busy: 20 * time.Millisecond, First: 2 * time.Millisecond, Ceiling: 20 * time.Millisecond,
		Tries: tries, Over: over, MaxKept: maxKept})
}
