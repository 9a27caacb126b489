package history

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's versions: migrations[i] takes a store from
// version i to i+1 (PRAGMA user_version). A store is only ever migrated
// forward, each step in its own transaction, so a crash between steps
// leaves a store of the last whole version.
var migrations = []string{
	// 1: services, the per-symbol quotes of past days and other answers.
	`CREATE TABLE services (
		id   INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE
	);
	CREATE TABLE quotes (
		service INTEGER NOT NULL REFERENCES services(id),
		symbol  TEXT    NOT NULL,
		day     INTEGER NOT NULL, -- yyyymmdd
		present INTEGER NOT NULL, -- 0: the service had no data for it that day
		ts      INTEGER,          -- timestamp, ms of the day
		last REAL, last_size INTEGER, bid REAL, ask REAL, bid_size INTEGER, ask_size INTEGER, mid REAL,
		open REAL, high REAL, low REAL, close REAL, prev_close REAL, volume INTEGER,
		iv30 REAL, iv30_change REAL, iv30_change_pct REAL, seq_no INTEGER,
		PRIMARY KEY (service, symbol, day)
	) WITHOUT ROWID;
	CREATE TABLE answers (
		service INTEGER NOT NULL REFERENCES services(id),
		key     TEXT    NOT NULL,
		day     INTEGER NOT NULL,
		body    BLOB,             -- deflated; NULL: the service answered 204
		size    INTEGER NOT NULL, -- bytes before deflating
		PRIMARY KEY (service, key)
	) WITHOUT ROWID;
	CREATE INDEX answers_day ON answers(day);
	CREATE INDEX quotes_day ON quotes(day);`,
	// 2: the figures' inputs in a narrow table of their own (IV30 and the
	// close of each session a symbol has data), filled from the quotes:
	// reading a year of 50 symbols steps over 12,600 short rows instead
	// of as many wide ones.
	`CREATE TABLE series (
		service INTEGER NOT NULL REFERENCES services(id),
		symbol  TEXT    NOT NULL,
		day     INTEGER NOT NULL,
		iv30    REAL,
		close   REAL,
		PRIMARY KEY (service, symbol, day)
	) WITHOUT ROWID;
	INSERT INTO series SELECT service, symbol, day, iv30, coalesce(close, last) FROM quotes WHERE present = 1;`,
	// 3: a deflated body longer than a piece is kept in pieces (answers.go
	// says why); answers.pieces counts them, 0 for a body in its row.
	`CREATE TABLE parts (
		service INTEGER NOT NULL REFERENCES services(id),
		key     TEXT    NOT NULL,
		seq     INTEGER NOT NULL, -- from 0
		day     INTEGER NOT NULL, -- the answer's, for pruning
		body    BLOB    NOT NULL,
		PRIMARY KEY (service, key, seq)
	);
	CREATE INDEX parts_day ON parts(day);
	ALTER TABLE answers ADD COLUMN pieces INTEGER NOT NULL DEFAULT 0;`,
}

// migrate brings the schema from version to the latest.
func (s *Store) migrate(ctx context.Context, version int) error {
	for v := version; v < len(migrations); v++ {
		err := txOn(ctx, s.db, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, v+1)); err != nil {
				return err
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
