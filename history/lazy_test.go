package history_test

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"chainwatch/api"
	"chainwatch/history"
)

// A lazy store makes its file at start and opens the database at its
// first use; one never used is closed without opening it.
func TestLazyStoreOpensAtFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chainwatch", "history.db")
	st, err := history.OpenLazy(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("before any use the file is %v (%v), want made and empty", fi, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Size() != 0 {
		t.Fatalf("a store never used was opened: %d bytes", fi.Size())
	}

	// The first use of each is the one that opens it: a write, then a
	// read, each under the service's row.
	st, err = history.OpenLazy(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	spy := []api.Symbol{{Underlying: api.Underlying{Symbol: "SPY", IV30: api.Some(21.5)}}}
	if err := st.KeepQuotes(ctx, thu, []string{"SPY"}, spy); err != nil {
		t.Fatal(err)
	}
	if err := st.KeepAnswer(ctx, "k", thu, []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil || st.Notice() != "" {
		t.Fatalf("close: %v, notice %q", err, st.Notice())
	}
	again, err := history.OpenLazy(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, missing := again.Quotes(ctx, thu, []string{"SPY"}); len(missing) != 0 || len(got) != 1 || got[0].IV30 != api.Some(21.5) {
		t.Errorf("after reopening: quotes %+v, missing %v", got, missing)
	}
	if body, found := again.Answer(ctx, "k"); !found || string(body) != `{"a":1}` {
		t.Errorf("after reopening: %q, %v", body, found)
	}
}

// What can be known without SQLite is refused at start, as Open refuses
// it: another kind of file, another program's database, a newer schema,
// a directory that cannot hold the file. None of them is changed.
func TestLazyStoreRefusesBadFilesUpFront(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("notes, not a database\n"), 400), 0o600); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	newer := filepath.Join(dir, "newer.db")
	for _, q := range []struct{ path, sql string }{
		{foreign, "CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('keep me')"},
	} {
		db, err := sql.Open("sqlite", q.path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(q.sql); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	st, err := history.Open(ctx, newer, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, c := range []struct{ path, want string }{
		{garbage, "not a readable SQLite database"},
		{foreign, "another program's SQLite database"},
		{newer, "schema version 99"},
	} {
		before, _ := os.ReadFile(c.path)
		_, err := history.OpenLazy(ctx, c.path, "sandbox")
		var bad *history.BadFileError
		if !errors.As(err, &bad) || bad.Path != c.path || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenLazy(%s) = %v, want a BadFileError saying %q", filepath.Base(c.path), err, c.want)
		}
		if after, _ := os.ReadFile(c.path); !bytes.Equal(before, after) {
			t.Errorf("%s was changed", filepath.Base(c.path))
		}
	}
	_, err = history.OpenLazy(ctx, filepath.Join(garbage, "history.db"), "sandbox")
	var bad *history.BadFileError
	if err == nil || errors.As(err, &bad) {
		t.Errorf("OpenLazy under a file = %v, want an error that is not a BadFileError", err)
	}
}

// A file whose header is a chainwatch store's but whose pages are not
// readable is found at the first use: the store answers nothing, keeps
// nothing, says so (WithSay, Notice) and leaves the file as it was.
func TestLazyStoreCorruptPastItsHeaderSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	st, err := history.Open(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.KeepQuotes(ctx, thu, []string{"SPY"}, []api.Symbol{{Underlying: api.Underlying{Symbol: "SPY"}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	body, err := os.ReadFile(path)
	if err != nil || len(body) < 4096 {
		t.Fatalf("the store is %d bytes (%v)", len(body), err)
	}
	for i := 100; i < 4096; i++ {
		body[i] = 0xA5
	}
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	st, err = history.OpenLazy(ctx, path, "sandbox", history.WithSay(func(s string) {
		mu.Lock()
		said = append(said, s)
		mu.Unlock()
	}))
	if err != nil {
		t.Fatalf("the header is a chainwatch store's, yet: %v", err)
	}
	if _, found := st.Answer(ctx, "k"); found {
		t.Error("a store that did not open answers")
	}
	if err := st.KeepAnswer(ctx, "k", thu, []byte("{}")); err == nil {
		t.Error("a store that did not open kept an answer")
	}
	if n := st.Notice(); !strings.Contains(n, path) || !strings.Contains(n, "running without history") {
		t.Errorf("notice %q", n)
	}
	mu.Lock()
	if len(said) != 1 || !strings.Contains(said[0], path) {
		t.Errorf("said %q, want the trouble once", said)
	}
	mu.Unlock()
	if err := st.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, body) {
		t.Error("the corrupt file was changed")
	}
}
