package history

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"io"

	"chainwatch/api"
)

// Answer is api.History's: a stored body by its key, inflated; an answer
// kept to be saved answers too.
func (s *Store) Answer(ctx context.Context, key string) ([]byte, bool) {
	if a, ok := s.keptAnswer(key); ok {
		return inflate(a.packed, int64(a.size), a.packed == nil)
	}
	var body []byte
	var size int64
	err := s.db.QueryRowContext(ctx, "SELECT body, size FROM answers WHERE service = ? AND key = ?", s.svcID, key).Scan(&body, &size)
	if err != nil {
		return nil, false
	}
	return inflate(body, size, body == nil)
}

// inflate is a stored body; none for a stored 204.
func inflate(body []byte, size int64, none bool) ([]byte, bool) {
	if none {
		return nil, true // a stored 204
	}
	out := make([]byte, 0, size)
	buf := bytes.NewBuffer(out)
	r := flate.NewReader(bytes.NewReader(body))
	defer r.Close()
	if _, err := io.Copy(buf, r); err != nil || int64(buf.Len()) != size {
		return nil, false // unreadable: ask the service again
	}
	return buf.Bytes(), true
}

// KeepAnswer is api.History's: a past day's body, deflated (a chain's JSON
// shrinks about sevenfold), or nil for a 204. It returns nil once the
// answer is saved or kept to be saved (saving.go).
func (s *Store) KeepAnswer(ctx context.Context, key string, day api.Date, body []byte) error {
	var packed []byte
	if body != nil {
		var buf bytes.Buffer
		w, err := flate.NewWriter(&buf, flate.BestSpeed)
		if err != nil {
			return err
		}
		if _, err := w.Write(body); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		packed = buf.Bytes()
	}
	row := &answerRow{key: key, day: day, packed: packed, size: len(body)}
	return s.write(ctx, &op{size: len(packed) + len(key), answer: row, run: func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO answers(service, key, day, body, size) VALUES (?,?,?,?,?)",
			s.svcID, row.key, int64(row.day), row.packed, row.size)
		return err
	}})
}
