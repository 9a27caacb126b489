package model

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/market"
)

// TestStatusBarSaysHistoryIsNotSaving: while the store of past days
// cannot save (here another connection holds its write lock for good, as
// far as the store's patience goes), the status bar says so and where;
// once the lock is released and the kept answer saved, it says nothing
// more of it.
func TestStatusBarSaysHistoryIsNotSaving(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := history.Open(ctx, path, "sandbox", history.WithRetry(history.Retry{
		Busy: 20 * time.Millisecond, First: 2 * time.Millisecond, Ceiling: 20 * time.Millisecond, Tries: 2, Over: -1}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	client, err := api.NewClient(api.WithBaseURL("http://127.0.0.1:1"), api.WithHistory(st))
	if err != nil {
		t.Fatal(err)
	}

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lock, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if err := st.KeepAnswer(ctx, "chain", market.PrevTradingDay(api.Today(testNow)), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "saving to be off", func() bool { return st.Off() != nil })

	c := &clock{t: testNow}
	r := newRig(t, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark", Client: client})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if status := lastLine(ansi.Strip(r.a.drawAt(testNow))); !strings.Contains(status, "history: not saving to "+path) {
		t.Errorf("saving is off, yet the status bar says %q", status)
	}

	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the kept answer to be saved", func() bool { return st.Off() == nil && st.Kept() == 0 })
	if status := lastLine(ansi.Strip(r.a.drawAt(testNow))); strings.Contains(status, "history") {
		t.Errorf("saving works again, yet the status bar says %q", status)
	}
}

// waitFor waits for cond, checking it at most 3,000 times 10 ms apart.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 3000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never: %s", what)
}
