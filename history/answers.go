package history

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"io"

	"chainwatch/api"
)

// Answer is api.History's: a stored body by its key, inflated.
func (s *Store) Answer(ctx context.Context, key string) ([]byte, bool) {
	var body []byte
	var size int64
	err := s.db.QueryRowContext(ctx, "SELECT body, size FROM answers WHERE service = ? AND key = ?", s.svcID, key).Scan(&body, &size)
	if err != nil {
		return nil, false
	}
	if body == nil {
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
// shrinks about sevenfold), or nil for a 204.
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
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO answers(service, key, day, body, size) VALUES (?,?,?,?,?)",
			s.svcID, key, int64(day), packed, len(body))
		return err
	})
}
