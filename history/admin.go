package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"chainwatch/api"
)

// Summary is what `chainwatch history` reports of the store.
type Summary struct {
	Path     string
	Bytes    int64 // the database with its WAL
	Services []ServiceSummary
}

// ServiceSummary is one service's part of the store.
type ServiceSummary struct {
	Name             string
	Symbols          int
	QuoteDays        int // symbol-days stored (absent ones included)
	First, Last      api.Date
	Answers          int   // other past answers (chains, trades)
	AnswerBytes      int64 // their size before deflating
	AnswerFirst      api.Date
	AnswerLast       api.Date
	AnswersPacked    int64 // their size in the store
	QuoteSymbolsList []string
}

// Size is the bytes the store takes on disk: the database and its WAL.
func Size(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Summary reports every service's part of the store.
func (s *Store) Summary(ctx context.Context) (Summary, error) {
	out := Summary{Path: s.path, Bytes: Size(s.path)}
	rows, err := s.query(ctx, `SELECT s.name,
		(SELECT count(DISTINCT symbol) FROM quotes q WHERE q.service = s.id),
		(SELECT count(*) FROM quotes q WHERE q.service = s.id),
		(SELECT coalesce(min(day), 0) FROM quotes q WHERE q.service = s.id),
		(SELECT coalesce(max(day), 0) FROM quotes q WHERE q.service = s.id),
		(SELECT count(*) FROM answers a WHERE a.service = s.id),
		(SELECT coalesce(sum(size), 0) FROM answers a WHERE a.service = s.id),
		(SELECT coalesce(sum(length(body)), 0) FROM answers a WHERE a.service = s.id) +
		(SELECT coalesce(sum(length(body)), 0) FROM parts p WHERE p.service = s.id),
		(SELECT coalesce(min(day), 0) FROM answers a WHERE a.service = s.id),
		(SELECT coalesce(max(day), 0) FROM answers a WHERE a.service = s.id)
		FROM services s ORDER BY s.name`)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		var v ServiceSummary
		var first, last, af, al int64
		if err := rows.Scan(&v.Name, &v.Symbols, &v.QuoteDays, &first, &last, &v.Answers, &v.AnswerBytes, &v.AnswersPacked, &af, &al); err != nil {
			return out, err
		}
		v.First, v.Last, v.AnswerFirst, v.AnswerLast = api.Date(first), api.Date(last), api.Date(af), api.Date(al)
		if v.QuoteDays > 0 || v.Answers > 0 {
			out.Services = append(out.Services, v)
		}
	}
	return out, rows.Err()
}

// CountBefore is what Prune(before) would delete: the answers of days
// before it, and of those, the ones of days from since on.
func (s *Store) CountBefore(ctx context.Context, before, since api.Date) (all, recent int64, err error) {
	db, err := s.conn()
	if err != nil {
		return 0, 0, err
	}
	for _, t := range []string{"quotes", "answers"} {
		var a, r int64
		err := db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(day >= ?), 0) FROM "+t+" WHERE day < ?", int64(since), int64(before)).Scan(&a, &r)
		if err != nil {
			return all, recent, err
		}
		all, recent = all+a, recent+r
	}
	return all, recent, nil
}

// Prune deletes every answer of a day before day, of every service, and
// gives the space back (VACUUM); it returns the rows deleted.
func (s *Store) Prune(ctx context.Context, before api.Date) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, t := range []string{"quotes", "series", "answers", "parts"} {
			r, err := tx.ExecContext(ctx, "DELETE FROM "+t+" WHERE day < ?", int64(before))
			if err != nil {
				return err
			}
			if k, _ := r.RowsAffected(); t == "quotes" || t == "answers" {
				n += k
			}
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	db, err := s.conn()
	if err != nil {
		return n, err
	}
	if _, err := db.ExecContext(ctx, "VACUUM"); err != nil {
		return n, err
	}
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return n, err
}

// Missing returns, of days, those on which one or more of symbols is not
// stored, with the symbols each lacks: what a backfill has to buy.
func (s *Store) Missing(ctx context.Context, days []api.Date, symbols []string) (map[api.Date][]string, error) {
	out := map[api.Date][]string{}
	if len(days) == 0 || len(symbols) == 0 {
		return out, nil
	}
	have := map[api.Date]map[string]bool{}
	q := "SELECT day, symbol FROM quotes WHERE service = ? AND day >= ? AND day <= ? AND symbol IN (?" + strings.Repeat(",?", len(symbols)-1) + ")"
	args := []any{s.id(), int64(days[0]), int64(days[len(days)-1])}
	for _, sym := range symbols {
		args = append(args, sym)
	}
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var day int64
		var sym string
		if err := rows.Scan(&day, &sym); err != nil {
			return nil, err
		}
		if have[api.Date(day)] == nil {
			have[api.Date(day)] = map[string]bool{}
		}
		have[api.Date(day)][sym] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, d := range days {
		for _, sym := range symbols {
			if !have[d][sym] {
				out[d] = append(out[d], sym)
			}
		}
	}
	return out, nil
}

// MoveAside renames a store that cannot be used (a *BadFileError's path)
// to PATH.bad-YYYYMMDD-HHMMSS, with its WAL, so a new one can be made:
// only on the user's word (`chainwatch history --move-aside`), never on
// its own; nothing is deleted. It returns the new name.
func MoveAside(path string, now time.Time) (string, error) {
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("history: %w", err)
	}
	to := path + ".bad-" + now.UTC().Format("20060102-150405")
	if err := os.Rename(path, to); err != nil {
		return "", fmt.Errorf("history: moving %s aside: %w", path, err)
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, to+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return to, fmt.Errorf("history: moving %s aside: %w", path+ext, err)
		}
	}
	return to, nil
}
