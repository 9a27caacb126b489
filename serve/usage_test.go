package serve

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
)

// usageAt is an Eastern instant of November 2026.
func usageAt(day, hour, minute int) time.Time {
	return time.Date(2026, 11, day, hour, minute, 0, 0, api.Eastern)
}

func rec(event, id string, at time.Time) UsageRecord {
	return UsageRecord{Event: event, ID: id, Key: "alice", Host: "desk1", Device: "10.0.0.7", Kind: UsageScreen, RealTime: true, At: at}
}

// appendMany appends n records of ids prefix-0 .. prefix-(n-1).
func appendMany(l *UsageLedger, prefix string, n int) error {
	for i := range n {
		if err := l.Append(rec(UsageStart, prefix+"-"+strconv.Itoa(i), usageAt(10, 9, i%60))); err != nil {
			return err
		}
	}
	return nil
}

// TestUsageHelperProcess is the second process of
// TestUsageLedgerTwoProcesses, not a test of its own.
func TestUsageHelperProcess(t *testing.T) {
	dir := os.Getenv("CHAINWATCH_USAGE_HELPER_DIR")
	if dir == "" {
		t.Skip("run by TestUsageLedgerTwoProcesses")
	}
	if err := appendMany(OpenUsage(dir), "child", 200); err != nil {
		t.Fatal(err)
	}
}

func TestUsageLedgerTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestUsageHelperProcess$", "-test.count=1")
	child.Env = append(os.Environ(), "CHAINWATCH_USAGE_HELPER_DIR="+dir)
	out := make(chan error, 1)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { out <- child.Wait() }()
	l := OpenUsage(dir)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, p := range []string{"a", "b"} {
		wg.Go(func() { errs <- appendMany(l, p, 200) })
	}
	wg.Wait()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-out:
		if err != nil {
			t.Fatalf("the second process: %v", err)
		}
	case <-time.After(time.Minute):
		_ = child.Process.Kill()
		t.Fatal("the second process did not end within a minute")
	}
	recs, err := l.Month("2026-11")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.ID] = true
	}
	if len(recs) != 600 || len(seen) != 600 {
		t.Fatalf("read %d records, %d distinct, of 600 appended by two goroutines and a process", len(recs), len(seen))
	}
	if st, err := os.Stat(filepath.Join(dir, "2026-11.jsonl")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the month's file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
}

func TestUsageLedgerDamagedLines(t *testing.T) {
	dir := t.TempDir()
	l := OpenUsage(dir)
	if err := l.Append(rec(UsageStart, "s1", usageAt(3, 10, 0))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "2026-11.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A hand edit, a record without an id, then a line cut off by a crash.
	fmt.Fprint(f, "not json\n{\"event\":\"start\",\"at\":\"2026-11-03T10:00:00-05:00\"}\n{\"event\":\"end\",\"id\":\"s1\",\"ke")
	f.Close()
	if err := l.Append(rec(UsageEnd, "s1", usageAt(3, 11, 0))); err != nil {
		t.Fatal(err)
	}
	recs, err := l.Month("2026-11")
	var dmg *DamagedLines
	if !errors.As(err, &dmg) || fmt.Sprint(dmg.Lines) != "[2 3 4]" {
		t.Fatalf("error %v; want the damaged lines 2, 3 and 4 named", err)
	}
	if len(recs) != 2 || recs[0].Event != UsageStart || recs[1].Event != UsageEnd || !recs[1].At.Equal(usageAt(3, 11, 0)) {
		t.Fatalf("records %+v; want the start and the end appended after the cut line", recs)
	}
}

func TestUsageLedgerMonths(t *testing.T) {
	l := OpenUsage(filepath.Join(t.TempDir(), "usage"))
	if recs, err := l.Month("2026-10"); recs != nil || err != nil {
		t.Fatalf("a month without a file: %v, %v; want none and no error", recs, err)
	}
	if _, err := l.Month("2026-13"); err == nil {
		t.Fatal("month 2026-13 was read")
	}
	// 23:30 on November 30th in Eastern is December 1st in UTC: it is
	// filed in November, by the exchange's calendar.
	late := time.Date(2026, 11, 30, 23, 30, 0, 0, api.Eastern)
	if err := l.Append(rec(UsageStart, "s1", late.UTC())); err != nil {
		t.Fatal(err)
	}
	if recs, err := l.Month("2026-11"); err != nil || len(recs) != 1 {
		t.Fatalf("November: %v, %v; want the record", recs, err)
	}
	if recs, err := l.Month("2026-12"); err != nil || len(recs) != 0 {
		t.Fatalf("December: %v, %v; want none", recs, err)
	}
	if err := l.Append(UsageRecord{Event: "begin", ID: "x", At: late}); err == nil {
		t.Fatal("a record of event \"begin\" was appended")
	}
}

func BenchmarkUsageAppend(b *testing.B) {
	l := OpenUsage(b.TempDir())
	r := rec(UsageStart, "s1", usageAt(10, 9, 0))
	for b.Loop() {
		if err := l.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}
