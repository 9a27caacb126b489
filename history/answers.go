package history

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"io"
	"sync"

	"chainwatch/api"
)

// pieceSize bounds the deflated bytes one row holds. SQLite copies a
// value whole at every step (the bound argument, the record, the value
// read back), and the embedded driver's allocator keeps the large blocks
// it has handed out for reuse, resident, for the life of the process: a
// whole chain's body in one row would leave that much behind
// after a single save. Pieces under its small-block size are recycled.
const pieceSize = 12 << 10

// Answer is api.History's: a stored body by its key, inflated; an answer
// kept to be saved answers too.
func (s *Store) Answer(ctx context.Context, key string) ([]byte, bool) {
	if a, ok := s.keptAnswer(key); ok {
		return inflate(a.packed, int64(a.size), a.packed == nil)
	}
	db, err := s.conn()
	if err != nil {
		return nil, false
	}
	var body []byte
	var size, pieces int64
	err = db.QueryRowContext(ctx, "SELECT body, size, pieces FROM answers WHERE service = ? AND key = ?", s.id(), key).Scan(&body, &size, &pieces)
	if err != nil {
		return nil, false
	}
	if pieces > 0 {
		if body, err = s.readPieces(ctx, key, pieces); err != nil {
			return nil, false
		}
	}
	return inflate(body, size, body == nil)
}

// readPieces is a body kept in pieces, joined; all of them, or an error.
func (s *Store) readPieces(ctx context.Context, key string, pieces int64) ([]byte, error) {
	db, err := s.conn()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, "SELECT body FROM parts WHERE service = ? AND key = ? ORDER BY seq", s.id(), key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]byte, 0, pieces*pieceSize)
	var n int64
	for rows.Next() {
		var p sql.RawBytes
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p...)
		n++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n != pieces {
		return nil, io.ErrUnexpectedEOF
	}
	return out, nil
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

// deflaters are reused: a flate.Writer is most of a megabyte of tables,
// and a chain's body would otherwise allocate one per save.
var deflaters sync.Pool

// deflate is body deflated at BestSpeed (a chain's JSON shrinks about
// sevenfold).
func deflate(body []byte) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, len(body)/6+64))
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		var err error
		if w, err = flate.NewWriter(buf, flate.BestSpeed); err != nil {
			return nil, err
		}
	} else {
		w.Reset(buf)
	}
	_, err := w.Write(body)
	if err == nil {
		err = w.Close()
	}
	deflaters.Put(w)
	return buf.Bytes(), err
}

// KeepAnswer is api.History's: a past day's body, deflated, or nil for a
// 204. It returns nil once the answer is saved or kept to be saved
// (saving.go).
func (s *Store) KeepAnswer(ctx context.Context, key string, day api.Date, body []byte) error {
	var packed []byte
	if body != nil {
		var err error
		if packed, err = deflate(body); err != nil {
			return err
		}
	}
	row := &answerRow{key: key, day: day, packed: packed, size: len(body)}
	return s.write(ctx, &op{size: len(packed) + len(key), answer: row, run: func(ctx context.Context, tx *sql.Tx) error {
		return s.saveAnswer(ctx, tx, row)
	}})
}

// saveAnswer writes row, its body in its row or, past pieceSize, in
// pieces; the pieces of an answer it replaces go.
func (s *Store) saveAnswer(ctx context.Context, tx *sql.Tx, row *answerRow) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM parts WHERE service = ? AND key = ?", s.id(), row.key); err != nil {
		return err
	}
	inline, pieces := row.packed, 0
	if len(row.packed) > pieceSize {
		inline, pieces = nil, (len(row.packed)+pieceSize-1)/pieceSize
	}
	_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO answers(service, key, day, body, size, pieces) VALUES (?,?,?,?,?,?)",
		s.id(), row.key, int64(row.day), inline, row.size, pieces)
	if err != nil || pieces == 0 {
		return err
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO parts(service, key, seq, day, body) VALUES (?,?,?,?,?)")
	if err != nil {
		return err
	}
	defer st.Close()
	for i := range pieces {
		p := row.packed[i*pieceSize : min((i+1)*pieceSize, len(row.packed))]
		if _, err := st.ExecContext(ctx, s.id(), row.key, i, int64(row.day), p); err != nil {
			return err
		}
	}
	return nil
}
