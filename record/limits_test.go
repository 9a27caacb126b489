package record_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// TestFullDiskStopsRecordingWithANotice: a segment on a full disk
// (/dev/full answers every write with ENOSPC) stops the recorder with a
// notice, and the client's answers go on arriving.
func TestFullDiskStopsRecordingWithANotice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/dev/full is Linux's")
	}
	rec, err := record.Open(t.TempDir(), record.WithOpener(func(string) (*os.File, error) {
		return os.OpenFile("/dev/full", os.O_WRONLY, 0)
	}))
	if err != nil {
		t.Fatal(err)
	}
	c := modeltest.StartSandbox(t, sandbox.Config{}, api.WithRecorder(rec))
	for i := range 3 {
		ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
		if err != nil || len(ch.Options) == 0 {
			t.Fatalf("answer %d after the disk filled: %v", i, err)
		}
	}
	rec.Close()
	if n := rec.Notice(); !strings.Contains(n, "recording stopped: the disk is full") {
		t.Fatalf("notice %q", n)
	}
}

// TestSizeCapRemovesTheOldestDaysFirst: past the cap the oldest days go,
// the newer ones and the day being recorded stay.
func TestSizeCapRemovesTheOldestDaysFirst(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"2026-11-16", "2026-11-17", "2026-11-18"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "1-1.cwr"), make([]byte, 2<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// 5 MiB: the three old days (6 MiB) and today's are over it; the
	// oldest goes, the second-oldest too once today's answers count.
	recordSession(t, dir, 2, record.WithMaxBytes(5<<20))
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	got := strings.Join(names, " ")
	if strings.Contains(got, "2026-11-16") || !strings.Contains(got, "2026-11-18") || !strings.Contains(got, "2026-11-20") {
		t.Fatalf("days left: %s", got)
	}
	gone, err := record.Prune(dir, api.NewDate(2026, 11, 19))
	if err != nil || len(gone) == 0 {
		t.Fatalf("prune: %v %v", gone, err)
	}
	days, _ := record.List(dir)
	if len(days) != 1 || days[0].Date != "2026-11-20" {
		t.Fatalf("after prune: %+v", days)
	}
}
