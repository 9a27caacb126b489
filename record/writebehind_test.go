package record_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// askChains asks the sandbox for SPY's chain n times through a client
// that records to rec.
func askChains(t *testing.T, rec *record.Recorder, n int) {
	t.Helper()
	c := modeltest.StartSandbox(t, sandbox.Config{}, api.WithRecorder(rec))
	for range n {
		if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
	}
}

func segments(t *testing.T, dir string) []string {
	t.Helper()
	segs, err := filepath.Glob(filepath.Join(dir, "*", "*.cwr"))
	if err != nil {
		t.Fatal(err)
	}
	return segs
}

// TestWriteBehindWaitsAndCloseWritesAtOnce: answers wait before they are
// written (nothing is on disk a while after they arrived), and Close
// writes every one of them without waiting out the delay.
func TestWriteBehindWaitsAndCloseWritesAtOnce(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir, record.WithWriteBehind(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	askChains(t, rec, 3)
	time.Sleep(300 * time.Millisecond) // ample for a writer that does not wait
	if segs := segments(t, dir); len(segs) != 0 {
		t.Fatalf("answers written before their delay: %v", segs)
	}
	if err := rec.Close(); err != nil || rec.Notice() != "" {
		t.Fatalf("close: %v, notice %q", err, rec.Notice())
	}
	days, err := record.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 1 || days[0].Answers < 3 || len(days[0].Problems) != 0 {
		t.Fatalf("after close: %+v", days)
	}
}

// TestWriteBehindWritesWithoutClose: once its delay has passed an answer
// is on disk while the recorder goes on.
func TestWriteBehindWritesWithoutClose(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir, record.WithWriteBehind(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	askChains(t, rec, 1)
	for i := 0; ; i++ {
		days, err := record.List(dir)
		if err == nil && len(days) == 1 && days[0].Answers >= 1 {
			break
		}
		if i == 100 {
			t.Fatalf("no answer on disk after 10 s: %+v, %v", days, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFullQueueCutsWriteBehindShort: a burst of answers past the queue's
// length (a backfill, a scan) waits on the writing of the answers before
// it, never on writeBehind: with an hour's delay, every answer is handed
// over within the test's bound and written at Close.
func TestFullQueueCutsWriteBehindShort(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir, record.WithWriteBehind(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// No deferred Close: were the fix undone, it would wait on a Record
	// that waits an hour, and the test would hang instead of failing.
	const n = 300
	handed := make(chan struct{})
	go func() {
		defer close(handed)
		for i := range n {
			rec.Record(api.Answer{Key: fmt.Sprintf("application/json GET /v1/x?i=%d", i), Status: 200,
				Body: fmt.Appendf(nil, `{"i":%d}`, i), At: modeltest.Now})
		}
	}()
	select {
	case <-handed:
	case <-time.After(30 * time.Second):
		t.Fatal("a burst of answers waited on writeBehind")
	}
	if err := rec.Close(); err != nil || rec.Notice() != "" {
		t.Fatalf("close: %v, notice %q", err, rec.Notice())
	}
	days, err := record.List(dir)
	if err != nil || len(days) != 1 || days[0].Answers != n || len(days[0].Problems) != 0 {
		t.Fatalf("list %+v: %v", days, err)
	}
}
