package history_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/history"
)

// TestBusyStoreLosesNoAnswer holds the store's write lock from another
// connection (another chainwatch writing, say) while past days are
// bought: each answer is kept, answers a second ask at no cost, is not
// said to be a trouble (a lock clears), and is in the file once the lock
// is released.
func TestBusyStoreLosesNoAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	var said sayings
	r := newRigAt(t, path, history.Patient(1<<30, time.Hour, 100), history.WithSay(said.add))
	release := holdWriteLock(t, path)

	chain := api.OptionQuotesParams{Symbol: "SPY", Date: wed.String(), MinExpiry: "2026-11-20", MaxExpiry: "2026-11-27"}
	quotes := api.UnderlyingQuotesParams{Symbols: []string{"SPY", "NOSUCH"}, Date: thu.String()}
	if _, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, chain); err != nil || resp.Cost != 3 {
		t.Fatalf("a chain while the store is locked: %+v, %v", resp, err)
	}
	if _, resp, err := r.client.UnderlyingQuotes(ctx, quotes); err != nil || resp.Cost != 3 {
		t.Fatalf("quotes while the store is locked: %+v, %v", resp, err)
	}
	if n := r.store.Kept(); n != 2 {
		t.Fatalf("%d answers kept while the store is locked, want 2", n)
	}
	// Kept answers answer: nothing is bought twice while they wait.
	if _, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, chain); err != nil || resp.Cost != 0 || !resp.FromHistory {
		t.Errorf("the chain again while locked: %+v, %v", resp, err)
	}
	got, resp, err := r.client.UnderlyingQuotes(ctx, quotes)
	if err != nil || resp.Cost != 0 || !resp.FromHistory || len(got) != 1 || got[0].Symbol != "SPY" {
		t.Errorf("the quotes again while locked: %+v, %+v, %v", got, resp, err)
	}
	if n, s := r.store.Notice(), said.all(); n != "" || r.store.Off() != nil || len(s) != 0 {
		t.Errorf("a lock is a passing trouble, yet the store says %q, off %v, said %q", n, r.store.Off(), s)
	}

	release()
	until(t, "the kept answers are saved once the lock is released", func() bool { return r.store.Kept() == 0 })
	assertStored(t, r, path, chain, quotes)
}

// TestFullStoreTurnsSavingOffAndBack fills the disk under the store: the
// failure persists, so saving is said to be off on screen, in the log and
// by Notice, the answers bought meanwhile are kept and answer, and once
// space is freed they are saved and the return is said.
func TestFullStoreTurnsSavingOffAndBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	var said sayings
	var log lockedBuffer
	r := newRigAt(t, path, history.Patient(3, 0, 100), history.WithSay(said.add),
		history.WithLog(slog.New(slog.NewTextHandler(&log, nil))))
	if err := history.FillDisk(ctx, r.store); err != nil {
		t.Fatal(err)
	}
	chain := api.OptionQuotesParams{Symbol: "SPY", Date: wed.String()}
	quotes := api.UnderlyingQuotesParams{Symbols: []string{"QQQ"}, Date: thu.String()}
	if _, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, chain); err != nil || resp.Cost != 3 {
		t.Fatalf("a full store must not cost the answer: %+v, %v", resp, err)
	}
	until(t, "saving is turned off", func() bool { return r.store.Off() != nil })
	if _, resp, err := r.client.UnderlyingQuotes(ctx, quotes); err != nil || resp.Cost != 3 {
		t.Fatalf("quotes with saving off: %+v, %v", resp, err)
	}
	notice := r.store.Notice()
	for _, want := range []string{"not saving to " + path, "full", "2 answers kept"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the notice %q does not say %q", notice, want)
		}
	}
	if s := said.all(); len(s) != 1 || !strings.Contains(s[0], "not saving to "+path) {
		t.Errorf("said on screen: %q, want the one line that saving is off", s)
	}
	if l := log.String(); !strings.Contains(l, "level=ERROR msg=\"history: saving off") || !strings.Contains(l, "full") {
		t.Errorf("the log does not say saving is off, and why:\n%s", l)
	}
	if _, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, chain); err != nil || resp.Cost != 0 {
		t.Errorf("a kept chain asked again: %+v, %v", resp, err)
	}

	if err := history.ClearDisk(ctx, r.store); err != nil {
		t.Fatal(err)
	}
	until(t, "saving resumes once space is freed", func() bool { return r.store.Off() == nil && r.store.Kept() == 0 })
	until(t, "the return is said", func() bool { return len(said.all()) == 2 })
	if s := said.all()[1]; !strings.Contains(s, "saving to "+path+" again") || !strings.Contains(s, "2 answers") {
		t.Errorf("said on screen at the return: %q", s)
	}
	if n := r.store.Notice(); n != "" {
		t.Errorf("the notice after the return: %q, want none", n)
	}
	if l := log.String(); !strings.Contains(l, "level=INFO msg=\"history: saving again\"") {
		t.Errorf("the log does not say saving is back:\n%s", l)
	}
	assertStored(t, r, path, chain, quotes)
}

