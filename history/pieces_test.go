package history

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"chainwatch/api"
)

var (
	thu = api.NewDate(2026, 11, 19)
	fri = api.NewDate(2026, 11, 20)
)

// noise is n bytes that do not deflate: a body of about n packed bytes.
func noise(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 43))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// rowSizes is the largest body any row of the file holds, and the
// pieces of key.
func rowSizes(t *testing.T, path, key string) (largest, pieces int64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.QueryRow(`SELECT max((SELECT coalesce(max(length(body)), 0) FROM answers), (SELECT coalesce(max(length(body)), 0) FROM parts)),
		(SELECT count(*) FROM parts WHERE key = ?)`, key).Scan(&largest, &pieces)
	if err != nil {
		t.Fatal(err)
	}
	return largest, pieces
}

func mustAnswer(t *testing.T, s *Store, key string, want []byte) {
	t.Helper()
	got, ok := s.Answer(context.Background(), key)
	if !ok || !bytes.Equal(got, want) || (got == nil) != (want == nil) {
		t.Fatalf("%s: %d bytes (found %v), want %d", key, len(got), ok, len(want))
	}
}

// A body that deflates past a piece is kept in pieces, none larger than
// one, and reads back whole after a restart; replacing it or pruning its
// day leaves no piece behind.
func TestLargeAnswerIsKeptInPieces(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	big, small := noise(10*pieceSize+123), []byte(`{"small":true}`)
	for _, a := range []struct {
		key  string
		day  api.Date
		body []byte
	}{{"big", thu, big}, {"small", thu, small}, {"none", fri, nil}} {
		if err := s.KeepAnswer(ctx, a.key, a.day, a.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if largest, pieces := rowSizes(t, path, "big"); largest > pieceSize || pieces != 11 {
		t.Fatalf("the largest row holds %d bytes, the big answer %d pieces; want at most %d in 11", largest, pieces, pieceSize)
	}
	if s, err = Open(ctx, path, "sandbox"); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustAnswer(t, s, "big", big)
	mustAnswer(t, s, "small", small)
	mustAnswer(t, s, "none", nil)
	sum, err := s.Summary(ctx)
	if err != nil || len(sum.Services) != 1 || sum.Services[0].Answers != 3 || sum.Services[0].AnswersPacked < int64(len(big)) {
		t.Fatalf("summary %+v, %v", sum, err)
	}

	if err := s.KeepAnswer(ctx, "big", thu, small); err != nil {
		t.Fatal(err)
	}
	mustAnswer(t, s, "big", small)
	if _, pieces := rowSizes(t, path, "big"); pieces != 0 {
		t.Errorf("replaced by a small body, the answer keeps %d pieces", pieces)
	}
	if err := s.KeepAnswer(ctx, "big", thu, big); err != nil {
		t.Fatal(err)
	}
	mustAnswer(t, s, "big", big)
	if n, err := s.Prune(ctx, fri); err != nil || n != 2 {
		t.Fatalf("pruned %d rows, %v; want the two answers of thursday", n, err)
	}
	if _, pieces := rowSizes(t, path, "big"); pieces != 0 {
		t.Errorf("pruned, the answer leaves %d pieces", pieces)
	}
	if _, ok := s.Answer(ctx, "big"); ok {
		t.Error("a pruned answer still answers")
	}
}

// A store of schema 2, whose answers hold their bodies in their rows
// however large, migrates and still answers from them.
func TestSchema2BodiesStillAnswer(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	db, err := sql.Open("sqlite", dsn(path, defaultPolicy.busy))
	if err != nil {
		t.Fatal(err)
	}
	big := noise(3 * pieceSize)
	packed, err := deflate(big)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations[0], migrations[1],
		fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = 2", applicationID),
		"INSERT INTO services(id, name) VALUES (1, 'sandbox')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("INSERT INTO answers(service, key, day, body, size) VALUES (1, 'old', ?, ?, ?)", int64(thu), packed, len(big)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustAnswer(t, s, "old", big)
}
