package crash_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/crash"
)

// A report is a new 0600 file in a 0700 directory, named by its time,
// with the build, the size, the panic, the last messages and the stack;
// a second one in the same second is another file.
func TestWriteReport(t *testing.T) {
	dir := crash.Dir(filepath.Join(t.TempDir(), "state"))
	c := &crash.Crash{Time: time.Date(2026, 11, 28, 23, 5, 6, 0, time.UTC), Where: "View", Value: "index out of range [4] with length 4",
		Stack: []byte("goroutine 1 [running]:\nchainwatch/ui.segments(...)\n"), Last: []string{"23:05:05.900 tea.KeyPressMsg j"}, Width: 160, Height: 48}
	b := crash.Build{Version: "v1.2.3 (go1.26 linux/amd64)", Commit: "abc123"}
	p1, err := crash.Write(dir, c, b)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := crash.Write(dir, c, b)
	if err != nil || p2 == p1 {
		t.Fatalf("second report %q (%v) over the first %q", p2, err, p1)
	}
	if !strings.HasPrefix(filepath.Base(p1), "crash-20261128T230506Z-") || filepath.Dir(p1) != dir {
		t.Errorf("path %s", p1)
	}
	for path, mode := range map[string]os.FileMode{dir: 0o700, p1: 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v, %v; want %v", path, fi.Mode().Perm(), err, mode)
		}
	}
	data, _ := os.ReadFile(p1)
	for _, want := range []string{"version:  v1.2.3", "commit:   abc123", "terminal: 160x48", "where:    View",
		"panic:    index out of range [4]", "the last 1 messages", "tea.KeyPressMsg j", "chainwatch/ui.segments"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the report lacks %q:\n%s", want, data)
		}
	}
}