// TestKeptAnswersAreBounded: past the bound an answer is dropped, and
// that is said; the ones kept are saved when saving comes back, and the
// notice goes on saying how many were lost.
func TestKeptAnswersAreBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	var said sayings
	st, err := history.Open(ctx, path, "sandbox", history.Patient(1<<30, time.Hour, 2), history.WithSay(said.add))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := history.FillDisk(ctx, st); err != nil {
		t.Fatal(err)
	}
	body := incompressible(8192) // more than a page, deflated too
	for i := range 3 {
		if err := st.KeepAnswer(ctx, fmt.Sprint("key", i), wed, body); err != nil {
			t.Fatalf("KeepAnswer %d: %v", i, err)
		}
	}
	if n := st.Kept(); n != 2 {
		t.Errorf("%d answers kept, want the bound, 2", n)
	}
	if n := st.Notice(); !strings.Contains(n, "1 answers dropped unsaved") || !strings.Contains(n, "paid again") {
		t.Errorf("the notice %q does not say an answer was dropped", n)
	}
	if s := said.all(); len(s) != 1 || !strings.Contains(s[0], "1 answers dropped") {
		t.Errorf("said on screen: %q, want the drop", s)
	}
	if err := history.ClearDisk(ctx, st); err != nil {
		t.Fatal(err)
	}
	until(t, "the kept answers are saved", func() bool { return st.Kept() == 0 })
	for i, want := range []bool{true, true, false} {
		if _, ok := st.Answer(ctx, fmt.Sprint("key", i)); ok != want {
			t.Errorf("key%d stored: %v, want %v", i, ok, want)
		}
	}
	if n := st.Notice(); !strings.Contains(n, "1 answers dropped unsaved") {
		t.Errorf("after the return the notice %q forgets the answer lost", n)
	}
}

// TestCloseSavesKeptAnswersOrSaysSo: Close tries the kept answers once
// more; what it cannot save it counts in its error.
func TestCloseSavesKeptAnswersOrSaysSo(t *testing.T) {
	dir := t.TempDir()
	busy := filepath.Join(dir, "busy.db")
	st, err := history.Open(ctx, busy, "sandbox", history.Patient(1<<30, time.Hour, 100))
	if err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, busy)
	if err := st.KeepAnswer(ctx, "k", wed, []byte("{}")); err != nil || st.Kept() != 1 {
		t.Fatalf("KeepAnswer while locked: %v, %d kept", err, st.Kept())
	}
	release()
	if err := st.Close(); err != nil {
		t.Fatalf("Close once the lock is released: %v", err)
	}
	st, err = history.Open(ctx, busy, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	if body, ok := st.Answer(ctx, "k"); !ok || string(body) != "{}" {
		t.Errorf("the answer kept when Close began is not stored: %q, %v", body, ok)
	}
	st.Close()

	full := filepath.Join(dir, "full.db")
	if st, err = history.Open(ctx, full, "sandbox", history.Patient(1<<30, time.Hour, 100)); err != nil {
		t.Fatal(err)
	}
	if err := history.FillDisk(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := st.KeepAnswer(ctx, "k", wed, incompressible(8192)); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err == nil || !strings.Contains(err.Error(), "1 answers not saved to "+full) {
		t.Errorf("Close with a full disk: %v, want it to say 1 answer was lost", err)
	}
}

// assertStored checks, through another store on the file and another
// client (another chainwatch), that the answers are in the file: asked
// again, they cost nothing and the service sees no request.
func assertStored(t *testing.T, r *rig, path string, chain api.OptionQuotesParams, quotes api.UnderlyingQuotesParams) {
	t.Helper()
	other, err := history.Open(ctx, path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c := r.newClient(t, other)
	before := len(r.reqs.Paths())
	if _, resp, err := c.OptionAndUnderlyingQuotes(ctx, chain); err != nil || !resp.FromHistory {
		t.Errorf("the chain from the file: %+v, %v", resp, err)
	}
	if _, resp, err := c.UnderlyingQuotes(ctx, quotes); err != nil || !resp.FromHistory {
		t.Errorf("the quotes from the file: %+v, %v", resp, err)
	}
	if n := len(r.reqs.Paths()) - before; n != 0 {
		t.Errorf("the service saw %d requests for answers that should be stored", n)
	}
}

// holdWriteLock takes the database's write lock from a connection of its
// own (BEGIN IMMEDIATE) until the returned func is called.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Error(err)
			}
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// until waits for cond, checking it at most 3,000 times 10 ms apart.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 3000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never: %s", what)
}

// incompressible is n bytes that deflating does not shrink below a page.
func incompressible(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

// sayings collects the lines the store says for the screen.
type sayings struct {
	mu    sync.Mutex
	lines []string
}

func (s *sayings) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, line)
}

func (s *sayings) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// lockedBuffer is the log: written by the store's goroutines, read here.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
