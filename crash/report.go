package crash

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Build says which chainwatch crashed: its version line and the commit
// it was built from (both from the command line's version).
type Build struct {
	Version string
	Commit  string
}

// Dir is the crash reports' directory under a state directory.
func Dir(stateDir string) string { return filepath.Join(stateDir, "crash") }

// Text is the report of c: what a bug report needs, and nothing of the
// trader's data or credentials (the Crash holds none).
func (c *Crash) Text(b Build) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "chainwatch crash report\n\n")
	fmt.Fprintf(&w, "version:  %s\n", b.Version)
	fmt.Fprintf(&w, "commit:   %s\n", b.Commit)
	fmt.Fprintf(&w, "platform: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&w, "time:     %s\n", c.Time.UTC().Format("2006-01-02T15:04:05.000Z"))
	if c.Width > 0 || c.Height > 0 {
		fmt.Fprintf(&w, "terminal: %dx%d\n", c.Width, c.Height)
	} else {
		fmt.Fprintf(&w, "terminal: size not known yet\n")
	}
	fmt.Fprintf(&w, "where:    %s\n", c.Where)
	fmt.Fprintf(&w, "panic:    %s\n", c.Value)
	fmt.Fprintf(&w, "\nthe last %d messages, oldest first:\n", len(c.Last))
	for _, l := range c.Last {
		fmt.Fprintf(&w, "  %s\n", l)
	}
	fmt.Fprintf(&w, "\nstack:\n%s", c.Stack)
	if !bytes.HasSuffix(c.Stack, []byte("\n")) {
		w.WriteByte('\n')
	}
	return w.Bytes()
}

// Write writes c's report into dir (made 0700 if missing) as a new file,
// crash-<UTC time>-<random>.txt, 0600, and returns its path. A report
// never overwrites another.
func Write(dir string, c *Crash, b Build) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("no state directory for a crash report")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "crash-"+c.Time.UTC().Format("20060102T150405Z")+"-*.txt") // 0600
	if err != nil {
		return "", err
	}
	if _, err := f.Write(c.Text(b)); err != nil {
		f.Close()
		return f.Name(), err
	}
	return f.Name(), f.Close()
}
