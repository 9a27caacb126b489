package history

import (
	"context"
	"fmt"
)

// FillDisk makes the database refuse to grow past its present size, as a
// full disk does (SQLITE_FULL on the next write that needs a page).
func FillDisk(ctx context.Context, s *Store) error {
	var pages int64
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return err
	}
	s.db.SetMaxOpenConns(1) // the pragma is per connection
	_, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages))
	return err
}
